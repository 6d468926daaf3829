// Around the cycle: the --on-change hook, the heartbeat monitor, the Prometheus metrics file.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentEnv } from '../../helpers/agent-env.js';
import { CANARY, runDist, runMain, tempDir } from '../../helpers/cli.js';
import { startServer, type TestServer } from '../../helpers/servers.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox();
let monitor: TestServer | undefined;
beforeEach(async () => {
  sandbox.model.account.dyndnsKey = CANARY;
});
afterEach(async () => {
  await monitor?.close();
  monitor = undefined;
});
const env = (extra: Record<string, string> = {}) => agentEnv(sandbox, { DDEDGE_DYNDNS_KEY: CANARY, ...extra });

describe('--on-change', () => {
  it('runs after a record changes, with host, type, old and new address, and no secret', async () => {
    const out = join(tempDir(), 'hook.env');
    const base = env({ DDEDGE_ON_CHANGE: `env > ${out}`, SOME_API_TOKEN: 'not-for-hooks' });
    await runDist(['update', '--ip', '81.0.2.15'], base);
    const result = await runDist(['update', '--ip', '81.0.2.16'], base);
    expect(result.code).toBe(0);
    const hookEnv = readFileSync(out, 'utf8');
    expect(hookEnv).toMatch(/^DDEDGE_HOST=home\.example\.com$/m);
    expect(hookEnv).toMatch(/^DDEDGE_TYPE=A$/m);
    expect(hookEnv).toMatch(/^DDEDGE_OLD_ADDRESS=81\.0\.2\.15$/m);
    expect(hookEnv).toMatch(/^DDEDGE_NEW_ADDRESS=81\.0\.2\.16$/m);
    expect(hookEnv).toMatch(/^DDEDGE_VIA=dyndns$/m);
    expect(hookEnv).not.toContain(CANARY);
    expect(hookEnv).not.toMatch(/DDEDGE_DYNDNS_KEY|DDEDGE_DYNDNS_USER|SOME_API_TOKEN/);
  });

  it('does not run when nothing changed', async () => {
    const out = join(tempDir(), 'hook.env');
    await runDist(['update', '--ip', '81.0.2.15'], env());
    await runDist(['update', '--ip', '81.0.2.15'], env({ DDEDGE_ON_CHANGE: `env > ${out}` }));
    expect(existsSync(out)).toBe(false);
  });

  it('a failing hook is reported and does not fail the update', async () => {
    const result = await runDist(['update', '--ip', '81.0.2.15'], env({ DDEDGE_ON_CHANGE: 'echo boom >&2; exit 3' }));
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/warn: --on-change for home\.example\.com A failed \(exit 3\): boom/);
  });

  it('a hanging hook is stopped at its timeout, with its children', async () => {
    const started = Date.now();
    const result = await runDist(
      ['update', '--ip', '81.0.2.15', '--on-change', 'sleep 30 & sleep 30', '--on-change-timeout', '300ms'],
      env(),
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/--on-change for home\.example\.com A was stopped after 300 ms/);
    // Below the children's 30 s, well above a start of the built file on a loaded machine.
    expect(Date.now() - started).toBeLessThan(25_000);
  });
});

describe('--ping-url', () => {
  it('pings /start, then the URL on success, and /fail on failure, with the URL hidden in logs', async () => {
    monitor = await startServer('OK');
    const pingUrl = `${monitor.url}ping/${'5e3a'.repeat(8)}`;
    expect(
      (await runMain(['update', '--ip', '81.0.2.15', '--log-level', 'debug'], env({ DDEDGE_PING_URL: pingUrl }))).code,
    ).toBe(0);
    const failed = await runMain(
      ['update', '--ip', '81.0.2.15', '--host', 'nope.example.com', '--log-level', 'debug'],
      env({ DDEDGE_PING_URL: pingUrl }),
    );
    expect(failed.code).toBe(7);
    const path = new URL(pingUrl).pathname;
    expect(monitor.requests.map((r) => r.url)).toEqual([`${path}/start`, path, `${path}/start`, `${path}/fail`]);
    expect(failed.stderr).not.toContain('5e3a5e3a');
  });

  it('an unreachable monitor is a warning, not a failure', async () => {
    const result = await runMain(
      ['update', '--ip', '81.0.2.15'],
      env({ DDEDGE_PING_URL: 'http://127.0.0.1:9/ping/abc123456' }),
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/warn: heartbeat not delivered/);
    expect(result.stderr).not.toContain('abc123456');
  });

  it('refuses a plain-http monitor that is not on this machine (exit 2)', async () => {
    expect(
      (await runMain(['update', '--ip', '81.0.2.15'], env({ DDEDGE_PING_URL: 'http://hc.example.net/ping/x' }))).code,
    ).toBe(2);
  });
});

describe('--metrics-file', () => {
  it('writes Prometheus text metrics: last success, last change, failures by kind, address info', async () => {
    const file = join(tempDir(), 'ddedge.prom');
    const shared = env();
    await runMain(['update', '--ip', '81.0.2.15', '--metrics-file', file], shared);
    await runMain(
      [
        'update',
        '--ip',
        '81.0.2.15',
        '--host',
        'home.example.com',
        '--host',
        'nope.example.com',
        '--metrics-file',
        file,
      ],
      shared,
    );
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^# TYPE ddedge_last_success_timestamp_seconds gauge$/m);
    expect(Number(/^ddedge_last_success_timestamp_seconds (\d+)$/m.exec(text)![1])).toBeGreaterThan(
      Date.now() / 1000 - 60,
    );
    expect(Number(/^ddedge_last_change_timestamp_seconds (\d+)$/m.exec(text)![1])).toBeGreaterThan(0);
    expect(text).toMatch(/^ddedge_failures_total\{kind="refused"\} 1$/m);
    expect(text).toMatch(/^ddedge_failures_total\{kind="transient"\} 0$/m);
    // One record current, one refused: a partial cycle.
    expect(text).toMatch(/^ddedge_last_cycle_exit_code 5$/m);
    expect(text).toMatch(/^ddedge_address_info\{host="home\.example\.com",type="A",address="81\.0\.2\.15"\} 1$/m);
    // Every sample line is name{labels} value, as the text format wants.
    for (const line of text.split('\n').filter((l) => l && !l.startsWith('#')))
      expect(line).toMatch(/^[a-z_]+(\{[^}]*\})? \d+$/);
  });

  it('an unwritable metrics file is a warning, not a failure', async () => {
    const result = await runMain(
      ['update', '--ip', '81.0.2.15', '--metrics-file', '/nonexistent-dir/ddedge.prom'],
      env(),
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/warn: cannot write the metrics file/);
  });
});
