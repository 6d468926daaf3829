// The ACME protocols on the door's listener, in-process on 127.0.0.1 against an in-memory zone
// (test/helpers/dyndns2-door.ts): the routes and methods, credentials before the body, the grants,
// the budget and a stopping gateway, the body's bound, and acme-dns's newest two values.
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acmeHttpProtocols } from '../../../../src/gateway/acme-http/door.js';
import { startDyndns2Listener } from '../../../../src/gateway/dyndns2/listener.js';
import { CLIENT, type DoorWorld, door } from '../../../helpers/dyndns2-door.js';

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.map((c) => c()));
  closers = [];
});

const LOOPBACK = { host: '127.0.0.1', port: 0, loopback: true };
const V = (n: number) => `${String(n).padStart(3, '0')}${'q'.repeat(40)}`;
const TXT_GRANT = 'grant "alice" name _acme-challenge.example.com TXT;\n';

async function world(
  options: { stopping?: boolean; records?: NonNullable<Parameters<typeof door>[0]>['records']; keysFile?: string } = {},
): Promise<{ w: DoorWorld; url: string }> {
  const w = await door({ keysFile: TXT_GRANT + (options.keysFile ?? ''), records: options.records });
  const deps = { ...w.deps, stopping: () => options.stopping ?? false };
  const listener = await startDyndns2Listener(LOOPBACK, undefined, {
    ...deps,
    otherProtocols: acmeHttpProtocols(deps),
  });
  closers.push(listener.close);
  return { w, url: listener.url };
}

const basic = (w: DoorWorld, key = 'alice', password = w.secret(key)) =>
  `Basic ${Buffer.from(`${key}:${password}`).toString('base64')}`;

async function post(url: string, body: string, headers: Record<string, string>) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return { status: res.status, body: await res.text(), headers: res.headers };
}

const txt = (w: DoorWorld) =>
  w.zone.live
    .filter((r) => r.type === 'TXT')
    .map((r) => r.value)
    .sort();

describe('httpreq on the listener', () => {
  it('adds and removes values, echoing what was sent; the key needs its TXT grant', async () => {
    const { w, url } = await world();
    const body = (value: string) => JSON.stringify({ fqdn: '_acme-challenge.example.com.', value });
    const auth = { authorization: basic(w) };
    const present = await post(`${url}/present`, body(V(1)), auth);
    expect([present.status, present.body, present.headers.get('content-type')]).toEqual([
      200,
      body(V(1)),
      'application/json',
    ]);
    expect((await post(`${url}/present/`, body(V(2)), auth)).status).toBe(200);
    expect(txt(w)).toEqual([V(1), V(2)]);
    expect((await post(`${url}/cleanup`, body(V(1)), auth)).status).toBe(200);
    expect(txt(w)).toEqual([V(2)]);
    const bob = await post(`${url}/present`, body(V(3)), { authorization: basic(w, 'bob') });
    expect([bob.status, bob.body]).toEqual([
      403,
      '{"error":"the key bob may not change _acme-challenge.example.com TXT"}',
    ]);
    expect(w.refusals().at(-1)).toMatch(/^403 .*httpreq: the key bob may not change/);
  });

  it('credentials before the body: 401 with a basic challenge, 429 past the wrong tries; GET 405; 413', async () => {
    const { w, url } = await world();
    const wrong = await post(`${url}/present`, '{}', { authorization: basic(w, 'alice', 'wrong-password') });
    expect([wrong.status, wrong.headers.get('www-authenticate')]).toEqual([
      401,
      'Basic realm="ddedge", charset="UTF-8"',
    ]);
    // A first try without credentials is no guess, but its body was never read: the connection is not kept for another.
    const bare = await post(`${url}/present`, '{}', {});
    expect([bare.status, bare.headers.get('connection')]).toEqual([401, 'close']);
    const good = await post(`${url}/cleanup`, JSON.stringify({ fqdn: '_acme-challenge.example.com', value: V(9) }), {
      authorization: basic(w),
    });
    expect([good.status, good.headers.get('connection')]).toEqual([200, 'keep-alive']);
    expect((await post(`${url}/present`, '{}', {})).status).toBe(401);
    for (let i = 0; i < 5; i++) await post(`${url}/present`, '{}', { authorization: basic(w, 'alice', `wrong-${i}`) });
    const limited = await post(`${url}/present`, '{}', { authorization: basic(w) });
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '60']);
    // One memory of wrong tries for the whole door: guessing through httpreq locks acme-dns and dyndns2 too.
    const acmeDns = await post(`${url}/update`, '{}', { 'x-api-user': 'alice', 'x-api-key': w.secret('alice') });
    expect([acmeDns.status, acmeDns.body]).toEqual([429, '{"error":"forbidden"}']);
    const dyndns2 = await fetch(`${url}/nic/update?hostname=home.example.com`, {
      headers: { authorization: basic(w) },
    });
    expect([dyndns2.status, await dyndns2.text()]).toEqual([429, 'badauth\n']);
    expect((await fetch(`${url}/cleanup`)).status).toBe(405);
  });

  it('a body past its bound is 413; a spent budget 429; a stopping gateway 503; nothing written', async () => {
    const { w, url } = await world();
    const auth = { authorization: basic(w) };
    const big = await post(`${url}/present`, 'x'.repeat(10_000), auth);
    expect(big.status).toBe(413);
    w.spend();
    const spent = await post(
      `${url}/present`,
      JSON.stringify({ fqdn: '_acme-challenge.example.com', value: V(1) }),
      auth,
    );
    expect([spent.status, spent.body]).toEqual([429, '{"error":"the call budget (--max-calls-per-hour) is spent"}']);
    const stopping = await world({ stopping: true });
    const refused = await post(
      `${stopping.url}/present`,
      JSON.stringify({ fqdn: '_acme-challenge.example.com', value: V(1) }),
      { authorization: basic(stopping.w) },
    );
    expect(refused.status).toBe(503);
    expect(txt(w)).toEqual([]);
    expect(txt(stopping.w)).toEqual([]);
  });
});

describe('a value the zone already holds', () => {
  it('is answered 200 with no provider call, as the dyndns2 door answers nochg', async () => {
    const { w, url } = await world();
    const body = JSON.stringify({ fqdn: '_acme-challenge.example.com', value: V(1) });
    const headers = { 'x-api-user': 'alice', 'x-api-key': w.secret('alice') };
    const update = JSON.stringify({ subdomain: 'example.com', txt: V(2) });
    expect((await post(`${url}/present`, body, { authorization: basic(w) })).status).toBe(200);
    expect((await post(`${url}/update`, update, headers)).status).toBe(200);
    const calls = w.zone.calls.length;
    for (let i = 0; i < 3; i++) {
      expect((await post(`${url}/present`, body, { authorization: basic(w) })).status).toBe(200);
      expect((await post(`${url}/update`, update, headers)).status).toBe(200);
    }
    expect(w.zone.calls.length).toBe(calls);
    expect(txt(w)).toEqual([V(1), V(2)]);
  });
});

describe('an account from acme-dns itself (its subdomain a UUID)', () => {
  it("is answered with acme-dns's word, and the log says what this gateway's accounts name instead", async () => {
    const { w, url } = await world();
    const headers = { 'x-api-user': 'alice', 'x-api-key': w.secret('alice') };
    const body = JSON.stringify({ subdomain: 'd420c923-bbd7-4056-ab64-c3ca54c9b3cf', txt: V(1) });
    const res = await post(`${url}/update`, body, headers);
    expect([res.status, res.body]).toEqual([400, '{"error":"bad_subdomain"}']);
    const logged = w.refusals().at(-1);
    expect(logged).toMatch(/acme-dns: "subdomain" names no domain \(bad_subdomain\): an account here names the domain/);
    expect(logged).toMatch(/ddedge gateway acme-dns-account$/);
  });
});

describe('a name that is a CNAME', () => {
  it('is refused (409) with where the challenge goes, through httpreq and acme-dns: no 200 for no TXT', async () => {
    const records = [{ name: '_acme-challenge.c.example.com', type: 'CNAME', ttl: 300, value: 'c.acme.example.net' }];
    const { w, url } = await world({ records, keysFile: 'grant "alice" name _acme-challenge.c.example.com TXT;\n' });
    const present = await post(
      `${url}/present`,
      JSON.stringify({ fqdn: '_acme-challenge.c.example.com.', value: V(1) }),
      { authorization: basic(w) },
    );
    const why = '_acme-challenge.c.example.com is a CNAME (to c.acme.example.net): write the challenge there';
    expect([present.status, present.body]).toEqual([409, JSON.stringify({ error: why })]);
    const update = await post(`${url}/update`, JSON.stringify({ subdomain: 'c.example.com', txt: V(2) }), {
      'x-api-user': 'alice',
      'x-api-key': w.secret('alice'),
    });
    expect([update.status, update.body]).toEqual([409, '{"error":"forbidden"}']);
    expect(w.refusals().at(-1)).toMatch(`409 update key alice, from 127.0.0.1: acme-dns: ${why}`);
    expect(txt(w)).toEqual([]);
    expect(w.zone.writes()).toEqual([]);
  });
});

describe('a name below a delegation', () => {
  it('is refused (409): a TXT written there is hidden by the cut, never seen by the CA', async () => {
    const records = [{ name: 'sub.example.com', type: 'NS', ttl: 300, value: 'ns1.elsewhere.example.net' }];
    const { w, url } = await world({ records, keysFile: 'grant "alice" name _acme-challenge.sub.example.com TXT;\n' });
    const present = await post(
      `${url}/present`,
      JSON.stringify({ fqdn: '_acme-challenge.sub.example.com', value: V(1) }),
      { authorization: basic(w) },
    );
    const why =
      '_acme-challenge.sub.example.com is below sub.example.com, delegated to other name servers: ' +
      'write the challenge in that zone';
    expect([present.status, present.body]).toEqual([409, JSON.stringify({ error: why })]);
    expect(w.zone.writes()).toEqual([]);
  });
});

describe('acme-dns on the listener', () => {
  it('keeps the two newest values; /health, /register; /update without X-Api-User is dyndns2', async () => {
    const { w, url } = await world();
    const headers = { 'x-api-user': 'alice', 'x-api-key': w.secret('alice') };
    for (const n of [1, 2, 3]) {
      const res = await post(`${url}/update`, JSON.stringify({ subdomain: 'example.com', txt: V(n) }), headers);
      expect([res.status, res.body]).toEqual([200, JSON.stringify({ txt: V(n) })]);
    }
    expect(txt(w)).toEqual([V(2), V(3)]);
    const wrong = await post(`${url}/update`, '{}', { 'x-api-user': 'alice', 'x-api-key': 'nope' });
    expect([wrong.status, wrong.body, wrong.headers.get('www-authenticate')]).toEqual([
      401,
      '{"error":"forbidden"}',
      null,
    ]);
    expect((await fetch(`${url}/update`, { headers })).status).toBe(405);
    expect((await fetch(`${url}/health`)).status).toBe(200);
    expect((await post(`${url}/register`, '', {})).status).toBe(403);
    const dyndns2 = await fetch(`${url}/update?hostname=home.example.com`);
    expect([dyndns2.status, await dyndns2.text()]).toEqual([401, 'badauth\n']);
    expect((await fetch(`${url}/elsewhere`)).status).toBe(404);
  });

  it('an update that fails removes nothing: the values it would have removed go with a later one', async () => {
    const { w, url } = await world();
    const headers = { 'x-api-user': 'alice', 'x-api-key': w.secret('alice') };
    const update = (n: number) =>
      post(`${url}/update`, JSON.stringify({ subdomain: 'example.com', txt: V(n) }), headers);
    await update(1);
    await update(2);
    // The provider fails the writes: each update is rolled back, nothing written or removed.
    w.zone.onWrite = () => 'failed';
    expect((await update(3)).status).toBe(502);
    expect((await update(4)).status).toBe(502);
    expect(txt(w)).toEqual([V(1), V(2)]);
    w.zone.onWrite = undefined;
    for (const n of [5, 6]) expect((await update(n)).status).toBe(200);
    expect(txt(w)).toEqual([V(5), V(6)]);
  });
});

describe('acme-dns with the budget spent', () => {
  it('answers 429 before its memory of values is read or written', async () => {
    const { w, url } = await world();
    w.spend();
    const headers = { 'x-api-user': 'alice', 'x-api-key': w.secret('alice') };
    const update = await post(`${url}/update`, JSON.stringify({ subdomain: 'example.com', txt: V(1) }), headers);
    expect(update.status).toBe(429);
    expect(existsSync(join(w.deps.stateDir, 'gateway', 'acme-dns.json'))).toBe(false);
  });
});

describe('a request a web page sent', () => {
  it('is refused (403) with its credentials unread: a browser holding them cannot be made to write', async () => {
    const { w, url } = await world();
    const present = JSON.stringify({ fqdn: '_acme-challenge.example.com', value: V(1) });
    // A form or fetch() from another site: a "simple" request, text/plain, sent without a preflight.
    const pages: Record<string, string>[] = [
      { origin: 'https://attacker.example' },
      { 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of pages) {
      const res = await post(`${url}/present`, present, {
        ...headers,
        'content-type': 'text/plain',
        authorization: basic(w),
      });
      expect(res.status).toBe(403);
    }
    const update = await post(`${url}/update`, JSON.stringify({ subdomain: 'example.com', txt: V(2) }), {
      origin: 'null',
      'x-api-user': 'alice',
      'x-api-key': w.secret('alice'),
    });
    expect(update.status).toBe(403);
    expect(txt(w)).toEqual([]);
    // Every ACME client sends neither.
    expect((await post(`${url}/present`, present, { authorization: basic(w) })).status).toBe(200);
  });
});

describe("the connection guard's known clients", () => {
  it('are those answered after authenticating: /health and /register make no source known', async () => {
    const { w } = await world();
    const known: string[] = [];
    const protocols = acmeHttpProtocols({ ...w.deps, stopping: () => false });
    const server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0]!;
      const request = { path, client: CLIENT, guesses: w.deps.guesses, authenticated: () => void known.push(path) };
      if (protocols(req, res, request) === false) res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    const { port } = server.address() as { port: number };
    const url = `http://127.0.0.1:${port}`;
    expect((await fetch(`${url}/health`)).status).toBe(200);
    expect((await post(`${url}/register`, '', {})).status).toBe(403);
    expect((await post(`${url}/present`, '{}', {})).status).toBe(401);
    expect(known).toEqual([]);
    const body = JSON.stringify({ fqdn: '_acme-challenge.example.com', value: V(1) });
    expect((await post(`${url}/present`, body, { authorization: basic(w) })).status).toBe(200);
    expect(known.length).toBeGreaterThan(0);
  });
});

/** A request written as is (fetch joins or drops repeated headers), and the status line of its answer. */
function rawStatus(url: string, request: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    let answer = '';
    socket.on('data', (data) => {
      answer += data.toString();
    });
    socket.on('end', () => resolve(answer.split('\r\n')[0]!));
    socket.on('error', reject);
  });
}

describe('credentials given twice', () => {
  it('are refused (400) before either is looked at: no guess counted, nothing written', async () => {
    const { w, url } = await world();
    const present = JSON.stringify({ fqdn: '_acme-challenge.example.com', value: V(1) });
    const update = JSON.stringify({ subdomain: 'example.com', txt: V(2) });
    const wrong = basic(w, 'alice', 'not-the-secret');
    const requests = [
      ['/present', `Authorization: ${basic(w)}\r\nAuthorization: ${wrong}`, present],
      ['/present', `Authorization: ${wrong}\r\nAuthorization: ${basic(w)}`, present],
      ['/update', `X-Api-User: alice\r\nX-Api-User: bob\r\nX-Api-Key: ${w.secret('alice')}`, update],
      ['/update', `X-Api-User: alice\r\nX-Api-Key: ${w.secret('alice')}\r\nX-Api-Key: nope`, update],
    ];
    for (const [path, headers, body] of requests)
      expect(
        await rawStatus(
          url,
          `POST ${path} HTTP/1.1\r\nHost: x\r\n${headers}\r\nContent-Type: application/json\r\n` +
            `Connection: close\r\nContent-Length: ${body!.length}\r\n\r\n${body}`,
        ),
      ).toBe('HTTP/1.1 400 Bad Request');
    expect(txt(w)).toEqual([]);
    expect(w.refusals().filter((r) => r.startsWith('badauth'))).toEqual([]);
    // Not one of those was a wrong try: the key still works from that source.
    expect((await post(`${url}/present`, present, { authorization: basic(w) })).status).toBe(200);
  });
});
