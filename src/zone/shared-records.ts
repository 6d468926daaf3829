// A zone that already holds the file (the plan of a zone kept as code, day after day) is two
// copies of the same records: the file's and the provider's, each with its strings. As the
// provider's pages arrive, an entry identical to the one record the file holds at its name is
// the file's record object from then on, holding the entity ID besides: the provider's copy is
// dropped while it is young. Every field the plan reads is the same, so the plan is the same.
import { sameRecord, type LiveRecord } from './record.js';
import { FileRecord, type WantedRecord } from './wanted-zone.js';

/** A name the file holds more than one record at: its records are not shared. */
const SEVERAL = null;

export class SharedRecords {
  private readonly byName = new Map<string, FileRecord | typeof SEVERAL>();

  constructor(records: readonly WantedRecord[]) {
    for (const r of records)
      if (r instanceof FileRecord) this.byName.set(r.name, this.byName.has(r.name) ? SEVERAL : r);
  }

  /**
   * `live`, or the file's record identical to it, which holds `live`'s entity ID from now on. A
   * file's record stands for one entity only: a second identical entry stays itself.
   */
  readonly share = (live: LiveRecord): LiveRecord => {
    const mine = this.byName.get(live.name);
    if (!mine || mine.entityID !== undefined || !sameRecord(mine, live)) return live;
    return mine.asLive(live.entityID);
  };
}

/**
 * `live` and `marked`, with a record of its own for each shared record `marked` holds: what marks
 * the provider's records by object (unwritable.ts) must not mark the file's record it shares.
 */
export function apartFromFile<T>(
  live: LiveRecord[],
  marked: Map<LiveRecord, T>,
): { live: LiveRecord[]; marked: Map<LiveRecord, T> } {
  const copies = new Map<LiveRecord, LiveRecord>();
  for (const r of marked.keys())
    if (r instanceof FileRecord)
      copies.set(r, {
        entityID: r.entityID!,
        name: r.name,
        type: r.type,
        ttl: r.ttl,
        priority: r.priority,
        value: r.value,
      });
  if (!copies.size) return { live, marked };
  return {
    live: live.map((r) => copies.get(r) ?? r),
    marked: new Map([...marked].map(([r, mark]) => [copies.get(r) ?? r, mark])),
  };
}
