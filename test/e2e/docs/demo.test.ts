// npm run demo (scripts/demo.mjs) tells what it does: the first update goes through dynamic DNS.
// The user's own DDEDGE_ settings, in the shell or in a ./.env where it is run, must not turn
// it into something else while it says that.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseEnv, tempDir, type RunResult } from '../../helpers/cli.js';
import { REPO } from '../../helpers/readme-recipes.js';

function demo(env: Record<string, string>, cwd: string): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(REPO, 'scripts/demo.mjs')], {
      env,
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('npm run demo', () => {
  it('does what it says (dynamic DNS) whatever DDEDGE_ settings the shell and ./.env hold', async () => {
    const cwd = tempDir('ddedge-demo-cwd-');
    writeFileSync(join(cwd, '.env'), 'DDEDGE_DYNDNS_FORMAT=xml\nDDEDGE_LOG_LEVEL=error\n', { mode: 0o600 });
    const run = await demo(
      baseEnv({ DDEDGE_VIA: 'api', DDEDGE_MAX_AGE: '1s', DDEDGE_IP_SOURCES: 'url:http://127.0.0.1:9/' }),
      cwd,
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('ddedge sends it through dynamic DNS');
    expect(run.stdout).toMatch(/^home\.example\.com A 81\.0\.2\.15 sent \S+ via dyndns$/m);
    expect(run.stdout).toContain('[sandbox: GET /json/');
    expect(run.stdout).toMatch(/^home\.example\.com A 81\.0\.2\.15 unchanged$/m);
  });
});
