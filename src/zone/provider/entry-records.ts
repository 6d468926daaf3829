// A provider entry as the resource record a name server gives for it (the sandbox's name
// server): its TTL and priority fields read as numbers, then the one reading of a record as
// served (served-record.ts), by the rules of the provider's form that provider-mapping.ts holds.
import type { DnsEntry } from '../../api/endpoints/service.js';
import type { DnsRecord } from '../../dns/wire/types.js';
import { servedRecord } from './served-record.js';

/**
 * A TTL or priority as the API keeps it (digits, `-` for the provider's default): the number, or
 * none for anything else. More lenient than the zone engine's countOf (` 60 ` is 60 here): the
 * sandbox's name server has always served what its own API stored that way.
 */
function numberOf(text: string): number | undefined {
  const n = Number(text);
  return text.trim() !== '' && Number.isInteger(n) && n >= 0 ? n : undefined;
}

/**
 * The resource record a name server gives for `entry` (spec 2.6), owned by `owner`, or
 * undefined when the wire cannot carry its value (a bad address, an SRV without a port): such
 * an entry is left out rather than failing the whole answer.
 */
export function recordOfEntry(entry: DnsEntry, owner: string): DnsRecord | undefined {
  return servedRecord({ name: owner, type: entry.type, value: entry.value, ttl: numberOf(entry.ttl), priority: numberOf(entry.priority) });
}
