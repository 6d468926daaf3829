// A listed entry equal to a record of the file takes the file's strings (known-records.ts): it
// reads the same in every field, and an entry that differs in any field reads as the provider
// wrote it. The reader's index tells the one record at a name, and nothing where a name holds
// several records or a note.
import { describe, expect, it } from 'vitest';
import type { DnsEntry } from '../../../../src/api/endpoints/service.js';
import { readZoneText } from '../../../../src/zone/apply/zone-files.js';
import { readKnownEntry } from '../../../../src/zone/provider/known-records.js';
import { fromProvider, toProvider } from '../../../../src/zone/provider/provider-mapping.js';
import type { LiveRecord } from '../../../../src/zone/record.js';
import { soleRecordAt } from '../../../../src/zone/wanted-zone.js';

const Z = 'known.example';
/** The zone Z of a master file of `lines` (after its $ORIGIN and $TTL 300). */
const zoneOf = (lines: string[]) =>
  readZoneText([`$ORIGIN ${Z}.`, '$TTL 300', ...lines, ''].join('\n'), {
    zone: Z,
    file: 'zone.txt',
    skipUnsupported: true,
  });
const wanted = zoneOf([
  `@ IN SOA ns1.example.net. hostmaster.example.net. 1 3600 600 86400 300`,
  'www 3600 IN A 192.0.2.2',
  'mail IN MX 10 mx.example.net.',
  'two IN A 192.0.2.3',
  'two IN A 192.0.2.4',
  'txt IN TXT "hello world"',
]);
const known = soleRecordAt(wanted.records)!;
const entry = (fields: Partial<DnsEntry>): DnsEntry =>
  ({ entityID: '7', ttl: '-', priority: '-', ...fields }) as DnsEntry;
const read = (fields: Partial<DnsEntry>) => readKnownEntry(entry(fields), Z, known);

describe('entries read as the records the caller knows', () => {
  it('an entry equal to the record at its name reads as fromProvider reads it', () => {
    for (const fields of [
      { name: `www.${Z}`, type: 'A', ttl: '3600', value: '192.0.2.2' },
      { name: `WWW.${Z}.`, type: 'a', ttl: '3600', value: '192.0.2.2' },
      { name: `mail.${Z}`, type: 'MX', ttl: '300', priority: '10', value: 'mx.example.net' },
      { name: `txt.${Z}`, type: 'TXT', ttl: '300', value: 'hello world' },
    ])
      expect(read(fields)).toEqual(fromProvider(entry(fields), Z));
    expect(read({ name: `www.${Z}`, type: 'A', ttl: '3600', value: '192.0.2.2' })).toEqual({
      entityID: '7',
      name: `www.${Z}`,
      type: 'A',
      ttl: 3600,
      priority: undefined,
      value: '192.0.2.2',
    });
  });

  it('an entry that differs in a field, or at a name of several records, reads as the provider wrote it', () => {
    for (const fields of [
      { name: `www.${Z}`, type: 'A', ttl: '300', value: '192.0.2.2' },
      { name: `www.${Z}`, type: 'A', value: '192.0.2.2' },
      { name: `www.${Z}`, type: 'A', ttl: '3600', value: '192.0.2.9' },
      { name: `mail.${Z}`, type: 'MX', ttl: '300', priority: '20', value: 'mx.example.net' },
      { name: `www.${Z}`, type: 'TXT', ttl: '3600', value: '192.0.2.2' },
      { name: `two.${Z}`, type: 'A', ttl: '300', value: '192.0.2.3' },
      { name: `txt.${Z}`, type: 'TXT', ttl: '300', value: '""' },
    ])
      expect(read(fields)).toEqual(fromProvider(entry(fields), Z));
  });

  // An entry written exactly as ddedge writes the file's record is read without the provider form's rules: it must
  // read as those rules read it, field for field, and be as listed exactly when they say so.
  it('an entry as ddedge writes each record of a file reads as the rules of the provider form read it', () => {
    const varied = zoneOf([
      'a 60 IN A 192.0.2.1',
      'six IN AAAA 2001:DB8:0:0:0:0:0:1',
      'alias IN CNAME Target.Example.NET.',
      'sub IN NS ns1.example.net.',
      'mx1 IN MX 10 mx.example.net.',
      'mx2 86400 IN MX 0 .',
      'empty IN TXT ""',
      'quotes IN TXT "\\"\\""',
      'bytes IN TXT "caf\\195\\169 \\255"',
      'semi IN TXT "a;b" "c d"',
      'srv IN SRV 10 5 5060 sip.example.net.',
      'caa IN CAA 0 issue "letsencrypt.org"',
      // Names in every form a master file may write them.
      'UPPER IN A 192.0.2.2',
      '*.wild IN A 192.0.2.5',
      '_sip._tcp IN TXT "v"',
      'b\u00fccher IN A 192.0.2.6',
      'xn--bcher-kva.idn IN A 192.0.2.7',
      'under_score IN A 192.0.2.8',
    ]);
    const index = soleRecordAt(varied.records)!;
    expect(varied.records.length).toBe(18);
    for (const record of varied.records) {
      const { ttl, priority, ...fields } = toProvider(record);
      const count = (n: number | undefined) => (n === undefined ? '-' : String(n));
      const listed = entry({ ...fields, ttl: count(ttl), priority: count(priority) });
      const fast = new Set<LiveRecord>();
      const slow = new Set<LiveRecord>();
      const read = readKnownEntry(listed, Z, index, fast);
      expect(read, `${record.name} ${record.type}`).toEqual(fromProvider(listed, Z, slow));
      expect(fast.size, `${record.name} ${record.type} as listed`).toBe(slow.size);
    }
  });

  it('the index knows the one record at a name, nothing at a name of several records or of a note only', () => {
    expect(known(`www.${Z}`)?.value).toBe('192.0.2.2');
    expect(known(`two.${Z}`)).toBeUndefined();
    expect(known(Z)).toBeUndefined();
    expect(known(`nowhere.${Z}`)).toBeUndefined();
  });
});
