// The zone-file reader means what BIND means (the files users bring were written for BIND).
// Where BIND is installed, its named-checkzone reads the same text and is the referee: the name
// it loads, the bytes of the TXT data it loads, the lines it sees.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { readJsonZone } from '../../../../src/zone/file/json-form.js';
import { masterFileOrigin, readMasterFile } from '../../../../src/zone/file/master-reader.js';
import { writeMasterFile } from '../../../../src/zone/file/master-writer.js';
import { originOf } from '../../../../src/zone/apply/zone-files.js';
import { soaAndNs, writeZone } from '../../../helpers/zone.js';
import { requireTool } from '../../../helpers/programs.js';

const ZONE = 'example.com';
const checkzone = requireTool('named-checkzone', 'bind9-utils');
const read = (text: string) => readMasterFile(text, { zone: ZONE, file: 'z' });
const records = (text: string) => read(text).records.map(({ where: _w, ...r }) => r);
const problem = (text: string): string => {
  try {
    read(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the file was read without an error');
};

/** The records BIND loads from `body` (after an SOA and NS), as `name type rdata` lines. */
function bindRecords(body: string): string[] {
  const file = writeZone(soaAndNs(ZONE) + body);
  const out = execFileSync(checkzone!, ['-q', '-D', '-o', '-', ZONE, file], { encoding: 'latin1' });
  return out
    .split('\n')
    .map((line) => line.split(/\s+/))
    .filter((f) => f.length > 4 && f[3] !== 'SOA' && f[3] !== 'NS')
    .map((f) => `${f[0]} ${f[3]} ${f.slice(4).join(' ')}`);
}

describe('escaped names', () => {
  it('"\\@" is a label "@", not the origin: BIND loads another name, ddedge refuses it with its position', () => {
    if (checkzone) expect(bindRecords('\\@ A 192.0.2.1\n')).toEqual(['\\@.example.com. A 192.0.2.1']);
    expect(problem('www A 192.0.2.2\n\\@ A 192.0.2.1\n')).toMatch(
      /^z:2:1: "\\@" has a label holding "@" \(an escaped or embedded @ is a character, not the origin\)/,
    );
  });

  it('"www\\.dot" is one label: BIND loads it as one, ddedge refuses it (the provider cannot hold a dot in a label)', () => {
    if (checkzone) expect(bindRecords('www\\.dot A 192.0.2.1\n')).toEqual(['www\\.dot.example.com. A 192.0.2.1']);
    expect(problem('www\\.dot A 192.0.2.1\n')).toMatch(
      /^z:1:1: "www\\\.dot" has a label holding a dot \("www\.dot" is one label/,
    );
    expect(problem('a CNAME www\\.dot.example.net.\n')).toMatch(/^z:1:9: .*has a label holding a dot/);
  });

  it('escapes that spell host-name characters name that host; the unescaped "@" alone is still the origin', () => {
    expect(records('\\065b\\c A 192.0.2.1\n@ A 192.0.2.2\n').map((r) => r.name)).toEqual([
      'abc.example.com',
      'example.com',
    ]);
  });
});

describe('TXT bytes of 128 and more', () => {
  const body = 't TXT "\\200\\255abc\\"\\\\ end"\n';

  it('survive read, provider value and write back exactly, no U+FFFD', () => {
    const [record] = records(body);
    expect(record!.value).not.toContain('\uFFFD');
    const written = writeMasterFile(ZONE, [record!]);
    expect(written).toContain('"\\200\\255abc\\"\\\\ end"');
    expect(records(written)).toEqual([record]);
    if (checkzone) expect(bindRecords(written)).toEqual(bindRecords(body));
  });

  it('the provider value is the data as one quoted \\DDD string; UTF-8 stays text', () => {
    expect(records(body)[0]!.value).toBe('"\\200\\255abc\\"\\\\ end"');
    // Several strings are joined, as for text; a \DDD below 128 is the character.
    expect(records('t TXT "\\200" "\\065bc"\n')[0]!.value).toBe('"\\200Abc"');
    expect(records('t TXT "caf\\195\\169" "\\"x\\""\n')[0]!.value).toBe('café"x"');
    // Quoted text that only looks like that form stays text (it holds no byte that is not UTF-8).
    expect(records('t TXT "\\"\\\\065\\""\n')[0]!.value).toBe('"\\065"');
  });

  it('a text that is exactly that form is refused rather than read back as bytes', () => {
    expect(problem('t TXT "\\"\\\\200\\""\n')).toMatch(
      /^z:1:7: the text .* is how ddedge gives the provider TXT bytes that are not UTF-8/,
    );
  });

  it('bytes that are not UTF-8 anywhere else are an error, not U+FFFD', () => {
    expect(problem('@ CAA 0 issue "ca\\200.example"\n')).toMatch(
      /^z:1:15: "ca\\200\.example" holds bytes that are not UTF-8/,
    );
    expect(problem('caf\\233 A 192.0.2.1\n')).toMatch(/^z:1:1: .*a label of bytes that are not UTF-8/);
  });
});

describe('a carriage return', () => {
  it('inside a comment starts nothing: no $ORIGIN for the reader, for BIND, or for choosing the zone', () => {
    const text = '; text\r$ORIGIN other.example.\nx A 192.0.2.1\n';
    expect(records(text).map((r) => r.name)).toEqual(['x.example.com']);
    if (checkzone) expect(bindRecords(text)).toEqual(['x.example.com. A 192.0.2.1']);
    expect(originOf('; text\r$ORIGIN ../../x\nwww A 192.0.2.1\n')).toBeUndefined();
  });

  it('elsewhere ends the line, as in BIND; CRLF is one line end', () => {
    const text = 'a A 192.0.2.1\rb A 192.0.2.2\r\nc A 192.0.2.3\r\n';
    expect(records(text).map((r) => r.name)).toEqual(['a.example.com', 'b.example.com', 'c.example.com']);
    if (checkzone)
      expect(bindRecords(text)).toEqual([
        'a.example.com. A 192.0.2.1',
        'b.example.com. A 192.0.2.2',
        'c.example.com. A 192.0.2.3',
      ]);
    // Lines are counted as editors and BIND count them: at LF.
    expect(problem('a A 192.0.2.1\rb A x\n')).toMatch(/^z:1:19: "x" is not an IPv4 address/);
  });

  it('a $ORIGIN that cannot name a zone is a file error, not a path', () => {
    expect(() => masterFileOrigin('$ORIGIN ../../x\n', 'z')).toThrow(
      /^z:1:9: \$ORIGIN "\.\.\/\.\.\/x" cannot name the zone/,
    );
    expect(masterFileOrigin('; zone\n$ORIGIN Example.COM.\n', 'z')).toBe('example.com');
    expect(masterFileOrigin('$origin example.com\n', 'z')).toBe('example.com');
  });
});

describe('JSON-form names', () => {
  const json = (items: object[]) =>
    readJsonZone(`[\n${items.map((i) => JSON.stringify(i)).join(',\n')}\n]`, { zone: ZONE, file: 'z.json' });
  const names = (items: object[]) => json(items).records.map((r) => r.name);
  let address = 0;
  const a = (name: string) => ({ name, type: 'A', ttl: null, priority: null, value: `192.0.2.${++address}` });

  it('absolute with a final dot, relative otherwise; a name that ends with the zone is that full name, in any case', () => {
    expect(
      names([
        a('www'),
        a('@'),
        a(''),
        a('mail.example.com.'),
        a('WWW.Example.COM'),
        a('Example.COM'),
        a('deep.other.org'),
      ]),
    ).toEqual([
      'www.example.com',
      'example.com',
      'example.com',
      'mail.example.com',
      'www.example.com',
      'example.com',
      'deep.other.org.example.com',
    ]);
  });

  it('a name outside the zone is an error naming it, with every other one', () => {
    expect(() => json([a('other.org.'), a('ok'), a('sub.other.org.'), a('a..b')])).toThrow(
      'z.json:2:1: other.org is outside the zone example.com\nz.json:4:1: sub.other.org is outside the zone example.com\nz.json:5:1: "a..b" is not a host name',
    );
  });
});

describe('every file error at once', () => {
  it('each with file:line:col, in the order of the file', () => {
    const text = [
      'a A 192.0.2.1',
      'b A 300.1.1.1',
      'c MX x mail',
      'd TXT "open',
      'e PTR x.',
      'f A 192.0.2.6',
      'a CNAME b',
    ].join('\n');
    expect(problem(text)).toBe(
      [
        'z:2:5: "300.1.1.1" is not an IPv4 address (an A record holds one)',
        'z:3:6: MX preference "x" is not a number from 0 to 65535',
        'z:4:7: a quoted string is not closed before the end of the line',
        'z:5:3: unknown or unsupported type "PTR" (ddedge manages A, AAAA, CNAME, MX, SRV, TXT, NS, CAA; --skip-unsupported leaves others out)',
        'z:7:3: a CNAME cannot share its name with other data: a.example.com has a CNAME and A data (RFC 1034 §3.6.2)',
      ].join('\n'),
    );
  });

  it('at most 20 listed, then how many more', () => {
    const text = Array.from({ length: 25 }, (_, i) => `h${i} A 10.0.0.${256 + i}`).join('\n');
    const lines = problem(text).split('\n');
    expect(lines).toHaveLength(21);
    expect(lines[19]).toMatch(/^z:20:7: "10\.0\.0\.275" is not an IPv4 address/);
    expect(lines[20]).toBe('… and 5 more errors in z');
  });

  it('records under an owner that could not be read are not reported again', () => {
    expect(problem('a..b A 192.0.2.1\n  AAAA 2001:db8::1\n  TXT "x"\nok A 192.0.2.9\n')).toBe(
      'z:1:1: "a..b" is not a host name',
    );
  });
});

describe('a file about another zone than the one given', () => {
  const other = (records: number, extra: string[] = []) =>
    [
      '$TTL 300',
      '$ORIGIN other.example.',
      ...Array.from({ length: records }, (_, i) => `h${i} A 192.0.2.${i}`),
      ...extra,
    ]
      .join('\n')
      .concat('\n');

  it('says first that its $ORIGIN is outside the zone, then the names, within the 20 listed', () => {
    const lines = problem(other(30)).split('\n');
    expect(lines[0]).toBe(
      'z:2:9: $ORIGIN other.example. is outside the zone example.com, and so are the names made from it: is the ' +
        'zone (--service, DDEDGE_SERVICE) right? For the zone of this file give --service other.example',
    );
    expect(lines[1]).toBe('z:3:4: h0.other.example is outside the zone example.com');
    expect(lines).toHaveLength(21);
    expect(lines[20]).toBe('… and 11 more errors in z');
  });

  it('says nothing of an $ORIGIN outside the zone when every name is written whole inside it', () => {
    const text = ['$TTL 300', '$ORIGIN other.example.', 'www.example.com. A 192.0.2.1', ''].join('\n');
    expect(read(text).records.map((r) => r.name)).toEqual(['www.example.com']);
    expect(problem(`${text}bad.example.com. A 999.1.1.1\n`)).not.toMatch(/\$ORIGIN/);
  });
});
