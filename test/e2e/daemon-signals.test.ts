// The daemon and its signals while a cycle is in flight: requests are remembered, a stop
// starts nothing new (no API fallback), and a second stop aborts what is in flight.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { agentEnv, withApi } from '../helpers/agent-env.js';
import { startDist } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/servers.js';

let sandbox: Sandbox;
let monitor: TestServer;
beforeEach(async () => {
  sandbox = await startSandbox();
  monitor = await startServer('OK');
});
afterEach(async () => {
  await sandbox.close();
  await monitor.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const starts = () => monitor.requests.filter((r) => r.url.endsWith('/start')).length;
const apiCalls = () => [...sandbox.calls.entries()].filter(([target]) => target !== 'dyndns').reduce((a, [, n]) => a + n, 0);
/** Waits (bounded) until the sandbox has received a dynamic DNS request. */
async function dyndnsInFlight(): Promise<void> {
  for (let i = 0; i < 100 && !sandbox.calls.get('dyndns'); i++) await sleep(50);
  expect(sandbox.calls.get('dyndns')).toBe(1);
}

describe('signals during a cycle', () => {
  it.each(['SIGUSR1', 'SIGHUP'] as const)('%s during a cycle is served right after it, not after the interval', async (signal) => {
    sandbox.faults.push({ target: 'dyndns', kind: 'slow', delayMs: 1000, remaining: 1 });
    const daemon = startDist(['daemon'], agentEnv(sandbox, { DDEDGE_IP: '81.0.2.15', DDEDGE_INTERVAL: '1h', DDEDGE_PING_URL: `${monitor.url}ping` }));
    await dyndnsInFlight();
    daemon.kill(signal);
    for (let i = 0; i < 100 && starts() < 2; i++) await sleep(50);
    expect(starts()).toBe(2);
    daemon.kill('SIGTERM');
    const result = await daemon.result;
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(new RegExp(`${signal}: .*when (this cycle|this one) ends`));
  });

  it('after SIGTERM no new request starts: no API fallback, no next host, no heartbeat', async () => {
    sandbox.faults.push({ target: 'dyndns', kind: 'hang', delayMs: 30_000, remaining: Infinity });
    const env = agentEnv(sandbox, { ...withApi(sandbox), DDEDGE_IP: '81.0.2.15', DDEDGE_TIMEOUT: '2s', DDEDGE_HOSTS: 'home.example.com,example.com', DDEDGE_PING_URL: `${monitor.url}ping` });
    const daemon = startDist(['daemon'], env);
    await dyndnsInFlight();
    const started = Date.now();
    daemon.kill('SIGTERM');
    const result = await daemon.result;
    expect(result.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(4000);
    expect(apiCalls()).toBe(0);
    expect(sandbox.calls.get('dyndns')).toBe(1);
    expect(monitor.requests.map((r) => r.url)).toEqual(['/ping/start']);
    expect(result.stderr).toContain('daemon stopped');
  });

  it('a second SIGTERM (or SIGINT) aborts the requests in flight', async () => {
    sandbox.faults.push({ target: 'dyndns', kind: 'hang', delayMs: 60_000, remaining: Infinity });
    const env = agentEnv(sandbox, { ...withApi(sandbox), DDEDGE_IP: '81.0.2.15', DDEDGE_TIMEOUT: '30s' });
    const daemon = startDist(['daemon'], env);
    await dyndnsInFlight();
    const started = Date.now();
    daemon.kill('SIGTERM');
    await sleep(300);
    daemon.kill('SIGINT');
    const result = await daemon.result;
    expect(result.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(result.stderr).toMatch(/SIGINT again: aborting the requests in flight/);
    expect(result.stderr).toMatch(/request aborted: ddedge is stopping/);
    expect(apiCalls()).toBe(0);
  });
});
