// A listed entry that reads as a record the caller holds already (a plan's file, whose records
// a zone that holds it lists back entry for entry) takes that record's strings instead of its
// own. Equal strings, so the record reads the same everywhere; but a zone of 100,000 entries
// then keeps one copy of each name and value instead of two, and the strings the provider's
// answer was parsed into die young instead of being carried into the old generation.
import type { LiveRecord, ZoneRecord } from '../record.js';

/** The record the caller holds at a name (the one record there), if any. */
export type KnownRecords = (name: string) => ZoneRecord | undefined;

/**
 * `record` (as the provider's entry reads) with the strings of the known record it equals in every field; as it is
 * when it equals none.
 */
export function sharingKnownStrings(record: LiveRecord, known: KnownRecords): LiveRecord {
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
