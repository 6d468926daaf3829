// The daemon and its signals while a cycle is in flight: requests are remembered, a stop
// starts nothing new (no API fallback), and a second stop aborts what is in flight.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentEnv, withApi } from '../../helpers/agent-env.js';
import { startDist, waitForOutput } from '../../helpers/cli.js';
import { waitUntil } from '../../helpers/wait.js';
import { startServer, type TestServer } from '../../helpers/servers.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox();
let monitor: TestServer;
beforeEach(async () => {
  monitor = await startServer('OK');
});
afterEach(async () => {
  await monitor.close();
});

const starts = () => monitor.requests.filter((r) => r.url.endsWith('/start')).length;
const apiCalls = () =>
  [...sandbox.calls.entries()].filter(([target]) => target !== 'dyndns').reduce((a, [, n]) => a + n, 0);
/** Waits until the sandbox has received a dynamic DNS request. */
async function dyndnsInFlight(): Promise<void> {
  await waitUntil(() => Boolean(sandbox.calls.get('dyndns')), 'a dynamic DNS request at the sandbox');
  expect(sandbox.calls.get('dyndns')).toBe(1);
}
/** A hang that only the client can end (its timeout or an abort): the longest a timer waits. */
const FOREVER_MS = 2 ** 31 - 1;
/** The lines of `text` that match each pattern, in the order they came; -1 for one not there. */
const order = (text: string, patterns: RegExp[]) =>
  patterns.map((p) => text.split('\n').findIndex((line) => p.test(line)));

describe('signals during a cycle', () => {
  it.each(['SIGUSR1', 'SIGHUP'] as const)(
    '%s during a cycle is served right after it, not after the interval',
    async (signal) => {
      // The first answer is held until the daemon has said it will serve the signal after this
      // cycle: the signal lands inside the cycle whatever the machine's load.
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const dyndns = await startServer((_req, res) => {
        void released.then(() =>
          res.end(
            JSON.stringify({
              success: true,
              messages: [],
              host: { name: 'home.example.com', value: '81.0.2.15', type: 'A', updated: true },
            }),
          ),
        );
      });
      const daemon = startDist(
        ['daemon'],
        agentEnv(sandbox, {
          DDEDGE_DYNDNS_URL: dyndns.url,
          DDEDGE_IP: '81.0.2.15',
          DDEDGE_INTERVAL: '1h',
          DDEDGE_TIMEOUT: '120s',
          DDEDGE_PING_URL: `${monitor.url}ping`,
        }),
      );
      await waitUntil(() => dyndns.hits > 0, 'a dynamic DNS request');
      const deferred = waitForOutput(daemon, 'stderr', (t) =>
        new RegExp(`${signal}: .*when (this cycle|this one) ends`).test(t),
      );
      daemon.kill(signal);
      await deferred;
      release();
      await waitUntil(() => starts() >= 2, 'a second heartbeat start');
      expect(starts()).toBe(2);
      await dyndns.close();
      daemon.kill('SIGTERM');
      const result = await daemon.result;
      expect(result.code).toBe(0);
      expect(result.stderr).toMatch(new RegExp(`${signal}: .*when (this cycle|this one) ends`));
    },
  );

  it('after SIGTERM no new request starts: no API fallback, no next host, no heartbeat', async () => {
    sandbox.faults.push({ target: 'dyndns', kind: 'hang', delayMs: FOREVER_MS, remaining: Infinity });
    const env = agentEnv(sandbox, {
      ...withApi(sandbox),
      DDEDGE_IP: '81.0.2.15',
      DDEDGE_TIMEOUT: '2s',
      DDEDGE_HOSTS: 'home.example.com,example.com',
      DDEDGE_PING_URL: `${monitor.url}ping`,
    });
    const daemon = startDist(['daemon'], env);
    await dyndnsInFlight();
    daemon.kill('SIGTERM');
    const result = await daemon.result;
    expect(result.code).toBe(0);
    // The request in flight ended at its own 2 s bound (the hang never ends), and nothing started after.
    const lines = order(result.stderr, [
      /SIGTERM: stopping/,
      /dynamic DNS failed .* within 2000 ms/,
      /not sent: ddedge is stopping/,
      /daemon stopped/,
    ]);
    expect(lines.every((n) => n >= 0)).toBe(true);
    expect(lines).toEqual([...lines].sort((a, b) => a - b));
    expect(apiCalls()).toBe(0);
    expect(sandbox.calls.get('dyndns')).toBe(1);
    expect(monitor.requests.map((r) => r.url)).toEqual(['/ping/start']);
    expect(result.stderr).toContain('daemon stopped');
  });

  it('a second SIGTERM (or SIGINT) aborts the requests in flight', async () => {
    sandbox.faults.push({ target: 'dyndns', kind: 'hang', delayMs: FOREVER_MS, remaining: Infinity });
    const env = agentEnv(sandbox, { ...withApi(sandbox), DDEDGE_IP: '81.0.2.15', DDEDGE_TIMEOUT: '30s' });
    const daemon = startDist(['daemon'], env);
    await dyndnsInFlight();
    const stopping = waitForOutput(daemon, 'stderr', (t) => t.includes('SIGTERM: stopping'));
    daemon.kill('SIGTERM');
    await stopping;
    daemon.kill('SIGINT');
    const result = await daemon.result;
    expect(result.code).toBe(0);
    // Not the 30 s request timeout (the hang never ends): the abort.
    expect(result.stderr).toMatch(/SIGINT again: aborting the requests in flight/);
    expect(result.stderr).toMatch(/request aborted: ddedge is stopping/);
    expect(result.stderr).not.toMatch(/within 30000 ms/);
    expect(apiCalls()).toBe(0);
  });
});
