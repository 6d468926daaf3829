// A provider that refuses hosts, a misconfiguration with thousands of them, cycles run again
// and again: the agent's calls stay within --max-calls-per-hour, and a refused record is not
// asked for again every cycle. The cycles run by main() in this process, each with fresh modules
// as a new process has (update.test.ts runs the built file).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentEnv, providerCalls, withApi } from '../../helpers/agent-env.js';
import { runMain } from '../../helpers/cli.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox();

const stateOf = (env: Record<string, string>) =>
  JSON.parse(readFileSync(join(env.DDEDGE_STATE_DIR!, 'state.json'), 'utf8'));

describe('the hourly budget of provider calls', () => {
  it('2,000 refused hosts over four runs stay within the default budget of 60', async () => {
    const hosts = Array.from({ length: 2000 }, (_, i) => `h${i}.nowhere.example.com`).join(',');
    const env = agentEnv(sandbox, { DDEDGE_HOSTS: hosts });
    for (let run = 0; run < 4; run++) {
      const result = await runMain(['update', '--ip', '81.0.2.15'], env);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(
        /the budget of 60 provider calls an hour is spent; calls resume at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/,
      );
      // Said once, not once per host.
      expect(result.stderr.match(/budget of 60/g)).toHaveLength(1);
      expect(result.stderr).not.toMatch(/internal error/);
    }
    expect(providerCalls(sandbox)).toBe(60);
  });

  it('past the budget: exit 4, nothing sent, saying when calls resume', async () => {
    const env = agentEnv(sandbox, { DDEDGE_HOSTS: 'home.example.com,example.com', DDEDGE_MAX_CALLS_PER_HOUR: '2' });
    expect((await runMain(['update', '--ip', '81.0.2.15'], env)).code).toBe(0);
    const spent = await runMain(['update', '--ip', '81.0.2.16', '--json'], env);
    expect(spent.code).toBe(4);
    expect(JSON.parse(spent.stdout).hosts.map((h: { action: string }) => h.action)).toEqual(['failed', 'failed']);
    expect(spent.stderr).toMatch(/calls resume at/);
    expect(providerCalls(sandbox)).toBe(2);
    // --force ignores the cache, never the budget.
    expect((await runMain(['update', '--ip', '81.0.2.16', '--force'], env)).code).toBe(4);
    expect(providerCalls(sandbox)).toBe(2);
  });

  it('counts every API call: each list page and each update', async () => {
    const env = agentEnv(sandbox, {
      ...withApi(sandbox),
      DDEDGE_VIA: 'api',
      DDEDGE_HOSTS: 'home.example.com,www.example.com',
      DDEDGE_MAX_CALLS_PER_HOUR: '3',
    });
    const result = await runMain(['update', '--ip', '81.0.2.15'], env);
    // home: dnslist + dnsupdate; www: dnslist, then its update is refused unsent.
    expect(result.code).toBe(5);
    expect(providerCalls(sandbox)).toBe(3);
    expect(Object.values(stateOf(env).calls as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(3);
  });

  it('an invalid budget is a configuration error', async () => {
    for (const value of ['0', '-1', 'lots', '100000']) {
      const result = await runMain(['update', '--ip', '81.0.2.15', '--max-calls-per-hour', value], agentEnv(sandbox));
      expect(result).toMatchObject({ code: 2, stderr: expect.stringContaining('--max-calls-per-hour') });
    }
    expect(providerCalls(sandbox)).toBe(0);
  });
});

describe('per-record backoff after a refusal', () => {
  it('a refused host is not asked again until its backoff ends, the configuration changes, or --force', async () => {
    const env = agentEnv(sandbox, { DDEDGE_HOSTS: 'nope.example.com' });
    expect((await runMain(['update', '--ip', '81.0.2.15'], env)).code).toBe(7);
    expect(sandbox.calls.get('dyndns')).toBe(1);
    const held = await runMain(['update', '--ip', '81.0.2.15'], env);
    expect(held.code).toBe(7);
    expect(held.stdout).toBe('nope.example.com A 81.0.2.15 failed\n');
    expect(sandbox.calls.get('dyndns')).toBe(1);
    expect(stateOf(env).records['nope.example.com/A'].backoff).toMatchObject({ failures: 1, exitCode: 7 });
    const status = await runMain(['status'], env);
    expect(status.stdout).toMatch(/^nope\.example\.com A .*; next attempt after \S+Z$/m);
    // --force tries now; the refusal doubles the wait.
    expect((await runMain(['update', '--ip', '81.0.2.15', '--force'], env)).code).toBe(7);
    expect(sandbox.calls.get('dyndns')).toBe(2);
    const backoff = stateOf(env).records['nope.example.com/A'].backoff;
    expect(backoff.failures).toBe(2);
    expect(Date.parse(backoff.until) - Date.now()).toBeGreaterThan(9 * 60_000);
    // A configuration change (here the answer format) starts over.
    expect((await runMain(['update', '--ip', '81.0.2.15', '--dyndns-format', 'xml'], env)).code).toBe(7);
    expect(sandbox.calls.get('dyndns')).toBe(3);
    expect(stateOf(env).records['nope.example.com/A'].backoff.failures).toBe(1);
    // The state keeps a digest of the configuration, never the key.
    expect(readFileSync(join(env.DDEDGE_STATE_DIR!, 'state.json'), 'utf8')).not.toContain(env.DDEDGE_DYNDNS_KEY);
  });

  it('a transient failure is not backed off per record', async () => {
    const env = agentEnv(sandbox, { DDEDGE_TIMEOUT: '500ms' });
    sandbox.faults.push({ target: 'dyndns', kind: '500', delayMs: 0, remaining: 1 });
    expect((await runMain(['update', '--ip', '81.0.2.15'], env)).code).toBe(4);
    expect((await runMain(['update', '--ip', '81.0.2.15'], env)).code).toBe(0);
    expect(sandbox.calls.get('dyndns')).toBe(2);
  });
});
