// Any HTTP status the client did not ask for (101, 3xx, 304) is a transient failure with a
// message; the lock is released; the heartbeat monitor answering one is a warning and the cycle
// still runs.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentEnv } from '../../helpers/agent-env.js';
import { runDist, runMain, startDist, waitForOutput } from '../../helpers/cli.js';
import { rawResponse, startRawServer, type RawServer } from '../../helpers/raw-server.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const SWITCHING = rawResponse('101 Switching Protocols', '', { upgrade: 'websocket', connection: 'Upgrade' }).replace(
  /content-length: 0\r\n/,
  '',
);

const sandbox = useSandbox();
let raw: RawServer | undefined;
afterEach(async () => {
  await raw?.close();
  raw = undefined;
});

describe('answers with a status nobody asked for', () => {
  it.each([
    ['101 Switching Protocols', SWITCHING],
    ['302 Found', rawResponse('302 Found', '', { location: 'http://127.0.0.1:1/elsewhere' })],
    ['304 Not Modified', 'HTTP/1.1 304 Not Modified\r\n\r\n'],
    ['307 Temporary Redirect', rawResponse('307 Temporary Redirect', 'moved')],
  ])(
    'dynamic DNS answering %s is transient (exit 4) with a message, state written and the lock released',
    async (status, answer) => {
      raw = await startRawServer(() => answer);
      const env = agentEnv(sandbox, { DDEDGE_DYNDNS_URL: raw.url, DDEDGE_TIMEOUT: '3s' });
      const result = await runDist(['update', '--ip', '81.0.2.15'], env);
      expect(result.code).toBe(4);
      expect(result.stdout).toBe('home.example.com A 81.0.2.15 failed\n');
      expect(result.stderr).toContain(`answered HTTP ${status.split(' ')[0]}`);
      expect(existsSync(join(env.DDEDGE_STATE_DIR!, 'lock'))).toBe(false);
      expect(JSON.parse(readFileSync(join(env.DDEDGE_STATE_DIR!, 'state.json'), 'utf8')).lastCycleExitCode).toBe(4);
    },
  );

  it('the registrar API answering 101 is transient (exit 4), said as the status, not retried', async () => {
    raw = await startRawServer(() => SWITCHING);
    const env = agentEnv(sandbox, {
      DDEDGE_API_URL: raw.url,
      DDEDGE_API_USER: 'u',
      DDEDGE_API_PASSWORD: 'api-pw-101',
      DDEDGE_VIA: 'api',
      DDEDGE_TIMEOUT: '3s',
    });
    const result = await runMain(['update', '--ip', '81.0.2.15'], env);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('answered HTTP 101');
    expect(raw.requests).toHaveLength(1);
    expect(existsSync(join(env.DDEDGE_STATE_DIR!, 'lock'))).toBe(false);
  });

  it('a heartbeat monitor answering 101 is a warning: update still runs and exits 0', async () => {
    raw = await startRawServer(() => SWITCHING);
    const env = agentEnv(sandbox, { DDEDGE_PING_URL: `${raw.url}ping`, DDEDGE_TIMEOUT: '3s' });
    const result = await runMain(['update', '--ip', '81.0.2.15'], env);
    expect(result).toMatchObject({ code: 0, stdout: 'home.example.com A 81.0.2.15 updated\n' });
    expect(result.stderr).toMatch(/warn: the heartbeat monitor answered HTTP 101/);
    expect(raw.requests.length).toBe(2);
    expect(existsSync(join(env.DDEDGE_STATE_DIR!, 'lock'))).toBe(false);
  });

  it('the daemon keeps running cycles with a heartbeat monitor that answers 101', async () => {
    raw = await startRawServer(() => SWITCHING);
    const env = agentEnv(sandbox, { DDEDGE_PING_URL: `${raw.url}ping`, DDEDGE_TIMEOUT: '3s' });
    const daemon = startDist(['daemon', '--ip', '81.0.2.15'], env);
    await waitForOutput(daemon, 'stderr', (text) => text.includes('set to 81.0.2.15'));
    daemon.kill('SIGTERM');
    const result = await daemon.result;
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('daemon stopped');
  });
});
