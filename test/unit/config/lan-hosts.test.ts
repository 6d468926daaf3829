// The settings of hosts behind the router: the hosts (NAME=<identifier>), --ip6-prefix-length,
// --no-ipv4-for and --listen, each refused with exit 2 and a message naming it when wrong.
import { describe, expect, it } from 'vitest';
import { loadConfig, type FlagValues } from '../../../src/config/load.js';
import { ConfigError } from '../../../src/lib/errors.js';
import { identifierProblem, joinIdentifier, prefixOf } from '../../../src/lib/interface-id.js';
import { plannedRecords } from '../../../src/lan/planned-records.js';

const CREDS = {
  DDEDGE_DYNDNS_USER: 'u',
  DDEDGE_DYNDNS_KEY: 'dyndns-key-1',
  DDEDGE_API_USER: 'a',
  DDEDGE_API_PASSWORD: 'p-123456',
  DDEDGE_IPV6: 'yes',
};
const load = (flags: FlagValues, env: Record<string, string> = {}) =>
  loadConfig({ flags, env: { ...CREDS, ...env }, purpose: 'cycle', isRoot: false });
const problem = (flags: FlagValues, env: Record<string, string> = {}): string => {
  try {
    load(flags, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).exitCode).toBe(2);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
};

describe('hosts behind the router', () => {
  it('NAME=<identifier> in --host and in DDEDGE_HOSTS keeps the identifier in canonical form', () => {
    const c = load(
      { host: ['home.example.com', 'NAS.example.com=::01E2:03FF:FE4A:5B6C'] },
      { DDEDGE_HOSTS: 'x.example.com' },
    );
    expect(c.hosts).toEqual(['home.example.com', 'nas.example.com']);
    expect(c.lan).toEqual({
      identifiers: { 'nas.example.com': '::1e2:3ff:fe4a:5b6c' },
      prefixLength: 64,
      noIpv4For: [],
    });
    const fromEnv = load(
      {},
      { DDEDGE_HOSTS: 'home.example.com, tv.example.com=::5 ,nas.example.com=::1e2:3ff:fe4a:5b6c' },
    );
    expect(fromEnv.lan.identifiers).toEqual({ 'tv.example.com': '::5', 'nas.example.com': '::1e2:3ff:fe4a:5b6c' });
  });

  it('plans an A for every host but --no-ipv4-for, and an AAAA for every host', () => {
    const c = load({
      host: ['home.example.com', 'nas.example.com=::1', 'tv.example.com=::2'],
      'no-ipv4-for': ['TV.example.com'],
    });
    expect(plannedRecords(c).map((r) => `${r.host} ${r.type}`)).toEqual([
      'home.example.com A',
      'nas.example.com A',
      'home.example.com AAAA',
      'nas.example.com AAAA',
      'tv.example.com AAAA',
    ]);
    expect(load({ host: ['a.example.com'] }, { DDEDGE_NO_IPV4_FOR: 'a.example.com' }).lan.noIpv4For).toEqual([
      'a.example.com',
    ]);
  });

  it.each<[FlagValues, Record<string, string>, RegExp]>([
    [{ host: ['nas.example.com=zz'] }, {}, /--host: nas\.example\.com: "zz" is not an IPv6 interface identifier/],
    [{ host: ['nas.example.com=10.0.0.5'] }, {}, /"10\.0\.0\.5" is not an IPv6 interface identifier/],
    [{ host: ['nas.example.com=::'] }, {}, /all-zero identifier/],
    [
      { host: ['nas.example.com=2a00::1e2:3ff:fe4a:5b6c'] },
      {},
      /"2a00::1e2:3ff:fe4a:5b6c" overlaps the \/64 prefix: an identifier may use only the last 64 bits \(e\.g\. ::1e2:3ff:fe4a:5b6c\)/,
    ],
    [{ host: ['nas.example.com=::1:0:0:0:5'], 'ip6-prefix-length': '64' }, {}, /overlaps the \/64 prefix/],
    [{ host: ['nas.example.com=::1'], 'ip6-prefix-length': '128' }, {}, /128 leaves no host part/],
    [{ host: ['nas.example.com=fe80::1%eth0'] }, {}, /is not an IPv6 interface identifier/],
    [
      { host: ['a.example.com'], 'ip6-prefix-length': '47' },
      {},
      /--ip6-prefix-length: "47" is not an allowed prefix length: a whole number from 48 to 64, or 128/,
    ],
    [{ host: ['a.example.com'], 'ip6-prefix-length': '65' }, {}, /"65" is not an allowed prefix length/],
    [{ host: ['a.example.com'], 'ip6-prefix-length': '100' }, {}, /"100" is not an allowed prefix length/],
    [{ host: ['a.example.com'], 'ip6-prefix-length': '64.5' }, {}, /"64\.5" is not an allowed prefix length/],
    [
      { host: ['a.example.com'] },
      { DDEDGE_IP6_PREFIX_LENGTH: 'wide' },
      /DDEDGE_IP6_PREFIX_LENGTH: "wide" is not an allowed prefix length/,
    ],
    [
      { host: ['nas.example.com=::1', 'nas.example.com=::2'] },
      {},
      /"nas\.example\.com" is given twice, with two interface identifiers; one name, one host/,
    ],
    [
      { host: ['nas.example.com', 'NAS.example.com.=::2'] },
      {},
      /"nas\.example\.com" is given twice, with and without an interface identifier/,
    ],
    [
      { host: ['nas.example.com=::2'] },
      { DDEDGE_IPV6: 'no' },
      /nas\.example\.com: an interface identifier gives a host its AAAA record, which needs --ipv6/,
    ],
    [
      { host: ['a.example.com'], 'no-ipv4-for': ['b.example.com'] },
      {},
      /--no-ipv4-for: "b\.example\.com" is not one of the hosts/,
    ],
    [
      { host: ['a.example.com'], 'no-ipv4-for': ['a.example.com'] },
      { DDEDGE_IPV6: 'no' },
      /without --ipv6 these hosts would have no record/,
    ],
  ])('refuses %j %j', (flags, env, pattern) => {
    expect(problem(flags, env)).toMatch(pattern);
  });

  it('accepts the same host repeated with the same identifier, and every allowed prefix length', () => {
    expect(load({ host: ['nas.example.com=::1:2', 'nas.example.com=0::1:2'] }).hosts).toEqual(['nas.example.com']);
    for (const length of ['48', '56', '60', '64', '/56', '128'])
      expect(load({ host: ['a.example.com'], 'ip6-prefix-length': length }).lan.prefixLength).toBe(
        Number(length.replace('/', '')),
      );
    expect(
      load({ host: ['nas.example.com=::ab:1e2:3ff:fe4a:5b6c'], 'ip6-prefix-length': '56' }).lan.identifiers[
        'nas.example.com'
      ],
    ).toBe('::ab:1e2:3ff:fe4a:5b6c');
  });
});

describe('joining a prefix and an identifier', () => {
  it('keeps the prefix bits of the detected address and the identifier bits of the host', () => {
    expect(joinIdentifier('2a00:1450:4003:12:aaaa:bbbb:cccc:dddd', 64, '::1e2:3ff:fe4a:5b6c')).toEqual({
      address: '2a00:1450:4003:12:1e2:3ff:fe4a:5b6c',
      prefix: '2a00:1450:4003:12::/64',
    });
    expect(joinIdentifier('2a00:1450:4003:1299::1', 56, '::5:0:0:0:7')).toEqual({
      address: '2a00:1450:4003:1205::7',
      prefix: '2a00:1450:4003:1200::/56',
    });
    expect(prefixOf('2a00:1450:4003:12::1', 48)).toBe('2a00:1450:4003::/48');
    expect(identifierProblem('::ffff:ffff:ffff:ffff', 64)).toBeUndefined();
    expect(identifierProblem('::1:ffff:ffff:ffff:ffff', 64)).toMatch(/overlaps/);
  });
});

describe('--listen', () => {
  it.each([
    ['127.0.0.1:9464', { host: '127.0.0.1', port: 9464, loopback: true }],
    ['localhost:0', { host: '127.0.0.1', port: 0, loopback: true }],
    ['[::1]:9464', { host: '::1', port: 9464, loopback: true }],
    ['0.0.0.0:9464', { host: '0.0.0.0', port: 9464, loopback: false }],
    ['[::]:9464', { host: '::', port: 9464, loopback: false }],
  ])('%s', (text, expected) => {
    expect(load({ host: ['a.example.com'], listen: text }).listen).toEqual(expected);
  });
  it('is off by default', () => {
    expect(load({ host: ['a.example.com'] }).listen).toBeUndefined();
  });
  it.each([
    ['9464', /--listen: "9464" is not ADDR:PORT; give ADDR:PORT, e\.g\. 127\.0\.0\.1:9464/],
    [':9464', /--listen: ":9464" names no address/],
    ['::1:9464', /is not ADDR:PORT/],
    ['example.com:9464', /"example\.com" is not an IP address/],
    ['127.0.0.1:70000', /port 70000 is outside 0\.\.65535/],
    ['[10.0.0.1]:80', /is not an IP address/],
  ])('refuses %s', (text, pattern) => {
    expect(problem({ host: ['a.example.com'], listen: text })).toMatch(pattern);
  });
});
