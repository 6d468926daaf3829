// The rules of unwritable.ts one at a time, on small listings: which entries a master file
// cannot hold, the reason each gets, which entry of a duplicate stays, and the CAA guess.
import { describe, expect, it } from 'vitest';
import { agentHostName } from '../../../../src/zone/plan/agent-records.js';
import { keepingUnwritable, readingIsAGuess, unwritableRecords } from '../../../../src/zone/plan/unwritable.js';
import type { LiveRecord } from '../../../../src/zone/record.js';

const Z = 'example.com';
const rec = (
  entityID: string,
  name: string,
  type: string,
  value: string,
  extra: Partial<LiveRecord> = {},
): LiveRecord => ({ entityID, name, type, value, ...extra });
const reasons = (live: LiveRecord[]) => [...unwritableRecords(Z, live)].map(([r, u]) => `${r.entityID}: ${u.reason}`);
const PREFIX = 'cannot be written in a master file: ';

describe('unwritableRecords', () => {
  it('an SOA text of printable characters is written; one with a line break is not', () => {
    expect(reasons([rec('1', Z, 'SOA', 'ns1.example.net. admin.example.com. 1 2 3 4 5')])).toEqual([]);
    expect(reasons([rec('1', Z, 'SOA', 'ns1.example.net.\nadmin 1 2 3 4 5')])).toEqual([
      `1: ${PREFIX}its value is not one SOA text`,
    ]);
  });

  it("a TTL up to 2^31 - 1 and a priority up to 65535 are written, one more is not; nor is an A record's priority", () => {
    const live = [
      rec('1', `a.${Z}`, 'A', '192.0.2.1', { ttl: 2147483647 }),
      rec('2', `b.${Z}`, 'A', '192.0.2.1', { ttl: 2147483648 }),
      rec('3', `c.${Z}`, 'MX', 'mx.example.net', { priority: 65535 }),
      rec('4', `d.${Z}`, 'MX', 'mx.example.net', { priority: 65536 }),
      rec('5', `e.${Z}`, 'A', '192.0.2.1', { priority: 70000 }),
    ];
    expect(reasons(live)).toEqual([
      `2: ${PREFIX}its TTL 2147483648 is beyond 2147483647 (RFC 2181 §8)`,
      `4: ${PREFIX}its priority 65536 is beyond 65535`,
    ]);
  });

  it('a lone surrogate is not text; a surrogate pair is', () => {
    const live = [
      rec('1', `a.${Z}`, 'TXT', 'smile \uD83D\uDE00'),
      rec('2', `b.${Z}`, 'TXT', 'x\uD83Dy'),
      rec('3', `c.${Z}`, 'TXT', 'x\uDE00'),
    ];
    const why = `${PREFIX}its value is not valid Unicode text`;
    expect(reasons(live)).toEqual([`2: ${why}`, `3: ${why}`]);
  });

  it('types ddedge does not manage are neither written nor counted beside a CNAME or as duplicates', () => {
    const ds = (id: string, name: string) => rec(id, name, 'DS', '1 2 3 AB');
    const live = [rec('1', `a.${Z}`, 'CNAME', `x.${Z}`), ds('2', `a.${Z}`), ds('3', `b.${Z}`), ds('4', `b.${Z}`)];
    expect(reasons(live)).toEqual([]);
  });

  it('a record keeps the first reason found, with no entry of which it is a copy', () => {
    const live = [rec('1', `a.${Z}`, 'CNAME', `x.${Z}`, { ttl: 2147483648 }), rec('2', `a.${Z}`, 'A', '192.0.2.1')];
    const found = unwritableRecords(Z, live);
    expect([...found.values()]).toStrictEqual([
      { reason: `${PREFIX}its TTL 2147483648 is beyond 2147483647 (RFC 2181 §8)`, restorable: true },
      { reason: `${PREFIX}a CNAME shares the name a.${Z} with other data (RFC 1034 §3.6.2)`, restorable: true },
    ]);
  });

  it('of two entries of one record the oldest is written (shorter ID, then lower), the other kept as its copy', () => {
    const copy = (...ids: string[]) =>
      reasons(ids.map((id) => rec(id, `a.${Z}`, 'A', '192.0.2.1', { ttl: Number(id) })));
    const why = `${PREFIX}another entry holds the same record, and a master file holds a record once`;
    expect(copy('10', '9')).toEqual([`10: ${why}`]);
    expect(copy('2', '1')).toEqual([`2: ${why}`]);
    expect(copy('1', '2')).toEqual([`2: ${why}`]);
    const third = [
      rec('1', `a.${Z}`, 'A', '192.0.2.1'),
      rec('2', `a.${Z}`, 'TXT', 't'),
      rec('3', `a.${Z}`, 'A', '192.0.2.1'),
    ];
    const entryOf = `a.${Z}\tA\t192.0.2.1`;
    expect([...unwritableRecords(Z, third).values()]).toStrictEqual([{ reason: why, restorable: true, entryOf }]);
  });

  it('records at many names, some of whose names share a bit of the table of names seen, are no copies', () => {
    // 3,000 names in a table made for 3,000: dozens of them fall on a bit another took first.
    const live = Array.from({ length: 3000 }, (_, i) => rec(String(i + 1), `h${i}.${Z}`, 'A', '192.0.2.1'));
    expect(reasons(live)).toEqual([]);
    live.push(rec('3001', `h2999.${Z}`, 'A', '192.0.2.1'), rec('3002', `h17.${Z}`, 'A', '192.0.2.2'));
    expect(reasons(live)).toEqual([
      `3001: ${PREFIX}another entry holds the same record, and a master file holds a record once`,
    ]);
  });

  it('an entry unwritable on its own is not also the original of a copy', () => {
    const live = [rec('1', `a.${Z}`, 'A', '192.0.2.1', { ttl: 2147483648 }), rec('2', `a.${Z}`, 'A', '192.0.2.1')];
    expect(reasons(live)).toEqual([`1: ${PREFIX}its TTL 2147483648 is beyond 2147483647 (RFC 2181 §8)`]);
  });
});

describe('keepingUnwritable', () => {
  it("gives the owner's reason first", () => {
    const live = [rec('1', `a.${Z}`, 'A', '192.0.2.1', { ttl: 2147483648 })];
    const owner = keepingUnwritable(() => 'mine', unwritableRecords(Z, live), { zone: Z, records: [], notes: [] });
    expect(owner(live[0]!)).toBe('mine');
  });
});

describe('readingIsAGuess: a CAA value whose quotes cannot be read one way only', () => {
  it.each([
    ['0 issue "ca"quoted"', true],
    [' 0 issue "ca"quoted"', true],
    ['10 issue "ca"quoted"', true],
    ['0  issue "ca"quoted"', true],
    ['0 issue "letsencrypt.org"', false],
    ['0 issue  "letsencrypt.org"', false],
    ['0 issue ""', false],
    ['0 issue letsencrypt.org', false],
    ['0 issue "a\\"b"', false],
    ['0 issue letsencrypt.org"', true],
    ['0 issue "letsencrypt.org', true],
    ['0 issue "', true],
    ['x 0 issue "ca"quoted"', false],
    ['garbage', false],
  ])('%j: %s', (value, guess) => expect(readingIsAGuess('CAA', value)).toBe(guess));

  it('is a CAA question only', () => expect(readingIsAGuess('TXT', '0 issue "ca"quoted"')).toBe(false));
});

describe('agentHostName', () => {
  it('the canonical name, or the text in lower case when it is not a name', () => {
    expect(agentHostName('Home.Bücher.Example.')).toBe('home.xn--bcher-kva.example');
    expect(agentHostName('Not A Name')).toBe('not a name');
  });
});
