// A crowd of slow bodies against the doors that face the network: 256 connections from four
// other addresses (127.0.0.2-5: Linux routes all of 127.0.0.0/8 to lo), each sending a request's
// headers with `Content-Length: 2000` and then a byte a second, reopened as soon as the server
// closes it. The real clients must all be answered: the router at the gateway's dyndns2 door
// (one it knows, one it has never seen), and the health probe at the daemon's --listen.
// Asserted on answers, never on times: each wait has a bound only a broken build reaches.
import http from 'node:http';
import net from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { agentEnv } from '../../helpers/agent-env.js';
import { startDist, waitForOutput } from '../../helpers/cli.js';
import { useGateway } from '../../helpers/use-gateway.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

/** The crowd: as many connections as the doors hold in all, from four addresses. */
const CROWD_ADDRESSES = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'];
const PER_ADDRESS = 64;
/** Legitimate requests made while the crowd is at work: every one must be answered. */
const ASKED = 10;
/** Only a broken build waits this long for one answer. */
const ANSWER_BOUND_MS = 60_000;

interface Target {
  host: string;
  port: number;
}

interface Crowd {
  /** Resolves once every connection of the crowd has sent its headers. */
  allSent: Promise<void>;
  stop(): void;
}

/**
 * `PER_ADDRESS` connections from each crowd address, each sending `head` (headers announcing a
 * 2000-byte body) and then one byte of body a second; each one closed by the server is opened
 * again after 20 ms (at most `maxReopen` times in all), as a determined attacker's would be.
 */
function startCrowd(target: Target, head: string, maxReopen = 5_000): Crowd {
  let stopped = false;
  let reopened = 0;
  let sent = 0;
  const total = CROWD_ADDRESSES.length * PER_ADDRESS;
  const sockets = new Set<net.Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let markSent!: () => void;
  const allSent = new Promise<void>((resolve) => (markSent = resolve));
  const open = (localAddress: string, first: boolean) => {
    const socket = net.connect({ ...target, localAddress });
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('connect', () => {
      socket.write(head);
      if (first && ++sent === total) markSent();
      const drip = setInterval(() => socket.writable && socket.write('a'), 1_000);
      timers.add(drip);
      socket.once('close', () => {
        clearInterval(drip);
        timers.delete(drip);
      });
    });
    socket.on('close', () => {
      sockets.delete(socket);
      if (stopped || reopened >= maxReopen) return;
      reopened++;
      const timer = setTimeout(() => {
        timers.delete(timer);
        open(localAddress, false);
      }, 20);
      timers.add(timer);
    });
  };
  for (const address of CROWD_ADDRESSES) for (let i = 0; i < PER_ADDRESS; i++) open(address, true);
  return {
    allSent,
    stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
    },
  };
}

/** A GET on a new connection from `localAddress`: the status and body, or what went wrong. */
function ask(target: Target, path: string, localAddress: string, headers: Record<string, string> = {}) {
  return new Promise<string>((resolve) => {
    const req = http.get({ ...target, path, headers, agent: false, localAddress, timeout: ANSWER_BOUND_MS }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve(`${res.statusCode} ${body.trim()}`));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${ANSWER_BOUND_MS} ms`)));
    req.on('error', (error) => resolve(error.message));
  });
}

/** Writes `bytes` on a new connection: everything the server sent once it closed the connection. */
function exchange(target: Target, bytes: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(target);
    let text = '';
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    socket.on('error', () => {});
    const timer = setTimeout(() => socket.destroy(), ANSWER_BOUND_MS);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(text);
    });
    socket.write(bytes);
  });
}

let crowd: Crowd | undefined;
afterEach(() => {
  crowd?.stop();
  crowd = undefined;
});

describe('the dyndns2 door under a crowd of slow bodies', () => {
  const sandbox = useSandbox({ per: 'file' });
  const gateway = useGateway(() => ({
    apiUrl: sandbox.url,
    door: {},
    keys: [{ name: 'router', rules: ['grant "router" name home.example.com A;'] }],
  }));
  afterAll(async () => {
    expect(await gateway.stop()).toBe(0);
  });

  it('answers every request of the router it knows and of a router it has never seen', async () => {
    const url = new URL(gateway.dyndns2);
    const target = { host: url.hostname, port: Number(url.port) };
    const auth = { authorization: `Basic ${Buffer.from(`router:${gateway.secret('router')}`).toString('base64')}` };
    const update = '/nic/update?hostname=home.example.com&myip=81.0.2.80';
    // The router has been answered before from its address: the door knows it.
    expect(await ask(target, update, '127.0.0.1', auth)).toBe('200 good 81.0.2.80');
    crowd = startCrowd(
      target,
      'POST /nic/update HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n' +
        'Content-Length: 2000\r\n\r\n',
    );
    await crowd.allSent;
    const known: string[] = [];
    const unseen: string[] = [];
    for (let i = 0; i < ASKED; i++) {
      known.push(await ask(target, update, '127.0.0.1', auth));
      // Each from an address the door has never answered.
      unseen.push(await ask(target, update, `127.0.1.${i + 1}`, auth));
    }
    expect(known).toEqual(Array(ASKED).fill('200 nochg 81.0.2.80'));
    expect(unseen).toEqual(Array(ASKED).fill('200 nochg 81.0.2.80'));
  });

  it("checks a POST's basic-auth credentials before its body: wrong ones are answered at once, the body never read", async () => {
    const url = new URL(gateway.dyndns2);
    const wrong = Buffer.from('router:not-the-secret').toString('base64');
    const text = await exchange(
      { host: url.hostname, port: Number(url.port) },
      `POST /nic/update HTTP/1.1\r\nHost: x\r\nAuthorization: Basic ${wrong}\r\n` +
        'Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 2000\r\n\r\nhostname=',
    );
    expect(text).toMatch(/^HTTP\/1\.1 401 .*\r\n\r\nbadauth\n$/s);
  });

  it("never reads a GET's body: the answer is sent at once and the connection closed", async () => {
    const url = new URL(gateway.dyndns2);
    const auth = Buffer.from(`router:${gateway.secret('router')}`).toString('base64');
    const text = await exchange(
      { host: url.hostname, port: Number(url.port) },
      `GET /nic/update?hostname=home.example.com&myip=81.0.2.80 HTTP/1.1\r\nHost: x\r\nAuthorization: Basic ${auth}\r\n` +
        'Content-Length: 2000\r\n\r\nab',
    );
    expect(text).toMatch(/^HTTP\/1\.1 200 .*connection: close\r\n.*\r\n\r\nnochg 81\.0\.2\.80\n$/is);
  });
});

describe("the daemon's --listen under a crowd of slow bodies", () => {
  const sandbox = useSandbox({ per: 'file' });
  let daemon: ReturnType<typeof startDist> | undefined;
  afterAll(async () => {
    daemon?.kill('SIGTERM');
    await daemon?.result;
  });

  it('answers every health probe while the crowd holds the button form open', async () => {
    daemon = startDist(
      ['daemon', '--listen', '127.0.0.1:0'],
      agentEnv(sandbox, { DDEDGE_IP: '81.0.2.15', DDEDGE_INTERVAL: '1h' }),
    );
    const log = await waitForOutput(daemon, 'stderr', (t) => /at (http:\S+)\/\n/.test(t) && / set to /.test(t));
    const url = new URL(/at (http:\S+)\/\n/.exec(log)![1]!);
    const target = { host: url.hostname, port: Number(url.port) };
    crowd = startCrowd(
      target,
      'POST /update-now HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n' +
        'Content-Length: 2000\r\n\r\n',
    );
    await crowd.allSent;
    const probes: string[] = [];
    for (let i = 0; i < ASKED; i++) probes.push((await ask(target, '/healthz', '127.0.0.1')).slice(0, 3));
    expect(probes).toEqual(Array(ASKED).fill('200'));
  });
});
