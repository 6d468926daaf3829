// acme-dns on the gateway's HTTP door, with the requests its clients send (read from their
// source): goacmedns's UpdateTXTRecord (lego, Traefik, cert-manager: POST /update, X-Api-User,
// X-Api-Key, JSON {"subdomain","txt"} and a newline, Accept and Content-Type application/json;
// older versions sent SubDomain/Txt), acme.sh's dns_acmedns_add (the same headers, body
// {"subdomain":"…", "txt": "…"}, success when the answer holds "VALUE"). The two newest values of a
// name are kept, older ones removed, another client's value never; /health 200, /register 403;
// /update without X-Api-User stays dyndns2's; and the accounts JSON `gateway acme-dns-account`
// prints. No secret (the key's, or a wrong one given as X-Api-Key) in an answer, the log or the journal.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { baseEnv, CANARY, runDist } from '../../../helpers/cli.js';
import { useGateway, zoneLines } from '../../../helpers/use-gateway.js';
import { useSandbox } from '../../../helpers/use-sandbox.js';

const sandbox = useSandbox({ per: 'file' });
const gw = useGateway(() => ({
  apiUrl: sandbox.url,
  door: {},
  keys: [
    { name: 'acme', rules: ['grant "acme" name _acme-challenge.example.com TXT;'] },
    { name: 'zone', rules: ['grant "zone" zonesub TXT;'] },
  ],
  args: ['--log-level', 'debug', '--refresh', '1h'],
}));
afterAll(async () => {
  expect(await gw.stop()).toBe(0);
});

/** 43 characters: a SHA-256 in base64url, as every ACME client's value is. */
const value = (n: number) => `${String(n).padStart(3, '0')}${'v'.repeat(36)}-_Ab`;
const challenges = () => zoneLines(sandbox, '_acme-challenge.example.com').map((l) => l.split(' ')[2]);

/** What goacmedns sends: json.Encoder's body (a newline after it), its headers. */
async function goacmedns(body: Record<string, string>, user = 'acme', key = gw.secret(user)) {
  const res = await fetch(`${gw.dyndns2}/update`, {
    method: 'POST',
    headers: {
      accept: 'application/json',
      'user-agent': 'goacmedns (linux; amd64)',
      'x-api-user': user,
      'x-api-key': key,
      'content-type': 'application/json',
    },
    body: `${JSON.stringify(body)}\n`,
  });
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
}

describe('acme-dns on the HTTP door', () => {
  it("keeps the two newest values of a name, removes older ones, and never another client's", async () => {
    // Another client's challenge at the same name (httpreq here): not acme-dns's to remove.
    const other = 'x'.repeat(43);
    const basic = `Basic ${Buffer.from(`acme:${gw.secret('acme')}`).toString('base64')}`;
    const present = await fetch(`${gw.dyndns2}/present`, {
      method: 'POST',
      headers: { authorization: basic, 'content-type': 'application/json' },
      body: JSON.stringify({ fqdn: '_acme-challenge.example.com.', value: other }),
    });
    expect(present.status).toBe(200);
    const first = await goacmedns({ subdomain: 'example.com', txt: value(1) });
    expect(first).toEqual({ status: 200, type: 'application/json', body: JSON.stringify({ txt: value(1) }) });
    // Older goacmedns: SubDomain and Txt.
    expect((await goacmedns({ SubDomain: 'example.com', Txt: value(2) })).status).toBe(200);
    expect(challenges().sort()).toEqual([value(1), value(2), other].sort());
    expect((await goacmedns({ subdomain: '_acme-challenge.example.com', txt: value(3) })).status).toBe(200);
    expect(challenges().sort()).toEqual([value(2), value(3), other].sort());
    // The same value again: it becomes the newest, nothing else changes.
    expect((await goacmedns({ subdomain: 'example.com', txt: value(2) })).status).toBe(200);
    expect((await goacmedns({ subdomain: 'example.com', txt: value(4) })).status).toBe(200);
    expect(challenges().sort()).toEqual([value(2), value(4), other].sort());
    expect(JSON.parse(readFileSync(join(gw.stateDir, 'gateway', 'acme-dns.json'), 'utf8'))).toEqual({
      version: 1,
      names: { '_acme-challenge.example.com': [value(2), value(4)] },
    });
  });

  it("acme.sh's request: its body and headers, the value found in the answer", async () => {
    const res = await fetch(`${gw.dyndns2}/update`, {
      method: 'POST',
      headers: { 'x-api-user': 'acme', 'x-api-key': gw.secret('acme'), 'content-type': 'application/json' },
      body: `{"subdomain":"example.com", "txt": "${value(5)}"}`,
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(`"${value(5)}"`);
  });

  it("refuses with acme-dns's words: wrong credentials 401, a name not granted 403, a bad value or name 400", async () => {
    const before = zoneLines(sandbox);
    expect(await goacmedns({ subdomain: 'example.com', txt: value(6) }, 'acme', CANARY)).toMatchObject({
      status: 401,
      body: '{"error":"forbidden"}',
    });
    expect(await goacmedns({ subdomain: 'example.com', txt: value(6) }, CANARY, CANARY)).toMatchObject({ status: 401 });
    expect(await goacmedns({ subdomain: 'www.example.com', txt: value(6) })).toMatchObject({
      status: 403,
      body: '{"error":"forbidden"}',
    });
    expect(await goacmedns({ subdomain: 'example.org', txt: value(6) }, 'zone')).toMatchObject({ status: 403 });
    expect(await goacmedns({ subdomain: 'example.com', txt: 'short' })).toMatchObject({
      status: 400,
      body: '{"error":"bad_txt"}',
    });
    expect(await goacmedns({ subdomain: CANARY, txt: value(6) })).toMatchObject({
      status: 400,
      body: '{"error":"bad_subdomain"}',
    });
    expect(await goacmedns({ password: CANARY })).toMatchObject({ status: 400 });
    expect(zoneLines(sandbox)).toEqual(before);
  });

  it("/health is 200, /register 403, and /update without X-Api-User is the dyndns2 door's", async () => {
    expect((await fetch(`${gw.dyndns2}/health`)).status).toBe(200);
    const register = await fetch(`${gw.dyndns2}/register`, { method: 'POST', body: '{}' });
    expect(register.status).toBe(403);
    const dyndns2 = await fetch(`${gw.dyndns2}/update?hostname=home.example.com&myip=81.0.2.1`);
    expect([dyndns2.status, await dyndns2.text()]).toEqual([401, 'badauth\n']);
  });

  it('no secret or wrong key in an answer, the log (debug) or the journal', async () => {
    await gw.logged(/badauth: .*acme-dns: a wrong password/);
    const journal = readFileSync(join(gw.stateDir, 'gateway', 'journal.jsonl'), 'utf8');
    const page = await (await fetch(`${gw.endpoint}/`)).text();
    expect(page).toMatch(/acme-dns: a wrong password/);
    for (const secret of [CANARY, gw.secret('acme'), gw.secret('zone')]) {
      expect(gw.stderr()).not.toContain(secret);
      expect(journal).not.toContain(secret);
      expect(page).not.toContain(secret);
    }
  });
});

describe('ddedge gateway acme-dns-account', () => {
  it('prints the accounts JSON lego and cert-manager store; an unknown key or a domain not granted is exit 2', async () => {
    const account = (...args: string[]) =>
      runDist(['gateway', 'acme-dns-account', '--keys', gw.keysFile, ...args], baseEnv({}));
    const run = await account('acme', 'example.com', '*.example.com');
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      'example.com': {
        username: 'acme',
        password: gw.secret('acme'),
        fulldomain: '_acme-challenge.example.com',
        subdomain: 'example.com',
        allowfrom: [],
      },
    });
    const byVariable = await runDist(
      ['gateway', 'acme-dns-account', 'acme', 'example.com'],
      baseEnv({ DDEDGE_GATEWAY_KEYS_FILE: gw.keysFile }),
    );
    expect([byVariable.code, byVariable.stdout]).toEqual([0, run.stdout]);
    const none = await runDist(['gateway', 'acme-dns-account', 'acme', 'example.com'], baseEnv({}));
    expect([none.code, none.stderr]).toEqual([2, expect.stringMatching(/give the keys file, the key and its domains/)]);
    const unknown = await account('nobody', 'example.com');
    expect([unknown.code, unknown.stderr]).toEqual([2, expect.stringMatching(/no key "nobody" in the keys file/)]);
    const denied = await account('acme', 'www.example.com');
    expect(denied.code).toBe(2);
    expect(denied.stderr).toMatch(/the key acme has no grant for _acme-challenge\.www\.example\.com TXT/);
    expect(denied.stdout + denied.stderr).not.toContain(gw.secret('acme'));
  });
});
