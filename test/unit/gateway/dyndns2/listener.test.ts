// The dyndns2 door's HTTP side in-process on 127.0.0.1 (listener.ts, door-start.ts): the paths
// and methods it answers, the headers of each answer, a POST form, the body's bound, the
// request's own address, a failure answered 911, and the door's start, warnings and close.
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startDyndns2Door } from '../../../../src/gateway/dyndns2/door-start.js';
import { startDyndns2Listener } from '../../../../src/gateway/dyndns2/listener.js';
import type { Outcome } from '../../../../src/gateway/update/batch-deps.js';
import { ConfigError } from '../../../../src/lib/errors.js';
import { type DoorWorld, door } from '../../../helpers/dyndns2-door.js';

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.map((c) => c()));
  closers = [];
});

const LOOPBACK = { host: '127.0.0.1', port: 0, loopback: true };

async function listening(w: DoorWorld): Promise<string> {
  const listener = await startDyndns2Listener(LOOPBACK, undefined, w.deps);
  closers.push(listener.close);
  expect(listener.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  return listener.url;
}

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function request(
  url: string,
  options: { method?: string; headers?: Record<string, string | number>; body?: string } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    // A client that would keep its connection: whether the door closes it is what some tests look at.
    const headers = { connection: 'keep-alive', ...options.headers };
    const req = http.request(url, { method: options.method ?? 'GET', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString() }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const basic = (w: DoorWorld, key = 'alice') => `Basic ${Buffer.from(`${key}:${w.secret(key)}`).toString('base64')}`;

describe('the dyndns2 listener', () => {
  it('answers /nic/update in plain text that no cache keeps', async () => {
    const w = await door();
    const url = await listening(w);
    const reply = await request(`${url}/nic/update?hostname=home.example.com&myip=81.0.2.1`, {
      headers: { authorization: basic(w) },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toBe('good 81.0.2.1\n');
    expect(reply.headers).toMatchObject({
      'content-type': 'text/plain; charset=utf-8',
      'content-length': String(Buffer.byteLength(reply.body)),
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    expect(reply.headers.connection).not.toBe('close');
    expect(w.zone.held()).toEqual(['home.example.com A 81.0.2.1']);
  });

  it('answers /update and the paths with a trailing slash; anything else is not found', async () => {
    const w = await door();
    const url = await listening(w);
    const auth = { authorization: basic(w) };
    for (const path of ['/update', '/nic/update/', '/update/'])
      expect((await request(`${url}${path}?hostname=home.example.com&myip=81.0.2.1`, { headers: auth })).body).toMatch(
        /^(good|nochg) 81\.0\.2\.1\n$/,
      );
    for (const path of ['/', '/nic/updates?hostname=home.example.com', '/nic']) {
      const reply = await request(`${url}${path}`, { headers: auth });
      expect(reply.status).toBe(404);
      expect(reply.body).toBe(
        'not found; this door answers dyndns2 at /nic/update and /update, httpreq at /present and /cleanup, ' +
          'acme-dns at /update\n',
      );
    }
    expect(w.refusals()).toEqual([]);
    // Answers given in the request's own turn are no failure.
    expect(w.log.filter((l) => l.startsWith('error:'))).toEqual([]);
  });

  it('answers GET and POST only, and closes the connection of anything else', async () => {
    const w = await door();
    const url = await listening(w);
    const reply = await request(`${url}/nic/update?hostname=home.example.com`, {
      method: 'PUT',
      headers: { authorization: basic(w) },
    });
    expect(reply.status).toBe(405);
    expect(reply.body).toBe('only GET and POST\n');
    expect(reply.headers).toMatchObject({ allow: 'GET, POST', connection: 'close' });
    expect(w.zone.writes()).toEqual([]);
  });

  it('asks for basic credentials with 401, and tells a source past its wrong tries to wait', async () => {
    const w = await door();
    const url = await listening(w);
    const first = await request(`${url}/nic/update?hostname=home.example.com`);
    expect(first.status).toBe(401);
    expect(first.headers['www-authenticate']).toBe('Basic realm="ddedge dyndns2", charset="UTF-8"');
    expect(first.headers['retry-after']).toBeUndefined();
    expect(first.headers.connection).not.toBe('close');
    const wrong = `${url}/nic/update?hostname=home.example.com&username=alice&password=wrong`;
    let last: Reply | undefined;
    for (let i = 0; i < 6; i++) last = await request(wrong);
    expect(last!.status).toBe(429);
    expect(last!.body).toBe('badauth\n');
    expect(last!.headers).toMatchObject({ 'retry-after': '60', connection: 'close' });
    expect(last!.headers['www-authenticate']).toBeUndefined();
  });

  it('reads a POST form with the query, and refuses a body past its bound', async () => {
    const w = await door();
    const url = await listening(w);
    const form = await request(`${url}/nic/update?hostname=home.example.com`, {
      method: 'POST',
      headers: { authorization: basic(w), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'myip=81.0.2.1',
    });
    expect(form.body).toBe('good 81.0.2.1\n');
    const bodyOnly = await request(`${url}/nic/update`, {
      method: 'POST',
      headers: { authorization: basic(w) },
      body: 'hostname=home.example.com&myip=81.0.2.1',
    });
    expect(bodyOnly.body).toBe('nochg 81.0.2.1\n');
    const exactly = 'a'.repeat(8 * 1024 - 'hostname=home.example.com&myip=81.0.2.1&'.length);
    const atTheBound = await request(`${url}/nic/update`, {
      method: 'POST',
      headers: { authorization: basic(w) },
      body: `hostname=home.example.com&myip=81.0.2.1&${exactly}`,
    });
    expect(atTheBound.body).toBe('nochg 81.0.2.1\n');
    const big = await request(`${url}/nic/update`, {
      method: 'POST',
      headers: { authorization: basic(w) },
      body: `hostname=home.example.com&myip=81.0.2.2&${exactly}x`,
    });
    expect(big.status).toBe(413);
    expect(big.body).toBe('a request body of more than 8192 bytes is not accepted\n');
    expect(big.headers.connection).toBe('close');
    expect(w.zone.held()).toEqual(['home.example.com A 81.0.2.1']);
  });

  it('refuses a body announced past its bound before reading it, and one sent in pieces past it', async () => {
    const w = await door();
    const url = await listening(w);
    const announced = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        `${url}/nic/update`,
        { method: 'POST', headers: { 'content-length': 8 * 1024 + 1 }, agent: false },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.on('error', reject);
      // Nothing of the body is sent: the answer comes from the length alone.
      req.flushHeaders();
    });
    expect(announced).toBe(413);
    const chunked = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${url}/nic/update`, { method: 'POST', agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.write('a'.repeat(5000));
      req.write('a'.repeat(5000));
    });
    expect(chunked).toBe(413);
    expect(w.refusals()).toEqual([]);
  });

  it('survives a client that goes away in the middle of its body, and answers the next', async () => {
    const w = await door();
    const url = await listening(w);
    await new Promise<void>((resolve) => {
      const req = http.request(`${url}/nic/update`, {
        method: 'POST',
        headers: { 'content-length': 100 },
        agent: false,
      });
      req.on('error', () => resolve());
      req.write('hostname=home', () => setImmediate(() => req.destroy()));
      req.on('close', () => resolve());
    });
    const next = await request(`${url}/nic/update?hostname=home.example.com&myip=81.0.2.1`, {
      headers: { authorization: basic(w) },
    });
    expect(next.body).toBe('good 81.0.2.1\n');
  });

  it("takes the request's own address when none is given", async () => {
    const w = await door({ allowPrivateIp: true });
    const url = await listening(w);
    const reply = await request(`${url}/nic/update?hostname=home.example.com`, {
      headers: { authorization: basic(w) },
    });
    expect(reply.body).toBe('good 127.0.0.1\n');
  });

  it('answers 911 and logs the failure when answering throws, at once or later', async () => {
    const w = await door();
    const url = await listening(w);
    const keys = w.deps.keys;
    w.deps.keys = () => {
      throw new Error('the keys file went away');
    };
    const thrown = await request(`${url}/nic/update?hostname=home.example.com`);
    expect([thrown.status, thrown.body]).toEqual([500, '911\n']);
    expect(w.log.at(-1)).toMatch(/^error: gateway: dyndns2: Error: the keys file went away\n\s+at /);
    w.deps.keys = keys;
    // The queue never rejects; an answer the door cannot read fails it later, in the answer's own turn.
    w.deps.updates.enqueue = () => Promise.resolve(undefined as unknown as Outcome);
    const rejected = await request(`${url}/nic/update?hostname=home.example.com&myip=81.0.2.1`, {
      headers: { authorization: basic(w) },
    });
    expect([rejected.status, rejected.body]).toEqual([500, '911\n']);
    expect(w.log.at(-1)).toMatch(/^error: gateway: dyndns2: TypeError: /);
  });
});

describe('the dyndns2 door', () => {
  it('starts a listener per address, says where, and closes them all', async () => {
    const w = await door();
    const started = await startDyndns2Door(
      { listen: [LOOPBACK, LOOPBACK], prefixHosts: new Map([['nas.example.com', '::9']]) },
      { ...w.deps, allowPrivateIp: false, refusals: w.deps.refusals },
    );
    expect(started.listeners).toHaveLength(2);
    const [a, b] = started.listeners.map((l) => l.url);
    expect(a).not.toBe(b);
    expect(w.log).toEqual([
      `info: gateway: answering dyndns2 updates at ${a}/nic/update, ${b}/nic/update; ` +
        '1 host behind routers (--prefix-host)',
    ]);
    const reply = await request(`${a}/nic/update?hostname=home.example.com&myip=81.0.2.1`, {
      headers: { authorization: basic(w) },
    });
    expect(reply.body).toBe('good 81.0.2.1\n');
    expect(Object.fromEntries(started.counts)).toEqual({ good: 1 });
    await started.close();
    await expect(request(`${a}/nic/update`)).rejects.toThrow(/ECONNREFUSED/);
    await expect(request(`${b}/nic/update`)).rejects.toThrow(/ECONNREFUSED/);
  });

  it('warns when plain HTTP listens beyond this machine, and names no hosts behind routers when there are none', async () => {
    const w = await door();
    const started = await startDyndns2Door(
      { listen: [LOOPBACK, { ...LOOPBACK, loopback: false }], prefixHosts: new Map() },
      { ...w.deps, allowPrivateIp: false, refusals: w.deps.refusals },
    );
    closers.push(started.close);
    const [a, b] = started.listeners.map((l) => l.url);
    expect(w.log).toEqual([
      `warn: gateway: --http-listen ${b} is plain HTTP beyond this machine: keys' secrets cross the network ` +
        'readable; give --http-cert and --http-key',
      `info: gateway: answering dyndns2 updates at ${a}/nic/update, ${b}/nic/update`,
    ]);
  });

  it('a certificate TLS cannot read is a configuration error naming the settings; listeners started are closed', async () => {
    const w = await door();
    const error = await startDyndns2Door(
      { listen: [LOOPBACK], tls: { cert: 'not a certificate', key: 'not a key' }, prefixHosts: new Map() },
      { ...w.deps, allowPrivateIp: false, refusals: w.deps.refusals },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/^--http-cert\/--http-key: /);
  });

  it('an address it cannot bind is the listen error as it is, and the listeners started are closed', async () => {
    const w = await door();
    const taken = await startDyndns2Listener(LOOPBACK, undefined, w.deps);
    closers.push(taken.close);
    const port = Number(new URL(taken.url).port);
    const free = await startDyndns2Listener(LOOPBACK, undefined, w.deps);
    const freePort = Number(new URL(free.url).port);
    await free.close();
    const error = await startDyndns2Door(
      {
        listen: [
          { ...LOOPBACK, port: freePort },
          { ...LOOPBACK, port },
        ],
        prefixHosts: new Map(),
      },
      { ...w.deps, allowPrivateIp: false, refusals: w.deps.refusals },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/^--http-listen 127\.0\.0\.1:\d+/);
    // The first listener was closed: its port can be bound again.
    const again = await startDyndns2Listener({ ...LOOPBACK, port: freePort }, undefined, w.deps);
    closers.push(again.close);
  });
});
