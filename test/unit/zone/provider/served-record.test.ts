// One reading of a record into the wire's form serves both: the gateway serves the records it
// read from the provider (or an update left) directly, no longer by writing each back into a
// provider entry and reading that, and the sandbox its entries. What each serves must be what it
// served before, for every type and the values the wire cannot carry.
import { describe, expect, it } from 'vitest';
import type { DnsEntry } from '../../../../src/api/endpoints/service.js';
import { recordOfEntry } from '../../../../src/zone/provider/entry-records.js';
import { toProvider } from '../../../../src/zone/provider/provider-mapping.js';
import { servedRecord } from '../../../../src/zone/provider/served-record.js';
import type { LiveRecord } from '../../../../src/zone/record.js';

/** The old way: record -> provider entry -> record. */
function throughAnEntry(r: LiveRecord) {
  const fields = toProvider(r);
  const value = r.type === 'TXT' ? r.value : fields.value;
  const entry: DnsEntry = {
    entityID: r.entityID,
    name: fields.name,
    type: fields.type,
    ttl: fields.ttl === undefined ? '-' : String(fields.ttl),
    priority: fields.priority === undefined ? '-' : String(fields.priority),
    value,
  };
  return recordOfEntry(entry, r.name);
}

const records: Omit<LiveRecord, 'entityID'>[] = [
  { name: 'a.example.com', type: 'A', value: '192.0.2.1', ttl: 60 },
  { name: 'a.example.com', type: 'A', value: ' 192.0.2.1 ' },
  { name: 'a.example.com', type: 'A', value: '2001:db8::1' },
  { name: 'a.example.com', type: 'AAAA', value: '2001:db8::1', ttl: 2 ** 31 },
  { name: 'a.example.com', type: 'AAAA', value: '192.0.2.1' },
  { name: 'a.example.com', type: 'CNAME', value: 'b.example.com.' },
  { name: 'a.example.com', type: 'CNAME', value: 'a..b' },
  { name: 'example.com', type: 'NS', value: 'ns1.example.net', ttl: 0 },
  { name: 'example.com', type: 'MX', value: 'mail.example.com', priority: 5 },
  { name: 'example.com', type: 'MX', value: 'mail.example.com' },
  { name: 'example.com', type: 'MX', value: 'mail.example.com', priority: 70000 },
  { name: 'example.com', type: 'MX', value: '.', priority: 0 },
  { name: 'example.com', type: 'TXT', value: '' },
  { name: 'example.com', type: 'TXT', value: '""' },
  { name: 'example.com', type: 'TXT', value: 'x'.repeat(300) },
  { name: 'example.com', type: 'TXT', value: 'v=spf1 -all', ttl: 3600 },
  { name: '_sip._tcp.example.com', type: 'SRV', value: '5 5060 sip.example.com', priority: 20 },
  { name: '_sip._tcp.example.com', type: 'SRV', value: '5 5060 sip.example.com' },
  // (No record holds an SRV value with its priority in front: the zone engine splits it off as
  // it reads an entry, fromProvider; recordOfEntry's tests read such entries.)
  { name: '_sip._tcp.example.com', type: 'SRV', value: '5 sip.example.com' },
  { name: '_sip._tcp.example.com', type: 'SRV', value: '1 70000 t.example.com' },
  { name: 'example.com', type: 'CAA', value: '0 issue "letsencrypt.org"' },
  { name: 'example.com', type: 'CAA', value: '128 iodef "mailto:a@example.com"' },
  { name: 'example.com', type: 'CAA', value: '0 issue "a\\"b"' },
  { name: 'example.com', type: 'CAA', value: '0 issue letsencrypt.org' },
  { name: 'example.com', type: 'CAA', value: 'issue letsencrypt.org' },
  { name: 'example.com', type: 'CAA', value: '300 issue "x"' },
  { name: 'example.com', type: 'HINFO', value: 'x' },
  { name: 'example.com', type: 'TYPE49', value: 'AAIB' },
  { name: 'example.com', type: 'SOA', value: 'ns1.example.com. hostmaster.example.com. 1 2 3 4 5' },
];

describe('a record as served', () => {
  it('is what the round trip through a provider entry gave, for every type', () => {
    for (const r of records)
      expect(servedRecord(r), `${r.type} ${r.value}`).toEqual(throughAnEntry({ entityID: '1', ...r }) ?? undefined);
  });
});
