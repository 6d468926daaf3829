// `ddedge daemon --listen`: probed and scraped while the daemon runs, through the built file
// against the sandbox; slow and huge requests are cut off while the daemon keeps cycling.
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentEnv, providerCalls } from '../../helpers/agent-env.js';
import { runDist, startDist, tempDir, waitForOutput, type RunResult } from '../../helpers/cli.js';
import { parsePrometheusText } from '../../helpers/prometheus-text.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox();
const daemons: ReturnType<typeof startDist>[] = [];
afterEach(async () => {
  for (const d of daemons.splice(0)) {
    d.kill('SIGTERM');
    await d.result;
  }
});

/** Starts the daemon and returns it with the endpoint's URL, once the first cycle has ended. */
async function startDaemon(env: Record<string, string>, args: string[] = [], firstCycle: RegExp = / set to /) {
  const daemon = startDist(['daemon', '--listen', '127.0.0.1:0', ...args], { DDEDGE_INTERVAL: '1h', ...env });
  daemons.push(daemon);
  const log = await waitForOutput(daemon, 'stderr', (t) => /at (http:\S+)\/\n/.test(t) && firstCycle.test(t));
  return { daemon, url: /at (http:\S+)\/\n/.exec(log)![1]!, log };
}

/** A raw request; resolves with what came back and when the server closed the connection. */
function rawRequest(
  url: string,
  send: (socket: net.Socket) => void,
): Promise<{ text: string; ms: number; closedAt: number }> {
  const { hostname, port } = new URL(url);
  const started = Date.now();
  return new Promise((resolve) => {
    let text = '';
    const socket = net.connect(Number(port), hostname, () => send(socket));
    socket.on('data', (d) => (text += d));
    socket.on('error', () => {});
    socket.on('close', () => resolve({ text, ms: Date.now() - started, closedAt: Date.now() }));
    // Every test socket ends, whatever the server does.
    setTimeout(() => socket.destroy(), 15_000).unref();
  });
}

describe('the daemon HTTP endpoint', () => {
  it('answers /healthz, /metrics and /status while the daemon runs, by the rules of health, --metrics-file and status --json', async () => {
    const metricsFile = join(tempDir(), 'ddedge.prom');
    const env = agentEnv(sandbox, { DDEDGE_IP: '81.0.2.15', DDEDGE_METRICS_FILE: metricsFile });
    const { url } = await startDaemon(env);

    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.text()).toMatch(/^healthy: last successful cycle \d+s ago\n$/);
    expect((await runDist(['health'], env)).code).toBe(0);

    const metrics = await fetch(`${url}/metrics`);
    expect(metrics.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await metrics.text();
    const families = parsePrometheusText(text);
    for (const family of families.values()) {
      expect(family.help, family.name).toBeTruthy();
      expect(['gauge', 'counter'], family.name).toContain(family.type);
    }
    // The same series as the metrics file written after the cycle.
    expect(text).toBe(readFileSync(metricsFile, 'utf8'));
    expect(families.get('ddedge_address_info')!.samples).toEqual([
      { name: 'ddedge_address_info', labels: { host: 'home.example.com', type: 'A', address: '81.0.2.15' }, value: 1 },
    ]);

    const status = await fetch(`${url}/status`);
    expect(status.headers.get('content-type')).toBe('application/json');
    expect(await status.json()).toEqual(JSON.parse((await runDist(['status', '--json'], env)).stdout));

    const head = await fetch(`${url}/healthz`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect((await fetch(`${url}/nothing-here`)).status).toBe(404);
    expect((await fetch(`${url}/status`, { method: 'DELETE' })).status).toBe(405);
  });

  it('/healthz is 503 while no cycle has succeeded, as ddedge health exits 1', async () => {
    const env = agentEnv(sandbox, { DDEDGE_IP: '81.0.2.15', DDEDGE_HOSTS: 'nope.example.com' });
    const { url } = await startDaemon(env, [], /error: nope\.example\.com A/);
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.text()).toMatch(/^unhealthy: no successful cycle yet \(limit 10800s\)\n$/);
    expect((await runDist(['health'], { ...env, DDEDGE_INTERVAL: '1h' })).code).toBe(1);
    expect(
      parsePrometheusText(await (await fetch(`${url}/metrics`)).text())
        .get('ddedge_failures_total')!
        .samples.find((s) => s.labels.kind === 'refused')!.value,
    ).toBe(1);
  });

  it('cuts off slow and huge requests, and the daemon keeps cycling and answering meanwhile', async () => {
    const env = agentEnv(sandbox, { DDEDGE_IP: '81.0.2.15' });
    const { daemon, url } = await startDaemon(env);
    const silent = rawRequest(url, () => {});
    const drip = rawRequest(url, (s) => {
      s.write('GET /metrics HTTP/1.1\r\n');
      const timer = setInterval(() => (s.writable ? s.write('X-Slow: 1\r\n') : clearInterval(timer)), 300);
      s.on('close', () => clearInterval(timer));
    });
    const hugeHeaders = rawRequest(url, (s) =>
      s.write(`GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(200_000)}\r\n\r\n`),
    );
    // The body is sent once the answer is in: the answer cannot have waited for it. Sent with
    // the headers, a megabyte the server never reads made its close a reset, which on a loaded
    // machine arrived before the answer was read (a reply of "" instead of 405).
    const hugeBody = rawRequest(url, (s) => {
      s.write('POST /status HTTP/1.1\r\nHost: x\r\nContent-Length: 500000000\r\n\r\n');
      s.once('data', () => s.write(Buffer.alloc(1_000_000), () => {}));
    });
    const bodyOnGet = rawRequest(url, (s) =>
      s.write('GET /status HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n'),
    );

    // While the slow ones hang on: a forced cycle runs to its end, and probes are answered at once.
    const before = Date.now();
    // The daemon says when the forced cycle has ended: waited for, not polled against a clock.
    const cycleDone = waitForOutput(daemon, 'stderr', (t) => t.includes('SIGUSR1: cycle done: '));
    daemon.kill('SIGUSR1');
    await cycleDone;
    const lastCycleAt = Date.parse(
      ((await (await fetch(`${url}/status`)).json()) as { lastCycleAt: string }).lastCycleAt,
    );
    expect(lastCycleAt).toBeGreaterThanOrEqual(before);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const answeredAt = Date.now();

    expect((await hugeHeaders).text).toMatch(/^HTTP\/1\.1 431 /);
    expect((await hugeBody).text).toMatch(/^HTTP\/1\.1 405 /);
    expect((await bodyOnGet).text).toMatch(/^HTTP\/1\.1 413 /);
    const [slow, dripped] = await Promise.all([silent, drip]);
    for (const cut of [slow, dripped]) {
      expect(cut.text).toMatch(/^HTTP\/1\.1 408 /);
      // Cut off by the endpoint's own bound (5 s for the headers), after the cycle and the probes were done.
      expect(cut.ms).toBeGreaterThanOrEqual(4_500);
      expect(cut.ms).toBeLessThan(12_000);
      expect(cut.closedAt).toBeGreaterThan(answeredAt);
    }
    // And the daemon is still there and answering.
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });

  it('a taken port is exit 2 with a clear message, before any provider call', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    try {
      const result: RunResult = await runDist(
        ['daemon', '--listen', `127.0.0.1:${port}`],
        agentEnv(sandbox, { DDEDGE_IP: '81.0.2.15' }),
      );
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `ddedge: --listen 127.0.0.1:${port}: the address is already in use (another program, or another ddedge, listens there); choose another port\n`,
      );
      expect(providerCalls(sandbox)).toBe(0);
    } finally {
      server.close();
    }
  });

  it('needs an explicit address, and warns when it listens beyond loopback', async () => {
    const refused = await runDist(['daemon', '--listen', ':9464'], agentEnv(sandbox, { DDEDGE_IP: '81.0.2.15' }));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--listen: ":9464" names no address; give ADDR:PORT, e\.g\. 127\.0\.0\.1:9464/);
    const daemon = startDist(
      ['daemon', '--listen', '0.0.0.0:0'],
      agentEnv(sandbox, { DDEDGE_IP: '81.0.2.15', DDEDGE_INTERVAL: '1h' }),
    );
    daemons.push(daemon);
    const log = await waitForOutput(daemon, 'stderr', (t) => / set to /.test(t));
    expect(log).toMatch(/warn: --listen 0\.0\.0\.0:0: serving \/healthz, \/metrics and \/status beyond this machine/);
    // The URLs logged are ones a person can open, with a note that every address listens.
    expect(log).not.toMatch(/http:\/\/0\.0\.0\.0/);
    // Beyond loopback the page needs the token from everyone; without one it is off.
    expect(log).toMatch(
      /warn: --listen 0\.0\.0\.0:0: the status page \(\/\) is off: beyond loopback every request needs --listen-token/,
    );
    expect(log).not.toContain('the status page for people');
    expect(log).toMatch(
      /serving \/healthz, \/metrics and \/status at http:\/\/127\.0\.0\.1:\d+\/ \(it listens on every address of this machine \(0\.0\.0\.0:\d+\)\)/,
    );
    const url = /at (http:\S+)\/ \(it listens on every address of this machine/.exec(log)![1]!;
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });

  it('listening on [::]: the URL logged is [::1], which a person can open', async () => {
    const daemon = startDist(
      ['daemon', '--listen', '[::]:0'],
      agentEnv(sandbox, { DDEDGE_IP: '81.0.2.15', DDEDGE_INTERVAL: '1h' }),
    );
    daemons.push(daemon);
    const log = await waitForOutput(daemon, 'stderr', (t) => / set to /.test(t));
    expect(log).not.toMatch(/http:\/\/\[::\]/);
    const url =
      /serving \/healthz, \/metrics and \/status at (http:\/\/\[::1\]:\d+)\/ .*every address of this machine \(\[::\]:\d+\)/.exec(
        log,
      )![1]!;
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });
});
