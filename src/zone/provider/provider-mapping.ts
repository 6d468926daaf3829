// The provider's DNS entries <-> ddedge's records, in one place: read as the zone engine's
// records (zone plan and apply, the gateway), written back as the provider's fields; the rules
// of the provider's form (its defaults, the SRV priority, the empty TXT: entry-fields.ts holds
// the fields' reading) are here for the resource records a name server answers with too
// (served-record.ts). The provider names an entry by its full host name, keeps TTL and priority
// as strings with "-" for its default, gives MX and SRV their priority in its own field, SRV as
// "weight port target", CAA as `flag tag "value"`, TXT as the text itself. Answers are read
// liberally (case, trailing dots, quotes around CAA values), written one way.
import type { DnsEntry } from '../../api/endpoints/service.js';
import { canonicalName } from '../../lib/names.js';
import { countOf, DEFAULT_PRIORITY, EMPTY_TXT, txtOfValue } from './entry-fields.js';
import { hasPriority, isZoneType, type LiveRecord, type ZoneRecord } from '../record.js';
import { canonicalValue, ValueError } from '../values.js';
import { readingIsAGuess } from '../plan/unwritable.js';

/**
 * An SRV value with its priority in front ("10 5 5060 sip.example.com", where the spec has
 * "5 5060 sip.example.com" and the priority in its own field): the priority (the entry's own
 * field first, it is the provider's) and the value without it. Undefined for any other value.
 */
export function srvWithPriority(
  value: string,
  field: number | undefined,
): { priority: number; value: string } | undefined {
  const parts = value.trim().split(/\s+/);
  return parts.length === 4 ? { priority: field ?? Number(parts[0]), value: parts.slice(1).join(' ') } : undefined;
}

/**
 * The record an entry holds. With `notAsListed`, the records whose name or value is not canonical
 * as the provider lists it (the reading changed it, or could not make it canonical, or the type is
 * not one ddedge manages) are added to it: the unwritable check need not read the others again
 * (unwritable.ts), which a listing of 100,000 entries otherwise did for each.
 */
export function fromProvider(entry: DnsEntry, zone: string, notAsListed?: Set<LiveRecord>): LiveRecord {
  const given = String(entry.type ?? '');
  const type = isZoneType(given) ? given : given.toUpperCase();
  const rawName = String(entry.name ?? '');
  const canonical = rawName === '@' || rawName === '' ? undefined : canonicalName(rawName);
  const name = rawName === '@' || rawName === '' ? zone : (canonical ?? rawName.toLowerCase());
  let asListed = canonical === rawName;
  const ttl = countOf(entry.ttl);
  let priority = countOf(entry.priority);
  let value = String(entry.value ?? '');
  if (hasPriority(type)) {
    const srv = type === 'SRV' ? srvWithPriority(value, priority) : undefined;
    if (srv) ({ priority, value } = srv);
    priority ??= DEFAULT_PRIORITY;
  } else priority = undefined;
  if (type === 'TXT') value = txtOfValue(value);
  if (isZoneType(type)) {
    try {
      // A value whose reading is a guess (a CAA value with a bare quote) stays as the provider
      // holds it, so that it is kept as it is and a backup gives it back unchanged (unwritable.ts).
      if (readingIsAGuess(type, value)) asListed = false;
      else {
        const written = canonicalValue(type, value);
        if (written !== value) asListed = false;
        value = written;
      }
    } catch (error) {
      // A value the provider holds but ddedge would not write stays as it is: it can still be deleted.
      if (!(error instanceof ValueError)) throw error;
      asListed = false;
    }
  } else asListed = false;
  const record = { entityID: String(entry.entityID), name, type, ttl, priority, value };
  if (!asListed) notAsListed?.add(record);
  return record;
}

/** The fields of service/dnscreate (and of one dnssetzone record). */
export interface ProviderFields {
  name: string;
  type: string;
  value: string;
  ttl?: number;
  priority?: number;
}

export function toProvider(record: Omit<ZoneRecord, 'type'> & { type: string }): ProviderFields {
  return {
    name: record.name,
    type: record.type,
    value: record.type === 'TXT' && record.value === '' ? EMPTY_TXT : record.value,
    ...(record.ttl !== undefined ? { ttl: record.ttl } : {}),
    ...(hasPriority(record.type) ? { priority: record.priority ?? DEFAULT_PRIORITY } : {}),
  };
}
