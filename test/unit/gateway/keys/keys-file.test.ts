// The gateway's keys file: tsig-keygen's output as it is, update-policy grants, transfer, and
// errors that name the file and line without ever quoting a secret.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { requireTool } from '../../../helpers/programs.js';
import { grantsFor } from '../../../../src/gateway/keys/grants.js';
import { keygenText } from '../../../../src/gateway/keys/keygen.js';
import { parseKeysFile } from '../../../../src/gateway/keys/keys-file.js';

const SECRET = 'c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LTEyMzQ=';
const TSIG_KEYGEN = requireTool('tsig-keygen', 'bind9');

const parse = (text: string) => parseKeysFile(text, 'keys.conf');
const errorOf = (text: string): string => {
  try {
    parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('no error');
};

describe('the keys file', () => {
  it('reads a grant written in Unicode as the punycode name the zone holds (it could never match)', () => {
    const keys = parse(
      `key "k" { algorithm hmac-sha256; secret "${SECRET}"; };\ngrant "k" name Bücher.Example.com A;\ngrant "k" subdomain ÉTÉ.example.com TXT;`,
    );
    expect(keys.grants.map((g) => g.name)).toEqual(['xn--bcher-kva.example.com', 'xn--t-9fab.example.com']);
    expect(grantsFor(keys, 'k', 'example.com', 'xn--bcher-kva.example.com', 'A')).toHaveLength(1);
  });

  it.skipIf(!TSIG_KEYGEN)('reads what tsig-keygen prints, for every algorithm', () => {
    for (const algorithm of ['hmac-sha256', 'hmac-sha384', 'hmac-sha512', 'hmac-sha224', 'hmac-sha1', 'hmac-md5']) {
      const text = execFileSync('tsig-keygen', ['-a', algorithm, `k-${algorithm}.example`], { encoding: 'utf8' });
      const keys = parse(text);
      const key = keys.keys.get(`k-${algorithm}.example`)!;
      expect(key.algorithm).toBe(algorithm);
      expect(key.secret.toString('base64')).toBe(/secret "([^"]+)"/.exec(text)![1]);
      expect(keys.warnings.length).toBe(algorithm === 'hmac-md5' || algorithm === 'hmac-sha1' ? 1 : 0);
    }
  });

  it('reads what keygen prints, and grants, transfer and comments as named.conf has them', () => {
    const text = `${keygenText('acme.example.com')}
# the ACME client: its challenges only
grant "acme.example.com" wildcard *.example.com TXT; // below the apex
grant acme.example.com. name _acme-challenge.example.com TXT;
/* the secondary
   takes whole zones */
key "xfr" { algorithm hmac-sha512; secret "${SECRET}"; };
transfer "xfr";
grant "xfr" zonesub ANY;
grant "xfr" subdomain lab.example.com A AAAA;
`;
    const keys = parse(text);
    expect([...keys.keys.keys()]).toEqual(['acme.example.com', 'xfr']);
    expect(keys.keys.get('acme.example.com')!.secret.length).toBe(32);
    expect([...keys.transfer]).toEqual(['xfr']);
    expect(keys.grants.map((g) => [g.key, g.rule, g.name, g.types, g.line])).toEqual([
      ['acme.example.com', 'wildcard', 'example.com', ['TXT'], 7],
      ['acme.example.com', 'name', '_acme-challenge.example.com', ['TXT'], 8],
      ['xfr', 'zonesub', undefined, [], 13],
      ['xfr', 'subdomain', 'lab.example.com', ['A', 'AAAA'], 14],
    ]);
    const may = (key: string, owner: string, type: string) =>
      grantsFor(keys, key, 'example.com', owner, type).length > 0;
    expect(may('acme.example.com', '_acme-challenge.www.example.com', 'TXT')).toBe(true);
    expect(may('acme.example.com', '_acme-challenge.example.com', 'TXT')).toBe(true);
    expect(may('acme.example.com', 'example.com', 'TXT')).toBe(false);
    expect(may('acme.example.com', 'www.example.com', 'A')).toBe(false);
    expect(may('xfr', 'example.com', 'MX')).toBe(true);
    expect(may('xfr', 'other.net', 'A')).toBe(false);
    expect(may('nobody', 'example.com', 'A')).toBe(false);
  });

  it('names the file, line and column of each mistake, and never quotes a secret', () => {
    const key = (body: string) => `\n\nkey "k" {\n  ${body}\n};\n`;
    const cases: [string, RegExp][] = [
      [
        key(`algorithm hmac-sha999; secret "${SECRET}";`),
        /^keys\.conf:4:13: key "k": expected an algorithm \(hmac-md5, .*\), found "hmac-sha999"/,
      ],
      [
        key(`algorithm hmac-sha256; secret "not base64!${SECRET}";`),
        /^keys\.conf:4:\d+: key "k": the secret is not base64$/,
      ],
      [key('algorithm hmac-sha256; secret "c2hvcnQ=";'), /^keys\.conf:4:\d+: key "k": the secret is 5 bytes/],
      [key('algorithm hmac-sha256;'), /^keys\.conf:3:5: key "k" has no secret/],
      // BIND refuses a second secret or algorithm in one key; which one a client has would be a guess.
      [
        key(`algorithm hmac-sha256; secret "${SECRET}"; secret "${SECRET}";`),
        /^keys\.conf:4:\d+: key "k": a second secret \(one key has one\)$/,
      ],
      [
        key(`algorithm hmac-sha256; algorithm hmac-sha512; secret "${SECRET}";`),
        /^keys\.conf:4:26: key "k": a second algorithm \(one key has one\)$/,
      ],
      [key(`algorithm hmac-sha256; secret "${SECRET}"`), /^keys\.conf:5:1: expected ";" after the secret of key "k"/],
      [
        key(`algorithm hmac-sha256; secret "${SECRET}" "${SECRET}";`),
        /^keys\.conf:4:\d+: expected ";" after the secret of key "k", found a quoted string \(not shown: it may be a secret\)$/,
      ],
      [`"${SECRET}";`, /^keys\.conf:1:1: expected key, grant, transfer or quota, found a quoted string$/],
      [
        `${key(`algorithm hmac-sha256; secret "${SECRET}";`)}grant "k" everywhere;`,
        /^keys\.conf:6:11: grant "k": expected zonesub/,
      ],
      [
        `${key(`algorithm hmac-sha256; secret "${SECRET}";`)}grant "k" zonesub PTR;`,
        /^keys\.conf:6:19: grant "k": expected a type the provider holds .*, found "PTR"/,
      ],
      [
        `${key(`algorithm hmac-sha256; secret "${SECRET}";`)}grant "k" wildcard example.com;`,
        /^keys\.conf:6:\d+: grant "k": a wildcard rule names \*\.NAME/,
      ],
      ['grant "ghost" zonesub;', /^keys\.conf:1:7: no key "ghost" is defined/],
      [
        `${key(`algorithm hmac-sha256; secret "${SECRET}";`)}${key(`algorithm hmac-sha256; secret "${SECRET}";`)}`,
        /^keys\.conf:8:5: key "k" is defined twice \(first at line 3\): remove one, or give one another name$/,
      ],
      ['transfer "k"', /^keys\.conf:1:\d+: the file ends/],
      ['/* open', /^keys\.conf:1:1: a \/\* comment is never closed/],
    ];
    for (const [text, pattern] of cases) {
      const message = errorOf(text);
      expect(message, text).toMatch(pattern);
      // One mistake, one line: reading on after it finds no other.
      expect(message.split('\n'), text).toHaveLength(1);
      expect(message).not.toContain(SECRET.slice(0, 12));
    }
  });
});

describe('a keys file with several mistakes', () => {
  const good = (name: string) => `key "${name}" { algorithm hmac-sha256; secret "${SECRET}"; };`;

  it('names every one, each with its line, in one message; a later statement is read after each', () => {
    const text = [
      good('a'),
      'key "b" { algorithm hmac-sha999; secret "' + SECRET + '"; };',
      'grant "a" everywhere;',
      `key "c" { algorithm hmac-sha256; secret "c2hvcnQ="; };`,
      'grant "a" zonesub PTR;',
      'transfer "ghost";',
      // A key whose definition is wrong is still defined: its grants are not errors too.
      'grant "b" zonesub A;',
      good('d'),
      'quota "d";',
    ].join('\n');
    expect(errorOf(text).split('\n')).toEqual([
      expect.stringMatching(/^keys\.conf:2:21: key "b": expected an algorithm/),
      'keys.conf:3:11: grant "a": expected zonesub, subdomain NAME, name NAME or wildcard *.NAME, found "everywhere"',
      expect.stringMatching(/^keys\.conf:4:\d+: key "c": the secret is 5 bytes/),
      expect.stringMatching(/^keys\.conf:5:19: grant "a": expected a type the provider holds .*, found "PTR"$/),
      'keys.conf:6:10: no key "ghost" is defined in this file',
      'keys.conf:9:1: quota "d": name dhcid N, records N, calls N or several',
    ]);
    expect(errorOf(text)).not.toContain(SECRET.slice(0, 12));
  });

  it('a statement cut short (its ";" or "}" missing) is one mistake: the next line\'s statement is read as such', () => {
    const text = [
      'grant "a" zonesub A',
      `key "a" { algorithm hmac-sha256; secret "${SECRET}";`,
      'grant "a" name www.example.com TXT;',
      'grant "a" bogus;',
      `key "b" { algorithm hmac-sha256; secret "${SECRET};`,
      '};',
      'grant "a" nope;',
    ].join('\n');
    expect(errorOf(text).split('\n')).toEqual([
      'keys.conf:2:1: grant "a": expected a type the provider holds (A, AAAA, CNAME, MX, SRV, TXT, NS, CAA, DHCID) or ";", found "key"',
      'keys.conf:3:1: key "a": expected algorithm, secret or "}", found "grant"',
      expect.stringMatching(/^keys\.conf:4:11: grant "a": expected zonesub/),
      'keys.conf:5:41: a quoted string is not closed on its line',
      expect.stringMatching(/^keys\.conf:7:11: grant "a": expected zonesub/),
    ]);
  });

  it('lists the first 20, then says how many more; nothing is loaded', () => {
    const text = [good('a'), ...Array.from({ length: 25 }, (_, i) => `grant "a" zonesub T${i};`)].join('\n');
    const lines = errorOf(text).split('\n');
    expect(lines).toHaveLength(21);
    expect(lines[0]).toMatch(/^keys\.conf:2:19: .*found "T0"$/);
    expect(lines[19]).toMatch(/^keys\.conf:21:19: .*found "T19"$/);
    expect(lines[20]).toBe('… and 5 more errors in keys.conf');
  });
});

describe('quota statements', () => {
  const key = `key "kea" { algorithm hmac-sha256; secret "${SECRET}"; };\n`;
  it('sets what a key may hold; the rest stay at their defaults (quotaOf)', () => {
    const keys = parse(`${key}quota "kea" dhcid 20000;\nquota "kea" records 5;\n`);
    expect(keys.quotas.get('kea')).toEqual({ dhcid: 20000, records: 5 });
    expect(parse(`${key}quota "kea" records 0;\n`).quotas.get('kea')).toEqual({ records: 0 });
  });

  it('names the line and what was wrong', () => {
    expect(errorOf(`${key}quota "kea";\n`)).toBe(
      'keys.conf:2:1: quota "kea": name dhcid N, records N, calls N or several',
    );
    expect(errorOf(`${key}quota "kea" leases 5;\n`)).toBe(
      'keys.conf:2:13: quota "kea": expected dhcid N, records N, calls N or ";", found "leases"',
    );
    expect(errorOf(`${key}quota "kea" dhcid -1;\n`)).toBe(
      'keys.conf:2:19: quota "kea": dhcid takes a whole number of records (0 to 9999999), found "-1"',
    );
    expect(errorOf(`${key}quota "kea" calls 1.5;\n`)).toBe(
      'keys.conf:2:19: quota "kea": calls takes a whole number of provider calls an hour (0 to 9999999), found "1.5"',
    );
    expect(errorOf(`${key}quota "other" dhcid 1;\n`)).toBe('keys.conf:2:7: no key "other" is defined in this file');
  });
});
