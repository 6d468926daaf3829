// A provider entry as the resource record a name server gives for it (the sandbox's name
// server): its TTL and priority fields read as the zone engine reads them (entry-fields.ts),
// then the one reading of a record as served (served-record.ts).
import type { DnsEntry } from '../../api/endpoints/service.js';
import type { DnsRecord } from '../../dns/wire/types.js';
import { countOf } from './entry-fields.js';
import { servedRecord } from './served-record.js';

/**
 * The resource record a name server gives for `entry` (spec 2.6), owned by `owner`, or
 * undefined when the wire cannot carry its value (a bad address, an SRV without a port): such
 * an entry is left out rather than failing the whole answer.
 */
export function recordOfEntry(entry: DnsEntry, owner: string): DnsRecord | undefined {
  const { type, value } = entry;
  return servedRecord({ name: owner, type, value, ttl: countOf(entry.ttl), priority: countOf(entry.priority) });
}
