// The one shape a DNS record has inside ddedge's zone code, whatever it was read from
// (a master file, the JSON form, the provider's list): full lower-case ASCII name without
// the trailing dot, and the value in the provider's form (SRV "weight port target", CAA
// `flag tag "value"`, TXT the text itself), so that comparing two records is comparing fields.

export const ZONE_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'SRV', 'TXT', 'NS', 'CAA'] as const;
export type ZoneType = (typeof ZONE_TYPES)[number];

/** RFC 2181 §8: a TTL is an unsigned 31-bit number. */
export const MAX_TTL = 2_147_483_647;

export interface ZoneRecord {
  name: string;
  type: ZoneType;
  /** Seconds; undefined is the provider's default (its `-`). */
  ttl?: number;
  /** MX preference and SRV priority; undefined for other types. */
  priority?: number;
  value: string;
}

/** A record as the provider holds it: its entity ID, and types ddedge does not manage kept as text. */
export interface LiveRecord extends Omit<ZoneRecord, 'type'> {
  type: string;
  entityID: string;
}

const ZONE_TYPE_SET: ReadonlySet<string> = new Set(ZONE_TYPES);
export const isZoneType = (type: string): type is ZoneType => ZONE_TYPE_SET.has(type);
export const hasPriority = (type: string): boolean => type === 'MX' || type === 'SRV';

/** Same name, type and value: the same record, whatever its TTL or priority. */
export const sameValue = (
  a: Pick<ZoneRecord, 'name' | 'value'> & { type: string },
  b: Pick<ZoneRecord, 'name' | 'value'> & { type: string },
): boolean => a.name === b.name && a.type === b.type && a.value === b.value;

export const sameRecord = (a: ZoneRecord | LiveRecord, b: ZoneRecord | LiveRecord): boolean =>
  sameValue(a, b) && a.ttl === b.ttl && a.priority === b.priority;

/** One line for messages and plans: `www.example.com 3600 MX 10 mail.example.com`. */
export function describeRecord(r: Omit<ZoneRecord, 'type'> & { type: string }): string {
  return [r.name, r.ttl ?? '-', r.type, r.priority, r.value === '' ? '""' : r.value]
    .filter((p) => p !== undefined)
    .join(' ');
}
