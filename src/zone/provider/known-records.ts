// A listed entry that reads as a record the caller holds already (a plan's file, whose records
// a zone that holds them lists back entry for entry) takes that record's strings instead of its
// own. Equal strings, so the record reads the same everywhere; but a zone of 100,000 entries
// then keeps one copy of each name and value instead of two, and the strings the provider's
// answer was parsed into die young instead of being carried into the old generation.
// An entry written exactly as ddedge writes the known record (what `zone apply` sent) is that
// record without being read the long way: the provider form's rules (provider-mapping.ts) give
// such an entry back unchanged, so they are not run 100,000 times to say so.
import type { DnsEntry } from '../../api/endpoints/service.js';
import type { LiveRecord, ZoneRecord } from '../record.js';
import { FileRecord } from '../wanted-zone.js';
import { DEFAULT_PRIORITY, EMPTY_TXT } from './entry-fields.js';
import { fromProvider } from './provider-mapping.js';

/** The record the caller holds at a name (the one record there), if any. */
export type KnownRecords = (name: string) => ZoneRecord | undefined;

/**
 * The record `entry` holds: read as fromProvider reads it, with the strings of the known record it equals in every
 * field. `notAsListed` as fromProvider takes it (an entry written as ddedge writes is as listed).
 */
export function readKnownEntry(
  entry: DnsEntry,
  zone: string,
  known: KnownRecords,
  notAsListed?: Set<LiveRecord>,
): LiveRecord {
  const same = typeof entry.name === 'string' ? known(entry.name) : undefined;
  if (same !== undefined && writtenAs(entry, same)) {
    const entityID = String(entry.entityID);
    // The file's record is this entry: it becomes the live record as well, once (a second entry of the same
    // record, which the provider may hold, is a record of its own).
    if (same instanceof FileRecord && same.entityID === undefined) {
      same.entityID = entityID;
      return same as LiveRecord;
    }
    return liveCopy(same, entityID);
  }
  return sharingKnownStrings(fromProvider(entry, zone, notAsListed), known);
}

/**
 * Whether `entry` is `record` as ddedge writes it (toProvider), in a form that reads back as `record` itself. Types
 * whose provider form is a reading of its own (SRV's priority in the value, CAA's quoting) and the TXT text `""`
 * (the provider's empty TXT) are left to the long way.
 */
function writtenAs(entry: DnsEntry, record: ZoneRecord): boolean {
  const { type, value } = record;
  if (entry.type !== type || type === 'SRV' || type === 'CAA') return false;
  if (
    type === 'TXT' ? value === EMPTY_TXT || entry.value !== (value === '' ? EMPTY_TXT : value) : entry.value !== value
  )
    return false;
  if (!countWritten(entry.ttl, record.ttl)) return false;
  // Only MX has a priority here; any other type's field is not read.
  return type !== 'MX' || countWritten(entry.priority, record.priority, DEFAULT_PRIORITY);
}

/** Whether a TTL or priority field reads as `count` (entry-fields.ts countOf; `-` is the provider's default). */
function countWritten(field: unknown, count: number | undefined, byDefault?: number): boolean {
  if (field === '-' || field === undefined) return count === byDefault;
  return count !== undefined && (field === count || (typeof field === 'string' && field === String(count)));
}

/**
 * `record` (as the provider's entry reads) with the strings of the known record it equals in every field; as it is
 * when it equals none.
 */
function sharingKnownStrings(record: LiveRecord, known: KnownRecords): LiveRecord {
  const same = known(record.name);
  if (
    same !== undefined &&
    same.type === record.type &&
    same.value === record.value &&
    same.ttl === record.ttl &&
    same.priority === record.priority
  ) {
    record.name = same.name;
    record.type = same.type;
    record.value = same.value;
  }
  return record;
}

/**
 * A file's record that became a live one (readKnownEntry) and is marked by the unwritable check (an entry the
 * provider holds twice, whose older twin was listed later) gets a live record of its own again, in `live` and in
 * `marked`: the plan's owner looks the file's records up in that map too, and must not find the file's own there.
 */
export function ownRecordsForMarked<T>(live: LiveRecord[], marked: Map<LiveRecord, T>): void {
  if (!marked.size) return;
  for (let i = 0; i < live.length; i++) {
    const r = live[i]!;
    const mark = r instanceof FileRecord ? marked.get(r) : undefined;
    if (mark === undefined) continue;
    const own = liveCopy(r, r.entityID);
    (r as FileRecord).entityID = undefined;
    marked.delete(r);
    marked.set(own, mark);
    live[i] = own;
  }
}

/**
 * `record` as a live record of its own, listed as `entityID`. No field for a priority it does not have (all but MX and
 * SRV): 8 bytes of 72, 0.8 MB a zone of 100,000 entries.
 */
function liveCopy(record: ZoneRecord | LiveRecord, entityID: string): LiveRecord {
  const { name, type, ttl, priority, value } = record;
  return priority === undefined ? { entityID, name, type, ttl, value } : { entityID, name, type, ttl, priority, value };
}
