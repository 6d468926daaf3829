// The dyndns2 door's reading of requests in every client's dialect, its key check, and the
// bounded memory of wrong passwords that slows a guesser.
import { describe, expect, it } from 'vitest';
import { isKeyName, keyOf } from '../../../../src/gateway/keys/credentials.js';
import { GuessLimit } from '../../../../src/gateway/limits/guess-limit.js';
import { readParameters, readRequest } from '../../../../src/gateway/dyndns2/request.js';
import { parseKeysFile } from '../../../../src/gateway/keys/keys-file.js';

const read = (query: string, authorization?: string) => readRequest(readParameters(query), authorization);
const SECRET = 'vhYNGpZlHZVSLT64/Tt83OvsBoSOGULbPnwrRegI/+Y=';

describe('reading a dyndns2 request', () => {
  it("reads ddclient's escaped form with basic auth", () => {
    const request = read(
      'system=dyndns&hostname=home.example.com&myip=81.0.2.1',
      `Basic ${Buffer.from(`router:${SECRET}`).toString('base64')}`,
    );
    expect(request).toMatchObject({
      hostnames: [{ given: 'home.example.com', name: 'home.example.com' }],
      ipv4: '81.0.2.1',
      credentials: { user: 'router', password: SECRET },
    });
  });

  it('reads a FRITZ!Box URL as it sends it: unescaped + and /, an empty IPv6, the LAN prefix with its length', () => {
    const request = read(
      `hostname=Home.Example.com.&myip=81.0.2.1,&ip6lanprefix=2A01:4f8:1:2::/56&dualstack=1&username=router&password=${SECRET}`,
    );
    expect(request.credentials).toEqual({ user: 'router', password: SECRET });
    expect(request.hostnames).toEqual([{ given: 'Home.Example.com.', name: 'home.example.com' }]);
    expect(request.ipv4).toBe('81.0.2.1');
    expect(request.ipv6).toBeUndefined();
    expect(request.lanPrefix).toEqual({ address: '2a01:4f8:1:2::', length: 56 });
  });

  it('takes a placeholder left as written (<ip6addr>, __MYIP__) as no value', () => {
    const fritz = read('hostname=a.example.com&myip=81.0.2.1,<ip6addr>&ip6lanprefix=<ip6lanprefix>');
    expect([fritz.ipv4, fritz.ipv6, fritz.lanPrefix, fritz.lanPrefixProblem]).toEqual([
      '81.0.2.1',
      undefined,
      undefined,
      undefined,
    ]);
    const synology = read('hostname=a.example.com&myip=__MYIP__');
    expect([synology.ipv4, synology.ipv6, synology.addressProblem]).toEqual([undefined, undefined, undefined]);
  });

  it('reads both families from myip and myipv6, and refuses two of one family or a word', () => {
    expect(read('hostname=a.example.com&myip=2A01:4F8::1,81.0.2.1')).toMatchObject({
      ipv4: '81.0.2.1',
      ipv6: '2a01:4f8::1',
    });
    expect(read('hostname=a.example.com&myip=81.0.2.1&myipv6=2a01:4f8::2')).toMatchObject({
      ipv4: '81.0.2.1',
      ipv6: '2a01:4f8::2',
    });
    expect(read('hostname=a.example.com&myip=81.0.2.1,81.0.2.2').addressProblem).toMatch(/two different IPv4/);
    expect(read('hostname=a.example.com&myip=home').addressProblem).toMatch(/not an IPv4 or IPv6 address/);
  });

  it('says which names are not full host names, and counts too many', () => {
    expect(read('hostname=a.example.com,bare,*.example.com,,b%2Eexample.com').hostnames!.map((h) => h.name)).toEqual([
      'a.example.com',
      undefined,
      undefined,
      undefined,
      'b.example.com',
    ]);
    expect(read(`hostname=${Array.from({ length: 21 }, (_, i) => `h${i}.example.com`).join(',')}`).tooMany).toBe(true);
    expect(read('myip=81.0.2.1').hostnames).toBeUndefined();
  });

  it('keeps a % that starts no escape, and bounds the parameters read', () => {
    expect(read('hostname=a.example.com&password=100%25%zz&username=u').credentials).toEqual({
      user: 'u',
      password: '100%%zz',
    });
    expect(readParameters(Array.from({ length: 10_000 }, (_, i) => `p${i}=x`).join('&')).size).toBe(64);
  });

  it('refuses a LAN prefix that is not IPv6 or not /48 to /64', () => {
    expect(read('ip6lanprefix=81.0.2.0/24').lanPrefixProblem).toMatch(/not an IPv6 prefix/);
    expect(read('ip6lanprefix=2a01:4f8::/80').lanPrefixProblem).toMatch(/48 to 64/);
    for (const length of ['0x40', '64/64', '+64', '64.0', ' 64', '', '1e2'])
      expect(read(`ip6lanprefix=2a01:4f8::/${length}`).lanPrefixProblem, length).toMatch(/48 to 64 \(decimal\)/);
  });
});

describe('the key behind the credentials', () => {
  const keys = parseKeysFile(`key "router" { algorithm hmac-sha256; secret "${SECRET}"; };\n`, 'keys');
  it('is the key whose secret, as the file writes it, is the password', () => {
    expect(keyOf(keys, { user: 'router', password: SECRET })).toBe('router');
    expect(keyOf(keys, { user: 'ROUTER.', password: SECRET })).toBe('router');
  });
  it('is none for a wrong password, an unknown user or none at all', () => {
    expect(keyOf(keys, { user: 'router', password: SECRET.slice(0, -1) })).toBeUndefined();
    expect(keyOf(keys, { user: 'router', password: '' })).toBeUndefined();
    expect(keyOf(keys, { user: 'nobody', password: SECRET })).toBeUndefined();
    expect(keyOf(keys, undefined)).toBeUndefined();
  });
});

describe('a user name is read as the keys file reads a key name', () => {
  const keys = parseKeysFile(
    `key "bücher.router" { algorithm hmac-sha256; secret "${SECRET}"; };\nkey "x\\@y" { algorithm hmac-sha256; secret "${SECRET}"; };\n`,
    'keys',
  );
  it('a key name with characters outside letters, digits and "-" is found by the name as written', () => {
    expect(keyOf(keys, { user: 'bücher.router', password: SECRET })).toBe('b\\195\\188cher.router');
    expect(keyOf(keys, { user: 'bücher.router.', password: SECRET })).toBe('b\\195\\188cher.router');
    expect(keyOf(keys, { user: 'x@y', password: SECRET })).toBe('x\\064y');
    expect(isKeyName(keys, 'bücher.router')).toBe(true);
  });
  it('a user name that is no DNS name is no key, and no error', () => {
    expect(keyOf(keys, { user: 'a..b', password: SECRET })).toBeUndefined();
    expect(isKeyName(keys, 'x\\')).toBe(false);
  });
});

describe('slowing wrong passwords', () => {
  it('refuses a source past 5 wrong tries a minute, counting an IPv6 /64 as one source, until the minute has passed', () => {
    let now = 0;
    const limit = new GuessLimit(() => now);
    for (let i = 0; i < 5; i++) {
      expect(limit.refusal('198.51.100.7', 'router')).toBeUndefined();
      limit.failed('198.51.100.7', 'router');
    }
    expect(limit.refusal('198.51.100.7', 'router')).toMatch(/too many wrong passwords from 198\.51\.100\.7/);
    // The IPv4-mapped form is the same source; another address is not.
    expect(limit.refusal('::ffff:198.51.100.7', undefined)).toMatch(/too many/);
    expect(limit.refusal('198.51.100.8', 'router')).toBeUndefined();
    // Every address of one /64 is one source; the next /64 is another.
    for (let i = 1; i <= 5; i++) limit.failed(`2001:db8:1:2::${i}`, undefined);
    expect(limit.refusal('2001:db8:1:2:ffff::9', 'router')).toMatch(/2001:db8:1:2::\/64/);
    expect(limit.refusal('2001:db8:1:3::1', 'router')).toBeUndefined();
    now += 61_000;
    expect(limit.refusal('198.51.100.7', 'router')).toBeUndefined();
  });

  it('clears only the key that answered right; a key guessed from many sources is refused to those that guessed, not to others', () => {
    let now = 0;
    const limit = new GuessLimit(() => now);
    for (let i = 0; i < 4; i++) limit.failed('192.0.2.1', 'router');
    limit.succeeded('192.0.2.1', 'other');
    limit.failed('192.0.2.1', 'router');
    expect(limit.refusal('192.0.2.1', 'other')).toMatch(/too many/);
    limit.succeeded('192.0.2.1', 'router');
    expect(limit.refusal('192.0.2.1', 'router')).toBeUndefined();
    for (let i = 0; i < 20; i++) limit.failed(`203.0.113.${i}`, 'router');
    expect(limit.refusal('203.0.113.3', 'router')).toMatch(/the key router had 20 wrong passwords/);
    expect(limit.refusal('203.0.113.3', 'other')).toBeUndefined();
    expect(limit.refusal('198.51.100.200', 'router')).toBeUndefined();
    now += 61_000;
    expect(limit.refusal('203.0.113.3', 'router')).toBeUndefined();
  });

  it('remembers a bounded number of addresses', () => {
    const limit = new GuessLimit(() => 0);
    for (let i = 0; i < 20_000; i++) limit.failed(`10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, undefined);
    expect(limit.size).toBe(10_000);
  });
});
