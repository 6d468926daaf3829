// The reader's index of the file's records by name is handed to the first plan of them (no
// second map of every name): once, for that very array of records, without notes and without
// the records the plan leaves alone; the plan is the same as from a map of its own.
import { describe, expect, it } from 'vitest';
import type { NameTable } from '../../../src/lib/name-table.js';
import { readZoneText } from '../../../src/zone/apply/zone-files.js';
import { ownership } from '../../../src/zone/plan/ownership.js';
import { planZone } from '../../../src/zone/plan/plan.js';
import type { LiveRecord } from '../../../src/zone/record.js';
import { fileRecordsOf, takeRecordsByName, type WantedRecord } from '../../../src/zone/wanted-zone.js';

const Z = 'index.example';
const FILE = [
  `$ORIGIN ${Z}.`,
  '$TTL 300',
  `@ IN SOA ns1.example.net. hostmaster.example.net. 1 3600 600 86400 300`,
  '@ IN NS ns1.example.net.',
  '@ IN A 192.0.2.1',
  'www IN A 192.0.2.2',
  'www IN A 192.0.2.3',
  'www IN TXT "hello"',
  'home IN A 192.0.2.4',
  'mail IN MX 10 mx.example.net.',
  'only-note IN TYPE65534 \\# 0',
];
const read = (lines = FILE) =>
  readZoneText(`${lines.join('\n')}\n`, { zone: Z, file: 'zone.txt', skipUnsupported: true });
const shown = (map: NameTable<WantedRecord | WantedRecord[]>) => {
  const byName: Record<string, string[]> = {};
  map.forEach((held, name) => {
    byName[name] = (Array.isArray(held) ? held : [held]).map((r) => `${r.type} ${r.value}`);
  });
  return byName;
};

describe('the reader index handed to the plan', () => {
  it('is given once, for the records it was made of, without notes and without the records left alone', () => {
    const wanted = read();
    const home = wanted.records.find((r) => r.name === `home.${Z}`)!;
    const secondWww = wanted.records.find((r) => r.value === '192.0.2.3')!;
    const map = takeRecordsByName(wanted.records, new Set([home, secondWww]))!;
    expect(shown(map)).toEqual({
      [Z]: ['A 192.0.2.1'],
      [`www.${Z}`]: ['A 192.0.2.2', 'TXT hello'],
      [`mail.${Z}`]: ['MX mx.example.net'],
    });
    expect(map.get(`mail.${Z}`)).not.toBeInstanceOf(Array);
    expect(takeRecordsByName(wanted.records, new Set())).toBeUndefined();
    // Another array of the same records (a backup's records and its exact ones) gets none.
    const again = read();
    expect(takeRecordsByName([...again.records], new Set())).toBeUndefined();
    expect(takeRecordsByName(again.records, new Set())).toBeDefined();
  });

  it('several records at a name come in the order of the file, whatever else is there', () => {
    const wanted = read([`$ORIGIN ${Z}.`, 'a IN TXT "3"', 'a IN TXT "1"', 'a IN TXT "2"', 'b IN A 192.0.2.9']);
    const map = takeRecordsByName(wanted.records, new Set())!;
    expect(shown(map)).toEqual({ [`a.${Z}`]: ['TXT 3', 'TXT 1', 'TXT 2'], [`b.${Z}`]: ['A 192.0.2.9'] });
  });

  it('the plan from the handed index is the plan from a map of its own, the second plan of a file too', () => {
    const live = (id: string, name: string, type: string, value: string, ttl?: number): LiveRecord => ({
      entityID: id,
      name,
      type,
      ttl,
      priority: undefined,
      value,
    });
    const have = [
      live('1', Z, 'A', '192.0.2.1', 300),
      live('2', `www.${Z}`, 'A', '192.0.2.3', 60),
      live('3', `www.${Z}`, 'A', '192.0.2.8', 300),
      live('4', `home.${Z}`, 'A', '198.51.100.1', 60),
      live('5', `gone.${Z}`, 'CNAME', `www.${Z}`, 300),
    ];
    const owner = ownership({ zone: Z, hosts: [`home.${Z}`], ignore: [] });
    const wanted = read();
    const first = planZone(have, wanted, owner);
    const second = planZone(have, wanted, owner);
    // A WantedZone made by hand has no index: the plan makes its own map.
    const byHand = planZone(have, { ...wanted, records: [...wanted.records] }, owner);
    expect(first).toEqual(second);
    expect(first).toEqual(byHand);
    expect(first.changes.map((c) => `${c.action} ${c.before?.entityID ?? '-'} ${c.after?.value ?? '-'}`)).toEqual([
      'delete 5 -',
      'create - mx.example.net',
      'update 2 192.0.2.3',
      'update 3 192.0.2.2',
      'create - hello',
    ]);
    expect(first.kept.map((k) => `${k.name} ${k.type}`)).toContain(`home.${Z} A`);
  });
});

describe('where a record of a file was written', () => {
  it('reads file:line:column, past the packed bounds too', () => {
    const Read = fileRecordsOf('zone.txt');
    const at = (line: number, column: number) =>
      new Read(`a.${Z}`, 'A', 60, undefined, '192.0.2.1', line, column).where;
    expect(at(1, 1)).toBe('zone.txt:1:1');
    expect(at(12, 1023)).toBe('zone.txt:12:1023');
    expect(at(12, 1024)).toBe('zone.txt:12:1024');
    expect(at(2 ** 21 - 1, 7)).toBe(`zone.txt:${2 ** 21 - 1}:7`);
    expect(at(2 ** 21, 7)).toBe(`zone.txt:${2 ** 21}:7`);
    expect(at(9_000_000, 70_000)).toBe('zone.txt:9000000:70000');
    expect(new (fileRecordsOf('other.zone'))(Z, 'TXT', undefined, undefined, 'x', 3, 5).where).toBe('other.zone:3:5');
    // The record's own fields are its data: a spread leaves a plain record.
    expect({ ...new Read(Z, 'MX', 60, 10, `mx.${Z}`, 4, 1) }).toEqual({
      name: Z,
      type: 'MX',
      ttl: 60,
      priority: 10,
      value: `mx.${Z}`,
    });
  });
});
