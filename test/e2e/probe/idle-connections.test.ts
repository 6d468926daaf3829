// The daemon's --listen endpoint under a crowd of connections that never send a request (or
// drip one byte at a time), reopened as soon as they are closed: every health probe must
// still be answered. (32 idle connections once made 39 of 40 probes fail: a Kubernetes
// liveness probe would have restarted the pod forever.)
import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { agentEnv } from '../../helpers/agent-env.js';
import { startDist, waitForOutput } from '../../helpers/cli.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox();
let daemon: ReturnType<typeof startDist> | undefined;
let crowd: Crowd | undefined;
afterEach(async () => {
  crowd?.stop();
  crowd = undefined;
  daemon?.kill('SIGTERM');
  await daemon?.result;
  daemon = undefined;
});

async function startDaemon(): Promise<{ host: string; port: number }> {
  daemon = startDist(
    ['daemon', '--listen', '127.0.0.1:0'],
    agentEnv(sandbox, { DDEDGE_IP: '81.0.2.15', DDEDGE_INTERVAL: '1h' }),
  );
  const log = await waitForOutput(daemon, 'stderr', (t) => /at (http:\S+)\/\n/.test(t) && / set to /.test(t));
  const url = new URL(/at (http:\S+)\/\n/.exec(log)![1]!);
  return { host: url.hostname, port: Number(url.port) };
}

interface Crowd {
  /** Resolves once every connection of the crowd has been open at least once. */
  allOpened: Promise<void>;
  reopened: () => number;
  stop(): void;
}

/**
 * `count` connections from `localAddress`: half silent, half dripping a header byte every
 * 500 ms without ever ending the headers; each one closed by the server is reopened (after
 * 20 ms, at most `maxReopen` times in all), as a determined client would.
 */
function startCrowd(
  target: { host: string; port: number },
  count: number,
  localAddress = '127.0.0.1',
  maxReopen = 2_000,
): Crowd {
  let stopped = false;
  let reopened = 0;
  let opened = 0;
  const sockets = new Set<net.Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let markOpened!: () => void;
  const allOpened = new Promise<void>((resolve) => (markOpened = resolve));
  const open = (index: number, first: boolean) => {
    const socket = net.connect({ host: target.host, port: target.port, localAddress });
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('connect', () => {
      if (first && ++opened === count) markOpened();
      if (index % 2 === 0) return;
      socket.write('GET /healthz HTTP/1.1\r\nX-Drip: ');
      const drip = setInterval(() => socket.writable && socket.write('a'), 500);
      timers.add(drip);
      socket.on('close', () => clearInterval(drip));
    });
    socket.on('close', () => {
      sockets.delete(socket);
      if (stopped || reopened >= maxReopen) return;
      reopened++;
      const timer = setTimeout(() => open(index, false), 20);
      timers.add(timer);
    });
  };
  for (let i = 0; i < count; i++) open(i, true);
  return {
    allOpened,
    reopened: () => reopened,
    stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
    },
  };
}

/** A probe as kubelet makes it: a new connection, GET /healthz, the status. */
function probe(target: { host: string; port: number }, localAddress = '127.0.0.1'): Promise<number | string> {
  return new Promise((resolve) => {
    const req = http.get(
      { host: target.host, port: target.port, path: '/healthz', agent: false, localAddress, timeout: 10_000 },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer within 10 s')));
    req.on('error', (error) => resolve(error.message));
  });
}

describe('the daemon endpoint under a crowd of idle and slow connections', () => {
  it("70 idle and byte-dripping connections from the probe's own address, reopened when closed: 40 probes all answered 200", async () => {
    const target = await startDaemon();
    crowd = startCrowd(target, 70);
    await crowd.allOpened;
    const results: (number | string)[] = [];
    for (let i = 0; i < 40; i++) results.push(await probe(target));
    expect(results).toEqual(Array(40).fill(200));
  });

  it('300 idle connections from eight other addresses (past the total limit): 40 probes all answered 200', async () => {
    const target = await startDaemon();
    const crowds = Array.from({ length: 8 }, (_, i) => startCrowd(target, 38, `127.0.0.${i + 2}`, 250));
    crowd = {
      allOpened: Promise.all(crowds.map((c) => c.allOpened)).then(() => {}),
      reopened: () => 0,
      stop: () =>
        crowds.forEach((c) => {
          c.stop();
        }),
    };
    await crowd.allOpened;
    const results: (number | string)[] = [];
    for (let i = 0; i < 40; i++) results.push(await probe(target));
    expect(results).toEqual(Array(40).fill(200));
    // Other addresses' probes get in too: a crowd from one address only evicts its own.
    expect(await probe(target, '127.0.0.2')).toBe(200);
  });
});

describe("the sandbox's HTTP server under the same crowd", () => {
  // It sets no connection cap (Node's default: none), so idle connections cannot lock others
  // out; this keeps it so.
  it('70 idle and byte-dripping connections: 40 dynamic DNS requests all answered', async () => {
    const url = new URL(sandbox.url);
    const target = { host: url.hostname, port: Number(url.port) };
    crowd = startCrowd(target, 70);
    await crowd.allOpened;
    const { account } = sandbox.model;
    const results: (number | string)[] = [];
    for (let i = 0; i < 40; i++) {
      results.push(
        await new Promise<number | string>((resolve) => {
          const path = `/json/?user=${account.dyndnsUser}&password=${account.dyndnsKey}&host=home.example.com&ip=81.0.2.15`;
          const req = http.get({ ...target, path, agent: false, timeout: 10_000 }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          });
          req.on('timeout', () => req.destroy(new Error('no answer within 10 s')));
          req.on('error', (error) => resolve(error.message));
        }),
      );
    }
    expect(results).toEqual(Array(40).fill(200));
  });
});
