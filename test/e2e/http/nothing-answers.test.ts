// With nothing listening at the provider's address (the sandbox stopped, a wrong port), a command
// says so: nothing answers at HOST:PORT, and what to check (is the server running, is the URL's
// setting right), with the transient exit code (4) and no credential in the message.
import { describe, expect, it } from 'vitest';
import { baseEnv, CANARY, runDist, tempDir } from '../../helpers/cli.js';
import { freePort } from '../../helpers/programs.js';

describe('nothing listening at the provider URL', () => {
  it('the registrar API: exit 4, nothing answers at HOST:PORT, check the server and DDEDGE_API_URL', async () => {
    const port = await freePort();
    const env = baseEnv({
      // A user name and password in the URL are credentials too: never shown.
      DDEDGE_API_URL: `http://apiuser:${CANARY}@127.0.0.1:${port}`,
      DDEDGE_API_USER: 'u',
      DDEDGE_API_PASSWORD: CANARY,
      DDEDGE_STATE_DIR: tempDir('ddedge-state-'),
    });
    for (const args of [
      ['zone', 'export', '--service', 'example.com'],
      ['api', 'account', 'info'],
    ]) {
      const run = await runDist(args, env);
      expect(run.code, run.stderr).toBe(4);
      expect(run.stderr).toContain(`nothing answers at 127.0.0.1:${port}`);
      expect(run.stderr).toMatch(/is the registrar API \(or ddedge sandbox\) running.*DDEDGE_API_URL/);
      expect(run.stdout + run.stderr).not.toContain(CANARY);
    }
  });

  it('dynamic DNS: the host line fails with the same advice, naming DDEDGE_DYNDNS_URL', async () => {
    const port = await freePort();
    const env = baseEnv({
      DDEDGE_DYNDNS_URL: `http://127.0.0.1:${port}`,
      DDEDGE_DYNDNS_USER: 'u',
      DDEDGE_DYNDNS_KEY: CANARY,
      DDEDGE_HOSTS: 'home.example.com',
      DDEDGE_STATE_DIR: tempDir('ddedge-state-'),
    });
    const run = await runDist(['update', '--ip', '81.0.2.15'], env);
    expect(run.code, run.stderr).toBe(4);
    expect(run.stderr).toContain(`nothing answers at 127.0.0.1:${port}`);
    expect(run.stderr).toMatch(/is the dynamic DNS service \(or ddedge sandbox\) running.*DDEDGE_DYNDNS_URL/);
    expect(run.stdout + run.stderr).not.toContain(CANARY);
  });
});
