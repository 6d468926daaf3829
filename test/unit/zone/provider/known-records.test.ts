// A listed entry equal to a record of the file takes the file's strings (known-records.ts): it
// reads the same in every field, and an entry that differs in any field reads as the provider
// wrote it. The reader's index tells the one record at a name, and nothing where a name holds
// several records or a note.
import { describe, expect, it } from 'vitest';
import type { DnsEntry } from '../../../../src/api/endpoints/service.js';
import { readZoneText } from '../../../../src/zone/apply/zone-files.js';
import { sharingKnownStrings } from '../../../../src/zone/provider/known-records.js';
import { fromProvider } from '../../../../src/zone/provider/provider-mapping.js';
import { soleRecordAt } from '../../../../src/zone/wanted-zone.js';

const Z = 'known.example';
const wanted = readZoneText(
  [
    `$ORIGIN ${Z}.`,
    '$TTL 300',
    `@ IN SOA ns1.example.net. hostmaster.example.net. 1 3600 600 86400 300`,
    'www 3600 IN A 192.0.2.2',
    'mail IN MX 10 mx.example.net.',
    'two IN A 192.0.2.3',
    'two IN A 192.0.2.4',
    'txt IN TXT "hello world"',
    '',
  ].join('\n'),
  { zone: Z, file: 'zone.txt', skipUnsupported: true },
);
const known = soleRecordAt(wanted.records)!;
const entry = (fields: Partial<DnsEntry>): DnsEntry =>
  ({ entityID: '7', ttl: '-', priority: '-', ...fields }) as DnsEntry;
const read = (fields: Partial<DnsEntry>) => sharingKnownStrings(fromProvider(entry(fields), Z), known);

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

  it('the index knows the one record at a name, nothing at a name of several records or of a note only', () => {
    expect(known(`www.${Z}`)?.value).toBe('192.0.2.2');
    expect(known(`two.${Z}`)).toBeUndefined();
    expect(known(Z)).toBeUndefined();
    expect(known(`nowhere.${Z}`)).toBeUndefined();
  });
});
