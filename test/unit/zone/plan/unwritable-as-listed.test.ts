// The unwritable check leaves out its name and value checks for a record the listing's mapping
// found canonical as listed (provider-mapping.ts collects the others): on entries of every kind
// it finds, entry for entry, what it finds without that knowledge.
import { describe, expect, it } from 'vitest';
import type { DnsEntry } from '../../../../src/api/endpoints/service.js';
import { fromProvider } from '../../../../src/zone/provider/provider-mapping.js';
import { unwritableRecords } from '../../../../src/zone/plan/unwritable.js';
import type { LiveRecord } from '../../../../src/zone/record.js';

const Z = 'example.com';
const ENTRIES: Partial<DnsEntry>[] = [
  { name: `www.${Z}`, type: 'A', value: '192.0.2.1' },
  { name: `WWW2.${Z}`, type: 'A', value: '192.0.2.2' },
  { name: `www3.${Z}.`, type: 'A', value: '192.0.2.3' },
  { name: '@', type: 'A', value: '192.0.2.4' },
  { name: '', type: 'MX', value: 'mx.example.net', priority: '10' },
  { name: `bad.${Z}`, type: 'A', value: '300.1.1.1' },
  { name: `v6.${Z}`, type: 'AAAA', value: '2001:DB8::1' },
  { name: `v6b.${Z}`, type: 'AAAA', value: '2001:db8::1' },
  { name: `alias.${Z}`, type: 'CNAME', value: 'Target.Example.NET.' },
  { name: `alias2.${Z}`, type: 'CNAME', value: 'target.example.net' },
  { name: `caa.${Z}`, type: 'CAA', value: '0 issue "ca"quoted"' },
  { name: `caa2.${Z}`, type: 'CAA', value: '0 issue "letsencrypt.org"' },
  { name: `txt.${Z}`, type: 'TXT', value: '""' },
  { name: `txt2.${Z}`, type: 'TXT', value: 'v=spf1 -all' },
  { name: `txt3.${Z}`, type: 'TXT', value: 'lone \uD800 surrogate' },
  { name: `srv.${Z}`, type: 'SRV', value: '10 5 5060 sip.example.com', priority: '-' },
  { name: `srv2.${Z}`, type: 'SRV', value: '5 5060 sip.example.com', priority: '20' },
  { name: `l\u00e4nd.${Z}`, type: 'A', value: '192.0.2.5' },
  { name: `under_score.${Z}`, type: 'TXT', value: 'x' },
  { name: `-bad.${Z}`, type: 'A', value: '192.0.2.6' },
  { name: `outside.example.net`, type: 'A', value: '192.0.2.7' },
  { name: `big.${Z}`, type: 'A', value: '192.0.2.8', ttl: '2147483648' },
  { name: `mx.${Z}`, type: 'MX', value: 'mx.example.net', priority: '70000' },
  { name: `other.${Z}`, type: 'HINFO', value: 'cpu os' },
  { name: Z, type: 'SOA', value: 'ns1.example.net. admin.example.com. 1 2 3 4 5' },
  { name: `dup.${Z}`, type: 'A', value: '192.0.2.9' },
  { name: `dup.${Z}`, type: 'A', value: '192.0.2.9', ttl: '60' },
  { name: `c.${Z}`, type: 'CNAME', value: 'x.example.net' },
  { name: `c.${Z}`, type: 'TXT', value: 'beside a CNAME' },
];

describe('the unwritable check with what the listing found canonical', () => {
  it('finds, entry for entry, what it finds reading every record again', () => {
    const notAsListed = new Set<LiveRecord>();
    const live = ENTRIES.map((e, i) =>
      fromProvider({ entityID: String(i + 1), ttl: '-', priority: '-', ...e } as DnsEntry, Z, notAsListed),
    );
    const found = (u: ReturnType<typeof unwritableRecords>) => [...u].map(([r, why]) => [r.entityID, why]);
    const known = unwritableRecords(Z, live, notAsListed);
    expect(found(known)).toEqual(found(unwritableRecords(Z, live)));
    expect(known.size).toBeGreaterThan(5);
    // What the mapping found canonical as listed: the plain records, which most of a zone is.
    const plain = live.filter((r) => !notAsListed.has(r)).map((r) => r.name);
    expect(plain).toContain(`www.${Z}`);
    expect(plain).not.toContain(`www2.${Z}`);
    expect(plain).not.toContain(`v6.${Z}`);
  });
});
