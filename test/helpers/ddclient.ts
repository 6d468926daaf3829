// Debian's ddclient, run once in the foreground with a configuration of the test's own, as the
// tests of the sandbox (its `dondominio` protocol) and of the gateway's dyndns2 door run it.
// A test needing it skips without it, and fails under DDEDGE_REQUIRE_TOOLS=1 (requireTool, as CI runs).
import { execFile } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './cli.js';
import { requireTool } from './programs.js';

export const DDCLIENT = requireTool('ddclient');

export interface DdclientRun {
  output: string;
  /** ddclient said it updated home.example.com. */
  success: boolean;
  /** ddclient said its update of home.example.com failed. */
  failed: boolean;
}

/** One forced run of ddclient with `lines` as its configuration file (written 0600, as it insists). */
export async function runDdclient(lines: string[]): Promise<DdclientRun> {
  const dir = tempDir('ddedge-ddclient-');
  const conf = join(dir, 'ddclient.conf');
  writeFileSync(conf, [...lines, ''].join('\n'));
  chmodSync(conf, 0o600);
  const output = await new Promise<string>((resolve) =>
    execFile(
      DDCLIENT!,
      ['-daemon=0', '-foreground', '-verbose', '-noquiet', '-force', '-file', conf, '-cache', join(dir, 'cache')],
      { timeout: 30_000 },
      (_e, stdout, stderr) => resolve(stdout + stderr),
    ),
  );
  return {
    output,
    success: /SUCCESS:\s+updating home\.example\.com/.test(output),
    failed: /FAILED:\s+updating home\.example\.com/.test(output),
  };
}
