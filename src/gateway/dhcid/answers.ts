// The DHCID records the gateway keeps, as the records it answers queries and transfers with:
// type 49 in RFC 3597's form (the RDATA as hex), which the wire writer sends as it is, so dig,
// Kea and BIND secondaries read them as DHCID. A zone transfer carries them, as BIND's would:
// a secondary then answers for the whole zone the DHCP server sees, DHCID included.
import type { DnsRecord } from '../../dns/wire/types.js';
import type { DhcidRecord } from './store.js';
import { TYPE_DHCID } from './store.js';

export function dhcidAnswers(records: DhcidRecord[]): DnsRecord[] {
  return records.map((r) => ({ name: r.name, type: `TYPE${TYPE_DHCID}`, ttl: r.ttl, value: r.data }));
}
