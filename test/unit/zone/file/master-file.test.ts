// The master-file reader and writer (RFC 1035 §5) and the JSON form, on their own.
import { describe, expect, it } from 'vitest';
import { readJsonZone } from '../../../../src/zone/file/json-form.js';
import { readMasterFile } from '../../../../src/zone/file/master-reader.js';
import { txtStrings, writeMasterFile } from '../../../../src/zone/file/master-writer.js';

const read = (text: string, zone = 'example.com') => readMasterFile(text, { zone, file: 'z' });
const records = (text: string) => read(text).records.map(({ where: _w, ...r }) => r);

describe('reading a master file', () => {
  it('$ORIGIN, $TTL, @, relative and absolute names, omitted owner, optional TTL and class in either order', () => {
    const text = [
      '$ORIGIN example.com.',
      '$TTL 1h',
      '@ IN A 192.0.2.1',
      '  AAAA 2001:db8::1 ; the previous owner',
      'www 300 IN CNAME @',
      'mail IN 60 A 192.0.2.2',
      'abs.example.com. A 192.0.2.3',
      '$ORIGIN sub.example.com.',
      'deep A 192.0.2.4',
      '$TTL 2d',
      '@ MX 5 mx',
    ].join('\n');
    expect(records(text)).toEqual([
      { name: 'example.com', type: 'A', ttl: 3600, value: '192.0.2.1' },
      { name: 'example.com', type: 'AAAA', ttl: 3600, value: '2001:db8::1' },
      { name: 'www.example.com', type: 'CNAME', ttl: 300, value: 'example.com' },
      { name: 'mail.example.com', type: 'A', ttl: 60, value: '192.0.2.2' },
      { name: 'abs.example.com', type: 'A', ttl: 3600, value: '192.0.2.3' },
      { name: 'deep.sub.example.com', type: 'A', ttl: 3600, value: '192.0.2.4' },
      { name: 'sub.example.com', type: 'MX', ttl: 172800, priority: 5, value: 'mx.sub.example.com' },
    ]);
  });

  it('without $TTL an omitted TTL is the provider default', () => {
    expect(records('www A 192.0.2.1')[0]!.ttl).toBeUndefined();
  });

  it('parentheses over several lines, comments, quoted and multi-string TXT, escapes', () => {
    const text =
      'txt TXT ( "one" ; first\n  "two\\"" two-b\n "\\\\ \\065\\;" )\nsemi TXT "a;b" ; not a comment inside quotes';
    expect(records(text).map((r) => r.value)).toEqual(['onetwo"two-b\\ A;', 'a;b']);
  });

  it('UTF-8 in TXT and \\DDD bytes of a UTF-8 character', () => {
    expect(records('t TXT "caf\\195\\169 ñ"')[0]!.value).toBe('café ñ');
  });

  it('SRV and CAA fields into the provider form', () => {
    expect(
      records(
        '_sip._tcp SRV 10 60 5060 SIP.Example.NET.\n@ CAA 0 ISSUE "ca.example; account=1"\n@ CAA 128 iodef mailto:x@example.com',
      ),
    ).toEqual([
      { name: '_sip._tcp.example.com', type: 'SRV', ttl: undefined, priority: 10, value: '60 5060 sip.example.net' },
      { name: 'example.com', type: 'CAA', ttl: undefined, value: '0 issue "ca.example; account=1"' },
      { name: 'example.com', type: 'CAA', ttl: undefined, value: '128 iodef "mailto:x@example.com"' },
    ]);
  });

  it('an owner written again is read again: quoted after unquoted is still refused', () => {
    expect(() => read('www A 192.0.2.1\n"www" A 192.0.2.2')).toThrow(/^z:2:1: a name cannot be quoted: "www"$/);
  });

  it('the same record twice is one record', () => {
    expect(records('a A 192.0.2.1\na A 192.0.2.1')).toHaveLength(1);
  });

  it.each([
    ['"(" is not closed', 'a TXT ( "x"\n', /^z:1:7: "\(" is not closed/],
    ['a byte over 255', 'a TXT "\\256"', /^z:1:8: "\\256" is not a byte/],
    ['$INCLUDE', '$INCLUDE other.zone', /^z:1:1: \$INCLUDE is not supported/],
    ['class CH', 'a CH TXT "x"', /^z:1:3: class CH is not supported/],
    ['an MX without exchange', 'a MX 10', /^z:1:6: MX needs "preference exchange"/],
    ['an SRV port too big', 'a SRV 1 2 70000 t.', /^z:1:11: SRV port "70000"/],
    ['a bad name', 'a..b A 192.0.2.1', /^z:1:1: "a\.\.b" is not a host name/],
    ['a missing owner first', ' A 192.0.2.1', /^z:1:2: the first record has no owner name/],
    [
      'two CNAMEs',
      'a CNAME b\na CNAME c',
      /^z:2:3: a CNAME cannot share its name with other data: a\.example\.com has two CNAME records/,
    ],
    [
      'the same value with two TTLs',
      'a 1 A 192.0.2.1\na 2 A 192.0.2.1',
      /^z:2:5: a\.example\.com A 192\.0\.2\.1 is already at z:1:5 with another TTL/,
    ],
  ])('refuses %s, naming line and column', (_name, text, message) => {
    expect(() => read(text)).toThrow(message);
  });
});

describe('writing a master file', () => {
  it('TXT over 255 bytes as several strings, split between characters; escapes', () => {
    expect(txtStrings('x'.repeat(510)).map((s) => s.length)).toEqual([255, 255]);
    expect(txtStrings('x'.repeat(254) + 'é')).toEqual(['x'.repeat(254), 'é']);
    const text = writeMasterFile('example.com', [
      { name: 'example.com', type: 'TXT', value: 'say "hi"\\\n' + 'y'.repeat(300) },
    ]);
    expect(text).toContain('"say \\"hi\\"\\\\\\010');
    expect(read(text).records[0]!.value).toBe('say "hi"\\\n' + 'y'.repeat(300));
  });

  it('round-trips every type through the reader', () => {
    const zone = [
      { name: 'example.com', type: 'A' as const, value: '192.0.2.1' },
      { name: 'example.com', type: 'MX' as const, ttl: 60, priority: 5, value: 'mx.example.net' },
      { name: 'v6.example.com', type: 'AAAA' as const, value: '2001:db8::1' },
      { name: 'www.example.com', type: 'CNAME' as const, value: 'example.com' },
      { name: '_s._udp.example.com', type: 'SRV' as const, priority: 1, value: '2 3 .' },
      { name: 'example.com', type: 'CAA' as const, value: '0 issue "a \\"b\\""' },
      { name: 'sub.example.com', type: 'NS' as const, value: 'ns.example.net' },
      { name: '*.example.com', type: 'TXT' as const, value: '' },
    ];
    const back = read(writeMasterFile('example.com', zone)).records.map(({ where: _w, ...r }) => r);
    expect(back).toHaveLength(zone.length);
    for (const r of zone) expect(back).toContainEqual({ ttl: undefined, ...r });
  });
});

describe('the JSON form', () => {
  it('reads full or relative names, null or "-" as the default, errors name the record', () => {
    const zone = readJsonZone(
      JSON.stringify([
        { name: 'www', type: 'a', ttl: '-', value: '192.0.2.1' },
        { name: 'example.com', type: 'MX', ttl: 60, priority: null, value: 'mx.example.net.' },
      ]),
      { zone: 'example.com', file: 'z.json' },
    );
    expect(zone.records.map(({ where: _w, ...r }) => r)).toEqual([
      { name: 'www.example.com', type: 'A', ttl: undefined, priority: undefined, value: '192.0.2.1' },
      { name: 'example.com', type: 'MX', ttl: 60, priority: 10, value: 'mx.example.net' },
    ]);
    expect(() =>
      readJsonZone('[{"name":"a","type":"A","value":"::1"}]', { zone: 'example.com', file: 'z.json' }),
    ).toThrow('z.json:1:2: "::1" is not an IPv4 address');
    expect(() =>
      readJsonZone(
        '[\n  {"name":"a","type":"TXT","value":"x,[{\\\\\\"y"},\n  {"name":"b","type":"TLSA","value":"x"}\n]',
        { zone: 'example.com', file: 'z.json' },
      ),
    ).toThrow('z.json:3:3: unknown or unsupported type "TLSA"');
    expect(() => readJsonZone('[{"name":"a",', { zone: 'example.com', file: 'z.json' })).toThrow(
      /^z\.json:1:\d+: not valid JSON/,
    );
  });
});
