// An engine address ddedge cannot use is refused at the command's start (exit 2) by the one
// reader of engine URLs (src/containers/engine/engine-url.ts), whose message says what to write
// instead, naming the setting as the user gave it (--containers or DDEDGE_CONTAINERS).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseEnv, runDist, startDist, tempDir, waitForOutput } from '../../helpers/cli.js';

const env = (extra: Record<string, string> = {}) =>
  baseEnv({
    DDEDGE_API_URL: 'http://127.0.0.1:1',
    DDEDGE_API_USER: 'u',
    DDEDGE_API_PASSWORD: 'pw-engine-url-Zq81x',
    DDEDGE_SERVICE: 'example.com',
    DDEDGE_STATE_DIR: tempDir('ddedge-state-'),
    ...extra,
  });

const CASES: [string, string][] = [
  ['tcp://127.0.0.1:2375', "Docker's tcp://127.0.0.1:2375 is written http://127.0.0.1:2375 here"],
  ['https://docker.example:2376', 'TLS to an engine (client certificates) is not supported'],
  ['/var/run/docker.sock', 'for a socket write unix:///var/run/docker.sock'],
];

describe('an engine URL ddedge cannot use', () => {
  it.each(CASES)('update --containers %s: exit 2, saying what to write instead', async (url, hint) => {
    const run = await runDist(['update', '--ip', '81.0.2.15', '--containers', url], env());
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/^ddedge: --containers: /);
    expect(run.stderr).toContain(hint);
    expect(run.stderr).not.toContain('pw-engine-url-Zq81x');
  });

  it.each(CASES)('daemon with DDEDGE_CONTAINERS=%s: exit 2 at start, naming the variable', async (url, hint) => {
    const run = await runDist(
      ['daemon', '--ip', '81.0.2.15', '--listen', '127.0.0.1:0'],
      env({ DDEDGE_CONTAINERS: url }),
    );
    expect(run.code, run.stderr).toBe(2);
    // Before anything started: no endpoint said it serves.
    expect(run.stderr).not.toContain('serving');
    expect(run.stderr).toMatch(/^ddedge: DDEDGE_CONTAINERS: /);
    expect(run.stderr).toContain(hint);
  });
});

describe('the engine settings changed while the daemon runs', () => {
  it('a SIGHUP reload says they take effect at the next start (the engine of the start is followed)', async () => {
    const settings = join(tempDir('ddedge-settings-'), 'ddedge.env');
    writeFileSync(settings, 'DDEDGE_CONTAINERS=unix:///nonexistent/a.sock\n', { mode: 0o600 });
    const daemon = startDist(['daemon', '--ip', '81.0.2.15', '--interval', '1h', '--env-file', settings], env());
    try {
      await waitForOutput(daemon, 'stderr', (t) => t.includes('daemon started'));
      writeFileSync(settings, 'DDEDGE_CONTAINERS=tcp://127.0.0.1:2375\n', { mode: 0o600 });
      const said = waitForOutput(daemon, 'stderr', (t) => /take effect .*\n/.test(t));
      daemon.kill('SIGHUP');
      const line = (await said).split('\n').find((l) => l.includes('take effect'))!;
      expect(line).toMatch(/^warn: containers: /);
      expect(line).not.toContain('pw-engine-url-Zq81x');
    } finally {
      daemon.kill('SIGTERM');
      await daemon.result;
    }
  });
});
