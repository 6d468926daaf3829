// httpreq / acmeproxy on the gateway's HTTP door, with the requests lego, acme.sh and Caddy's
// module send (their source: lego providers/dns/httpreq, acme.sh dnsapi/dns_acmeproxy.sh, libdns
// acmeproxy): a value added beside the others, removed one by one, the answer the JSON echo of
// what was sent; RAW mode's keyAuth hashed into the value; a name outside the key's grants refused
// (403) with nothing written; wrong credentials 401; and a secret (or a wrong password) put in every
// place a request has never reaches an answer, the log at debug level or the journal.
import { createHash } from 'node:crypto';
import { readFileSync, existsSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CANARY } from '../../../helpers/cli.js';
import { useGateway, zoneLines } from '../../../helpers/use-gateway.js';
import { useSandbox } from '../../../helpers/use-sandbox.js';

const sandbox = useSandbox({ per: 'file' });
const gw = useGateway(() => ({
  apiUrl: sandbox.url,
  door: {},
  keys: [
    { name: 'acme', rules: ['grant "acme" name _acme-challenge.example.com TXT;'] },
    { name: 'other', rules: ['grant "other" name home.example.com A;'] },
  ],
  // The door by both its names, alike: one setting.
  args: ['--log-level', 'debug', '--refresh', '1h', '--dyndns2-listen', '127.0.0.1:0'],
}));
afterAll(async () => {
  expect(await gw.stop()).toBe(0);
});

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const challenges = () => zoneLines(sandbox, '_acme-challenge.example.com');
const V1 = 'LHDhK3oGRvkiefQnx7OOczTY5Tic_xZ6HcMOc_gmtoM';
const V2 = 'a3b5jZl0ViEU2Q2P3m-gW4q1X3Q6h8sFWqv0O7d-TxU';

/** POST as lego does: JSON, Accept and Content-Type application/json, basic auth. */
async function post(path: string, body: unknown, authorization = basic('acme', gw.secret('acme'))) {
  const res = await fetch(`${gw.dyndns2}${path}`, {
    method: 'POST',
    headers: { authorization, accept: 'application/json', 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : `${JSON.stringify(body)}\n`,
  });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text(), headers: res.headers };
}

describe('httpreq on the HTTP door', () => {
  it('present adds each value beside the others and answers the JSON echo; cleanup removes one value at a time', async () => {
    const before = zoneLines(sandbox);
    const first = await post('/present', { fqdn: '_acme-challenge.example.com.', value: V1 });
    expect(first).toMatchObject({ status: 200, type: 'application/json' });
    // Caddy's module compares the echoed fqdn and value with what it sent; acme.sh looks for "VALUE" in the body.
    expect(JSON.parse(first.text)).toEqual({ fqdn: '_acme-challenge.example.com.', value: V1 });
    expect(challenges()).toEqual([`_acme-challenge.example.com TXT ${V1}`]);
    // The endpoint a client is given may end in a slash (acme.sh then sends //present); no trailing dot is the same name.
    expect((await post('//present', { fqdn: '_acme-challenge.example.com', value: V2 })).status).toBe(200);
    expect((await post('/present', { fqdn: '_acme-challenge.example.com.', value: V2 })).status).toBe(200);
    expect(challenges()).toEqual([`_acme-challenge.example.com TXT ${V1}`, `_acme-challenge.example.com TXT ${V2}`]);
    const cleaned = await post('/cleanup', { fqdn: '_acme-challenge.example.com.', value: V1 });
    expect([cleaned.status, JSON.parse(cleaned.text)]).toEqual([
      200,
      { fqdn: '_acme-challenge.example.com.', value: V1 },
    ]);
    expect(challenges()).toEqual([`_acme-challenge.example.com TXT ${V2}`]);
    expect((await post('/cleanup', { fqdn: '_acme-challenge.example.com.', value: V2 })).status).toBe(200);
    // A value that is not there: nothing to do, and no error (a client's cleanup after a failed present).
    expect((await post('/cleanup', { fqdn: '_acme-challenge.example.com.', value: V2 })).status).toBe(200);
    expect(zoneLines(sandbox)).toEqual(before);
    expect(gw.journal().some((l) => JSON.stringify(l).includes('_acme-challenge.example.com'))).toBe(true);
  });

  it('RAW mode: the value is the base64url SHA-256 of keyAuth, at _acme-challenge of the domain', async () => {
    const keyAuth = `token-${CANARY}.thumbprint`;
    const value = createHash('sha256').update(keyAuth).digest('base64url');
    const raw = { domain: 'example.com', token: `token-${CANARY}`, keyAuth };
    const present = await post('/present', raw);
    expect([present.status, JSON.parse(present.text)]).toEqual([200, { fqdn: '_acme-challenge.example.com.', value }]);
    expect(challenges()).toEqual([`_acme-challenge.example.com TXT ${value}`]);
    expect((await post('/cleanup', raw)).status).toBe(200);
    expect(challenges()).toEqual([]);
  });

  it("a name outside the key's grants is 403 and nothing is written or read", async () => {
    const before = zoneLines(sandbox);
    const calls = sandbox.calls.get('service/dnslist') ?? 0;
    for (const fqdn of ['_acme-challenge.www.example.com.', 'example.com.', '_acme-challenge.example.org.']) {
      const refused = await post('/present', { fqdn, value: V1 });
      expect(refused.status, fqdn).toBe(403);
    }
    expect(
      (await post('/present', { fqdn: '_acme-challenge.example.com.', value: V1 }, basic('other', gw.secret('other'))))
        .status,
    ).toBe(403);
    expect(zoneLines(sandbox)).toEqual(before);
    expect(sandbox.calls.get('service/dnslist') ?? 0).toBe(calls);
  });

  it('wrong or missing credentials are 401 (basic realm); bad bodies 400; GET 405; a large body 413', async () => {
    const wrong = await post('/present', { fqdn: '_acme-challenge.example.com.', value: V1 }, basic('acme', CANARY));
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic /);
    expect((await post('/present', { fqdn: '_acme-challenge.example.com.', value: V1 }, '')).status).toBe(401);
    expect((await post('/present', `{"fqdn": "${CANARY}`)).status).toBe(400);
    expect((await post('/present', { fqdn: '_acme-challenge.example.com.', value: `"${CANARY}"` })).status).toBe(400);
    expect((await post('/present', { password: CANARY })).status).toBe(400);
    expect((await fetch(`${gw.dyndns2}/present`)).status).toBe(405);
    expect((await post('/present', { fqdn: '_acme-challenge.example.com.', value: 'x'.repeat(20_000) })).status).toBe(
      413,
    );
    expect(challenges()).toEqual([]);
  });

  it("closes a client that drips its body after the credentials: the door's whole-request deadline", async () => {
    const socket = connect(Number(new URL(gw.dyndns2).port), '127.0.0.1');
    socket.on('error', () => undefined);
    let closedAt = 0;
    const closed = new Promise<void>((resolve) =>
      socket.on('close', () => {
        closedAt = Date.now();
        resolve();
      }),
    );
    const start = Date.now();
    const body = JSON.stringify({ fqdn: '_acme-challenge.example.com.', value: V1 });
    socket.write(
      `POST /present HTTP/1.1\r\nHost: x\r\nAuthorization: ${basic('acme', gw.secret('acme'))}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    let i = 0;
    const drip = setInterval(
      () => (i < body.length - 1 && !socket.destroyed ? socket.write(body[i++]!) : undefined),
      200,
    );
    try {
      // Bounded by the door's 10 s for a whole request, not by the client; the bound here only stops a hang.
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 30_000))]);
      expect(closedAt, 'the dripping client was never closed').toBeGreaterThan(0);
      expect(closedAt - start).toBeLessThan(20_000);
      expect(challenges()).toEqual([]);
    } finally {
      clearInterval(drip);
      socket.destroy();
    }
  });

  it('counts its answers by status in /metrics', async () => {
    const metrics = await (await fetch(`${gw.endpoint}/metrics`)).text();
    for (const status of [200, 400, 401, 403, 405, 413])
      expect(metrics).toMatch(
        new RegExp(`^ddedge_gateway_acme_http_answers_total\\{protocol="httpreq",status="${status}"\\} [1-9]`, 'm'),
      );
  });

  it('no secret, wrong password or keyAuth in an answer, the log (debug) or the journal', async () => {
    await gw.logged(/badauth: .*httpreq: a wrong password/);
    const secrets = [CANARY, gw.secret('acme'), gw.secret('other')];
    const journal = join(gw.stateDir, 'gateway', 'journal.jsonl');
    const page = await (await fetch(`${gw.endpoint}/`)).text();
    expect(page).toMatch(/httpreq: a wrong password/);
    const texts = [gw.stderr(), existsSync(journal) ? readFileSync(journal, 'utf8') : '', page];
    for (const secret of secrets) for (const text of texts) expect(text).not.toContain(secret);
  });
});
