// The edges of reading a dyndns2 request (request.ts): parameter names and empty parts, the
// credentials' forms and which one wins, the bounds of a host name, the addresses repeated or
// left out, and the LAN prefix's length at its limits.
import { describe, expect, it } from 'vitest';
import { readParameters, readRequest } from '../../../../src/gateway/dyndns2/request.js';

const read = (query: string, authorization?: string) => readRequest(readParameters(query), authorization);
const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;

describe('parameters', () => {
  it('reads names in any case, skips empty parts, and takes a bare name as an empty value', () => {
    expect([...readParameters('HostName=a.example.com&&MYIP&myip=81.0.2.1&')]).toEqual([
      ['hostname', ['a.example.com']],
      ['myip', ['', '81.0.2.1']],
    ]);
  });

  it('decodes the escapes that are escapes, and keeps the rest as written', () => {
    expect(readParameters('a=%41%zz%42&b=%ff%41&c=%E2%82%AC&d=a+b').get('a')).toEqual(['A%zzB']);
    expect(readParameters('b=%ff-%41').get('b')).toEqual(['%ff-A']);
    expect(readParameters('c=%E2%82%AC').get('c')).toEqual(['€']);
    expect(readParameters('d=a+b').get('d')).toEqual(['a+b']);
    expect(readParameters('%48ost=x').get('host')).toEqual(['x']);
    // Where a stray % spoils the whole, each run of escapes is decoded as one (a UTF-8 character spans several).
    expect(readParameters('a=%zz%E2%82%AC').get('a')).toEqual(['%zz€']);
    // A part that starts with '=' has an empty name.
    expect(readParameters('=x').get('')).toEqual(['x']);
  });

  it('counts the parts it reads, empty ones aside', () => {
    const parts = Array.from({ length: 64 }, (_, i) => `p${i}=x`);
    expect(readParameters(['', ...parts, 'late=x'].join('&')).has('p63')).toBe(true);
    expect(readParameters(['', ...parts, 'late=x'].join('&')).has('late')).toBe(false);
  });
});

describe('credentials', () => {
  it('reads basic credentials in any case and spacing, a password with colons, a user alone', () => {
    expect(read('', ` bAsIc  ${Buffer.from('router:a:b').toString('base64')} `).credentials).toEqual({
      user: 'router',
      password: 'a:b',
    });
    expect(read('', basic('router')).credentials).toEqual({ user: 'router', password: '' });
    expect(read('', basic(':secret')).credentials).toEqual({ user: '', password: 'secret' });
  });

  it('ignores an Authorization header that is not basic credentials', () => {
    expect(read('', 'Bearer abc').credentials).toBeUndefined();
    expect(read('', 'Basic a b').credentials).toBeUndefined();
    expect(read('', 'Basic ').credentials).toBeUndefined();
    expect(read('', `NotBasic ${Buffer.from('u:p').toString('base64')}`).credentials).toBeUndefined();
    expect(read('username=u&password=p', 'Digest x').credentials).toEqual({ user: 'u', password: 'p' });
  });

  it('prefers basic credentials to the query, and reads user and pass as well as username and password', () => {
    expect(read('username=q&password=qp', basic('h:hp')).credentials).toEqual({ user: 'h', password: 'hp' });
    expect(read('user=u&pass=p').credentials).toEqual({ user: 'u', password: 'p' });
    expect(read('username=first&username=second&user=u&password=p&pass=q').credentials).toEqual({
      user: 'first',
      password: 'p',
    });
    expect(read('password=p').credentials).toEqual({ user: '', password: 'p' });
    expect(read('username=u').credentials).toEqual({ user: 'u', password: '' });
    expect(read('hostname=a.example.com').credentials).toBeUndefined();
  });
});

describe('host names', () => {
  it('trims names, reads several hostname parameters, and bounds a name at 253 characters', () => {
    const long = `${'a'.repeat(61)}.`.repeat(4) + 'example.com';
    expect(long.length).toBeGreaterThan(253);
    const longest = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`;
    expect(longest.length).toBe(253);
    expect(read(`hostname= a.example.com ,b.example.com&hostname=c.example.com`).hostnames).toEqual([
      { given: 'a.example.com', name: 'a.example.com' },
      { given: 'b.example.com', name: 'b.example.com' },
      { given: 'c.example.com', name: 'c.example.com' },
    ]);
    expect(read(`hostname=${longest}`).hostnames![0]!.name).toBe(longest);
    expect(read(`hostname=${longest}x`).hostnames![0]!.name).toBeUndefined();
    expect(read('hostname=*.example.com').hostnames![0]!.name).toBeUndefined();
    expect(read('hostname=example').hostnames![0]!.name).toBeUndefined();
    expect(read('hostname=a..b.example.com').hostnames![0]!.name).toBeUndefined();
    expect(read('myip=81.0.2.1').tooMany).toBe(false);
  });

  it('answers twenty names, and none of twenty-one', () => {
    const names = (n: number) => Array.from({ length: n }, (_, i) => `h${i}.example.com`).join(',');
    const twenty = read(`hostname=${names(20)}`);
    expect([twenty.tooMany, twenty.hostnames!.length]).toEqual([false, 20]);
    const more = read(`hostname=${names(21)}`);
    expect([more.tooMany, more.hostnames]).toEqual([true, []]);
  });
});

describe('addresses', () => {
  it('takes the same address given twice, trimmed, and stops at the first problem', () => {
    const twice = read('myip= 81.0.2.1 ,81.0.2.1&myipv6=2a01:4f8::1');
    expect([twice.ipv4, twice.ipv6, twice.addressProblem]).toEqual(['81.0.2.1', '2a01:4f8::1', undefined]);
    const problem = read('myip=home,81.0.2.1,nas');
    expect(problem.addressProblem).toBe('myip "home" is not an IPv4 or IPv6 address');
    expect(problem.ipv4).toBeUndefined();
    // Only a whole value is a placeholder.
    for (const text of ['x<ip6addr>', '<ip6addr>x', 'x__MYIP__', '__MYIP__x'])
      expect(read(`myip=${text}`).addressProblem, text).toBe(`myip "${text}" is not an IPv4 or IPv6 address`);
    expect(read('myip=2a01:4f8::1,2a01:4f8::2').addressProblem).toBe(
      'two different IPv6 addresses given (2a01:4f8::1 and 2a01:4f8::2)',
    );
  });
});

describe('the LAN prefix', () => {
  it('is /64 when no length is given, and any whole length from 48 to 64', () => {
    expect(read('ip6lanprefix=2a01:4f8:1:2::').lanPrefix).toEqual({ address: '2a01:4f8:1:2::', length: 64 });
    expect(read('ip6lanprefix=2a01:4f8:1::/48').lanPrefix).toEqual({ address: '2a01:4f8:1::', length: 48 });
    expect(read('ip6lanprefix=2a01:4f8:1:2::/64').lanPrefix).toEqual({ address: '2a01:4f8:1:2::', length: 64 });
    for (const length of ['47', '65', '0', '999'])
      expect(read(`ip6lanprefix=2a01:4f8::/${length}`).lanPrefixProblem, length).toBe(
        `ip6lanprefix "2a01:4f8::/${length}": the prefix length must be a whole number from 48 to 64 (decimal)`,
      );
  });

  it('takes the first value that is not empty or a placeholder, trimmed', () => {
    expect(read('ip6lanprefix=&ip6lanprefix=<ip6lanprefix>&ip6lanprefix= 2a01:4f8:1:2::/56 ').lanPrefix).toEqual({
      address: '2a01:4f8:1:2::',
      length: 56,
    });
    expect(read('ip6lanprefix=__PREFIX__').lanPrefixProblem).toBeUndefined();
    expect(read('ip6lanprefix=81.0.2.1').lanPrefixProblem).toBe('ip6lanprefix "81.0.2.1" is not an IPv6 prefix');
  });
});
