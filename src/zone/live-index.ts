// The live records a plan may touch, found in constant time by what a wanted record asks
// for: an identical record (it stays) or one with its value (a TTL or priority update). Each
// record is taken once; a cursor per key skips the taken ones, so every list is walked once
// in all and a name with 60,000 values costs its size, not its square.
import type { LiveRecord, ZoneRecord } from './record.js';

type AnyRecord = ZoneRecord | LiveRecord;

// Name and type carry their length, so no text in them can pass for a separator; TTL and
// priority are numbers or empty; the value comes last and may hold anything.
const valueKey = (r: AnyRecord): string => `${r.name.length}:${r.name}${r.type.length}:${r.type}${r.value}`;

/** Equal for two records exactly when sameRecord holds: name, type, value, TTL and priority. */
export const identityKey = (r: AnyRecord): string =>
  `${r.name.length}:${r.name}${r.type.length}:${r.type}${r.ttl ?? ''}|${r.priority ?? ''}|${r.value}`;

interface Cursor {
  list: LiveRecord[];
  next: number;
}

export class LiveIndex {
  private readonly identical = new Map<string, Cursor>();
  private readonly sameValue = new Map<string, Cursor>();
  private readonly taken = new Set<LiveRecord>();

  /** `records` in the order they are to be taken in (the first added is the first found). */
  constructor(records: readonly LiveRecord[]) {
    for (const record of records) {
      append(this.identical, identityKey(record), record);
      append(this.sameValue, valueKey(record), record);
    }
  }

  /** The first record added that is identical to `wanted` and not taken yet, now taken. */
  takeIdentical(wanted: AnyRecord): LiveRecord | undefined {
    return this.take(this.identical.get(identityKey(wanted)));
  }

  /** The first record added with the name, type and value of `wanted`, not taken yet, now taken. */
  takeSameValue(wanted: AnyRecord): LiveRecord | undefined {
    return this.take(this.sameValue.get(valueKey(wanted)));
  }

  isTaken(record: LiveRecord): boolean {
    return this.taken.has(record);
  }

  private take(cursor: Cursor | undefined): LiveRecord | undefined {
    if (!cursor) return undefined;
    while (cursor.next < cursor.list.length && this.taken.has(cursor.list[cursor.next]!)) cursor.next++;
    const found = cursor.list[cursor.next];
    if (found) this.taken.add(found);
    return found;
  }
}

function append(map: Map<string, Cursor>, key: string, record: LiveRecord): void {
  const cursor = map.get(key);
  if (cursor) cursor.list.push(record);
  else map.set(key, { list: [record], next: 0 });
}
