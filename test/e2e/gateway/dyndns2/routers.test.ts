// The gateway's dyndns2 door, through the built gateway in front of the sandbox, as routers and
// clients call it: curl with basic auth and with user:pass@, the FRITZ!Box's custom URL replayed
// exactly as the box sends it, Synology DSM's query form, a POST form; what each answer code
// means for the zone, the journal and /metrics; `nochg` costing no provider call.
import { execFile } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { requireTool } from '../../../helpers/programs.js';
import { useGateway, zoneLines } from '../../../helpers/use-gateway.js';
import { useSandbox } from '../../../helpers/use-sandbox.js';

const KEYS = [
  {
    name: 'router',
    rules: ['grant "router" name home.example.com A AAAA;', 'grant "router" subdomain lan.example.com AAAA;'],
  },
  { name: 'office', rules: ['grant "office" name office.example.com A;'] },
  { name: 'nas', rules: ['grant "nas" name nas.example.com A AAAA;'] },
];

const sandbox = useSandbox({ per: 'file' });
const door = useGateway(() => ({
  apiUrl: sandbox.url,
  door: {},
  keys: KEYS,
  args: ['--prefix-host', 'pc.lan.example.com=::1e2:3ff:fe4a:5b6c', '--prefix-host', 'printer.lan.example.com=::10'],
}));
afterAll(async () => {
  expect(await door.stop()).toBe(0);
});

const secret = (key: string) => door.secret(key);
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

async function get(path: string, init: RequestInit = {}): Promise<{ status: number; body: string; headers: Headers }> {
  const res = await fetch(`${door.dyndns2}${path}`, init);
  return { status: res.status, body: await res.text(), headers: res.headers };
}

/** curl as a user or a router would run it; stdout is the body, and `-w` adds the status on a last line. */
function curl(args: string[]): Promise<{ body: string; status: number }> {
  return new Promise((resolve, reject) =>
    execFile('curl', ['-sS', '-w', '\n%{http_code}', ...args], { timeout: 30_000 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`${error.message}\n${stderr}`));
      const at = stdout.lastIndexOf('\n');
      resolve({ body: stdout.slice(0, at), status: Number(stdout.slice(at + 1)) });
    }),
  );
}

describe.skipIf(!requireTool('curl'))('the dyndns2 door', () => {
  it('sets A with basic auth (curl user:pass@), answers "good", journals it with key and client; the same again is "nochg" with no provider call', async () => {
    const url = new URL('/nic/update?hostname=home.example.com&myip=81.0.2.31', door.dyndns2);
    url.username = 'router';
    url.password = encodeURIComponent(secret('router'));
    const first = await curl([url.href]);
    expect(first).toEqual({ status: 200, body: 'good 81.0.2.31\n' });
    expect(zoneLines(sandbox, 'home.example.com')).toEqual(['home.example.com A 81.0.2.31']);
    const entry = door.journal().at(-1)!;
    expect(entry).toMatchObject({
      zone: 'example.com',
      key: 'router',
      client: '127.0.0.1',
      changes: [{ action: 'update', name: 'home.example.com', type: 'A', after: expect.stringContaining('81.0.2.31') }],
    });

    const calls = await door.providerCalls();
    for (let i = 0; i < 5; i++)
      expect(
        await curl([
          '-u',
          `router:${secret('router')}`,
          `${door.dyndns2}/nic/update?hostname=home.example.com&myip=81.0.2.31`,
        ]),
      ).toEqual({ status: 200, body: 'nochg 81.0.2.31\n' });
    expect(await door.providerCalls()).toBe(calls);
    const answers = await door.doorAnswers();
    expect(answers.good).toBeGreaterThanOrEqual(1);
    expect(answers.nochg).toBeGreaterThanOrEqual(5);
    const status = (await (await fetch(`${door.endpoint}/status`)).json()) as {
      dyndns2Answers: Record<string, number>;
    };
    expect(status.dyndns2Answers).toMatchObject({ good: answers.good, nochg: answers.nochg });
  });

  it('answers 401 with WWW-Authenticate: Basic and "badauth" for a wrong or missing password, changing nothing', async () => {
    const before = zoneLines(sandbox, 'home.example.com');
    const wrong = await get('/nic/update?hostname=home.example.com&myip=81.0.2.99', {
      headers: { authorization: basic('router', 'not-the-secret') },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toBe('badauth\n');
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic /);
    const none = await get('/nic/update?hostname=home.example.com&myip=81.0.2.99');
    expect([none.status, none.body]).toEqual([401, 'badauth\n']);
    // Another key's secret is not this key's.
    const swapped = await get('/nic/update?hostname=home.example.com&myip=81.0.2.99', {
      headers: { authorization: basic('router', secret('office')) },
    });
    expect(swapped.status).toBe(401);
    expect(zoneLines(sandbox, 'home.example.com')).toEqual(before);
    const stranger = await get('/nic/update?hostname=home.example.com&myip=81.0.2.99', {
      headers: { authorization: basic('nobody', 'whatever-it-is') },
    });
    expect(stranger.status).toBe(401);
    await door.logged(/request key router, from 127\.0\.0\.1: badauth: dyndns2: a wrong password/);
    // Said in the door's words: "unsigned" is DNS's.
    await door.logged(/request with no credentials, from 127\.0\.0\.1: badauth: dyndns2: no credentials/);
    await door.logged(/request with bad credentials, from 127\.0\.0\.1: badauth: dyndns2: a user name that is no key/);
    expect(door.stderr()).not.toContain('unsigned');
    expect((await door.doorAnswers()).badauth).toBeGreaterThanOrEqual(4);
  });

  it('answers one line per host in order: nohost outside the grants or the zones, notfqdn for a bare name', async () => {
    const res = await get(
      '/nic/update?hostname=office.example.com,home.example.com,elsewhere.org,office&myip=81.0.2.32',
      { headers: { authorization: basic('router', secret('router')) } },
    );
    expect(res.body).toBe('nohost\ngood 81.0.2.32\nnohost\nnotfqdn\n');
    expect(zoneLines(sandbox, 'office.example.com')).toEqual([]);
    await door.logged(
      /key router, from 127\.0\.0\.1: nohost: dyndns2: the key router may not change office\.example\.com A/,
    );
    expect(
      (await get('/nic/update?myip=81.0.2.32', { headers: { authorization: basic('router', secret('router')) } })).body,
    ).toBe('notfqdn\n');
  });

  it('a fullwidth or small asterisk (U+FF0A, U+FE61) is no wildcard: notfqdn, and no record is made', async () => {
    const auth = { authorization: basic('router', secret('router')) };
    for (const star of ['%EF%BC%8A', '%EF%B9%A1']) {
      const res = await get(`/nic/update?hostname=${star}.lan.example.com&myip=2a01:4f8:c0c:1::36`, { headers: auth });
      expect(res.body, star).toBe('notfqdn\n');
    }
    expect(zoneLines(sandbox, '*.lan.example.com')).toEqual([]);
  });

  it('sets A and AAAA from "myip=v4,v6", from myipv6, and from a POST form', async () => {
    const auth = { authorization: basic('router', secret('router')) };
    expect(
      (await get('/nic/update?hostname=home.example.com&myip=81.0.2.33,2a01:4f8:c0c:1::33', { headers: auth })).body,
    ).toBe('good 81.0.2.33,2a01:4f8:c0c:1::33\n');
    expect(zoneLines(sandbox, 'home.example.com')).toEqual([
      'home.example.com A 81.0.2.33',
      'home.example.com AAAA 2a01:4f8:c0c:1::33',
    ]);
    expect(
      (await get('/update?hostname=home.example.com&myip=81.0.2.33&myipv6=2a01:4f8:c0c:1::34', { headers: auth })).body,
    ).toBe('good 81.0.2.33,2a01:4f8:c0c:1::34\n');
    const posted = await get('/nic/update', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'hostname=home.example.com&myip=81.0.2.35',
    });
    expect(posted.body).toBe('good 81.0.2.35\n');
    expect(zoneLines(sandbox, 'home.example.com')).toEqual([
      'home.example.com A 81.0.2.35',
      'home.example.com AAAA 2a01:4f8:c0c:1::34',
    ]);
  });

  it("refuses an address that is not public (dnserr), and so the request's own loopback source when no address is given", async () => {
    const auth = { authorization: basic('router', secret('router')) };
    const before = zoneLines(sandbox, 'home.example.com');
    expect((await get('/nic/update?hostname=home.example.com&myip=192.168.1.7', { headers: auth })).body).toBe(
      'dnserr\n',
    );
    expect((await get('/nic/update?hostname=home.example.com', { headers: auth })).body).toBe('dnserr\n');
    expect((await get('/nic/update?hostname=home.example.com&myip=not-an-address', { headers: auth })).body).toBe(
      'dnserr\n',
    );
    expect(zoneLines(sandbox, 'home.example.com')).toEqual(before);
    await door.logged(/192\.168\.1\.7, which is not public/);
  });

  it('FRITZ!Box: its custom URLs (two, separated by a space) with the placeholders replaced unescaped, its User-Agent: A, AAAA and the hosts behind it set', async () => {
    // As typed into the box's "Update-URL" field (Internet > Freigaben > DynDNS > Benutzerdefiniert).
    const field = `${door.dyndns2}/nic/update?hostname=<domain>&myip=<ipaddr>&username=<username>&password=<pass> ${door.dyndns2}/nic/update?hostname=<domain>&myip=<ip6addr>&ip6lanprefix=<ip6lanprefix>&dualstack=<dualstack>&username=<username>&password=<pass>`;
    const values: Record<string, string> = {
      '<domain>': 'home.example.com',
      '<username>': 'router',
      '<pass>': secret('router'),
      '<ipaddr>': '81.0.2.36',
      '<ip6addr>': '2a01:4f8:c0c:2::1',
      '<ip6lanprefix>': '2a01:4f8:c0c:2::/64',
      '<dualstack>': '1',
    };
    const urls = field.split(' ').map((u) => u.replace(/<[a-z0-9]+>/g, (p) => values[p]!));
    expect(urls[0]).toContain(`password=${secret('router')}`); // a base64 secret's + and / as they are
    for (const url of urls) {
      const reads = await door.providerCalls('service/dnslist');
      const res = await curl(['--globoff', '-A', 'Fritz!Box DDNS/1.0.1', url]);
      expect(res.status, url).toBe(200);
      expect(res.body).toMatch(/^(good|nochg) /);
      // The host and the two behind the router, in one zone: one message, one read of the zone.
      expect(await door.providerCalls('service/dnslist')).toBe(reads + 1);
    }
    expect(zoneLines(sandbox, 'home.example.com')).toEqual([
      'home.example.com A 81.0.2.36',
      'home.example.com AAAA 2a01:4f8:c0c:2::1',
    ]);
    expect(zoneLines(sandbox, 'lan.example.com')).toEqual([
      'pc.lan.example.com AAAA 2a01:4f8:c0c:2:1e2:3ff:fe4a:5b6c',
      'printer.lan.example.com AAAA 2a01:4f8:c0c:2::10',
    ]);

    // The box without IPv6 leaves <ip6addr> empty; a new prefix moves the hosts behind it.
    const single = `${door.dyndns2}/nic/update?hostname=home.example.com&myip=81.0.2.37,&ip6lanprefix=2a01:4f8:c0c:3::/64&username=router&password=${secret('router')}`;
    expect((await curl(['--globoff', '-A', 'Fritz!Box DDNS/1.0.1', single])).body).toBe('good 81.0.2.37\n');
    expect(zoneLines(sandbox, 'lan.example.com')).toEqual([
      'pc.lan.example.com AAAA 2a01:4f8:c0c:3:1e2:3ff:fe4a:5b6c',
      'printer.lan.example.com AAAA 2a01:4f8:c0c:3::10',
    ]);
  });

  it('ip6lanprefix: a length only in decimal, one length; a prefix shorter than /64 keeps its subnet bits (the hosts go in the /64 its address names)', async () => {
    const ask = async (prefix: string) =>
      (
        await get(
          `/nic/update?hostname=home.example.com&myip=81.0.2.45&ip6lanprefix=${prefix}&username=router&password=${encodeURIComponent(secret('router'))}`,
        )
      ).body;
    const before = zoneLines(sandbox, 'lan.example.com');
    for (const bad of [
      '2a01:4f8:c0c:7::/0x40',
      '2a01:4f8:c0c:7::/64/64',
      '2a01:4f8:c0c:7::/+64',
      '2a01:4f8:c0c:7::/64.0',
      '2a01:4f8:c0c:7::/',
    ]) {
      await ask(bad);
      expect(zoneLines(sandbox, 'lan.example.com'), bad).toEqual(before);
    }
    await door.logged(/ip6lanprefix "2a01:4f8:c0c:7::\/0x40": the prefix length must be a whole number from 48 to 64/);
    // A /56 whose address has subnet bits (2a01:4f8:c0c:5a00::/56 with the LAN at :5a01): they are kept, not zeroed by the identifier.
    await ask('2a01:4f8:c0c:5a01::/56');
    expect(zoneLines(sandbox, 'lan.example.com')).toEqual([
      'pc.lan.example.com AAAA 2a01:4f8:c0c:5a01:1e2:3ff:fe4a:5b6c',
      'printer.lan.example.com AAAA 2a01:4f8:c0c:5a01::10',
    ]);
  });

  it('a key without a grant for the hosts behind the router leaves them alone', async () => {
    const before = zoneLines(sandbox, 'lan.example.com');
    const res = await get(
      `/nic/update?hostname=office.example.com&myip=81.0.2.38&ip6lanprefix=2a01:4f8:c0c:4::/64&username=office&password=${encodeURIComponent(secret('office'))}`,
    );
    expect(res.body).toBe('good 81.0.2.38\n');
    expect(zoneLines(sandbox, 'lan.example.com')).toEqual(before);
  });

  it('Synology DSM: its custom provider query URL with __USERNAME__, __PASSWORD__, __HOSTNAME__, __MYIP__ replaced', async () => {
    const template = `${door.dyndns2}/nic/update?hostname=__HOSTNAME__&myip=__MYIP__&username=__USERNAME__&password=__PASSWORD__`;
    const url = template
      .replace('__HOSTNAME__', 'nas.example.com')
      .replace('__MYIP__', '81.0.2.39')
      .replace('__USERNAME__', 'nas')
      .replace('__PASSWORD__', secret('nas'));
    expect(await curl(['--globoff', url])).toEqual({ status: 200, body: 'good 81.0.2.39\n' });
    expect(zoneLines(sandbox, 'nas.example.com')).toEqual(['nas.example.com A 81.0.2.39']);
  });

  it('answers 911 when the provider fails the write, with nothing half-made, and abuse is not said for it', async () => {
    const auth = { authorization: basic('nas', secret('nas')) };
    // The provider fails every call for a while (the client retries), then is back.
    const fault = { target: '*', kind: '500' as const, delayMs: 0, remaining: 1_000 };
    sandbox.faults.push(fault);
    expect((await get('/nic/update?hostname=nas.example.com&myip=81.0.2.40', { headers: auth })).body).toBe('911\n');
    fault.remaining = 0;
    expect(zoneLines(sandbox, 'nas.example.com')).toEqual(['nas.example.com A 81.0.2.39']);
    expect((await get('/nic/update?hostname=nas.example.com&myip=81.0.2.40', { headers: auth })).body).toBe(
      'good 81.0.2.40\n',
    );
  });
});
