// What a file asks for, whichever form it was written in: the records ddedge manages, and
// those the file holds but leaves to the provider (SOA, apex NS) or skips (other types, with
// --skip-unsupported). Whole-zone rules are checked here, once for both forms, as each record
// is added: the cost stays linear in the file, and each problem is found at the record that
// makes it (the later of two).
import type { BindForm } from './bind-form.js';
import type { ZoneRecord, ZoneType } from './record.js';
import { NameTable } from '../lib/name-table.js';
import { PresizedList } from '../lib/presized-list.js';

/** A record of the file, with where it was written (`zone.txt:12:1`) for messages. */
export interface WantedRecord extends ZoneRecord {
  where: string;
}

/** Lines and columns packed into one small integer (an object for the rare one past these bounds). */
const COLUMNS = 1024;
const PACKED_LINES = 2 ** 21;

/**
 * A record read from a file. Its `where` is made when asked: a string per record cost 11 MB at 100,000 records,
 * and it is read only for messages. Where it was written is one small integer, and the file's name is on the class
 * made for that file (fileRecordsOf), not on each record: two fields less, 1.6 MB at 100,000 records. Class fields
 * are the record's own data, so `{ where, ...record }` leaves a plain ZoneRecord (and the entity ID of a record a
 * listing took as live).
 */
export abstract class FileRecord implements WantedRecord {
  /** Only a record that has one (MX, SRV) holds a field for it: 8 bytes of 72, 0.8 MB a file of 100,000. */
  declare priority?: number;
  /**
   * Set when the provider's listing holds this very record (known-records.ts): the record is then the live one
   * too, and the listing makes no record of its own for it (a no-change plan of 100,000 records: 6.4 MB less).
   */
  entityID: string | undefined = undefined;
  readonly #spot: number | { line: number; column: number };

  constructor(
    public name: string,
    public type: ZoneType,
    public ttl: number | undefined,
    priority: number | undefined,
    public value: string,
    line: number,
    column: number,
  ) {
    if (priority !== undefined) this.priority = priority;
    this.#spot = line < PACKED_LINES && column < COLUMNS ? line * COLUMNS + column : { line, column };
  }

  /** The file the record was read from. */
  protected abstract get file(): string;

  get where(): string {
    const spot = this.#spot;
    return typeof spot === 'number'
      ? `${this.file}:${Math.floor(spot / COLUMNS)}:${spot % COLUMNS}`
      : `${this.file}:${spot.line}:${spot.column}`;
  }
}

/** What makes the records of one file. */
export type FileRecordClass = new (...fields: ConstructorParameters<typeof FileRecord>) => FileRecord;

/** The class of the records read from `file`: one per file read. */
export function fileRecordsOf(file: string): FileRecordClass {
  return class extends FileRecord {
    protected get file(): string {
      return file;
    }
  };
}

export interface FileNote {
  name: string;
  type: string;
  reason: string;
  where: string;
}

export interface WantedZone {
  zone: string;
  records: WantedRecord[];
  /** Records the file holds that ddedge leaves to the provider (SOA, apex NS) or skips. */
  notes: FileNote[];
  /**
   * The file holds every record of the zone, even those a master file cannot (a backup,
   * backup-records.ts): the plan acts on those too instead of keeping them.
   */
  exact?: boolean;
  /**
   * The file is a whole zone in BIND's canonical form (bind-form.ts): what the provider keeps, read from its SOA and
   * NS.
   */
  bindForm?: BindForm;
}

type Entry = WantedRecord | FileNote;
const isRecord = (e: Entry): e is WantedRecord => !('reason' in e);
const sameData = (a: WantedRecord, b: WantedRecord): boolean => a.type === b.type && a.value === b.value;

/** The records at one name, once there is more than one; a map by type and value once there are many. */
interface Group {
  entries: Entry[];
  cname?: Entry;
  byData?: Map<string, WantedRecord>;
  conflictReported?: boolean;
}
/** Past this many records at one name, duplicates are found through a map (no quadratic scan). */
const SCAN_LIMIT = 8;

/**
 * Collects a zone's records and notes, checking the rules a file must keep: every name inside
 * the zone, a CNAME alone at its name, each record once (the same record written twice is one
 * record, RFC 2181 §5; the same value with another TTL or priority is an error).
 */
export class WantedZoneBuilder {
  readonly #records = new PresizedList<WantedRecord>();
  readonly notes: FileNote[] = [];
  private readonly atName: NameTable<Entry | Group>;
  /** Names of more than one entry, or of a note: what takeRecordsByName sorts out. */
  private readonly mixed: string[] = [];

  private readonly dotZone: string;

  /** `atMost`: the most records the file can hold, when known (a master file's lines): room made for them at once. */
  constructor(
    readonly zone: string,
    atMost = 0,
  ) {
    this.dotZone = `.${zone}`;
    this.#records.reserve(atMost);
    this.atName = new NameTable(atMost, this.dotZone);
  }

  /** Adds a record; returns why it breaks a rule, or undefined (a duplicate is dropped). */
  addRecord(record: WantedRecord): string | undefined {
    return this.add(record);
  }

  addNote(note: FileNote): string | undefined {
    return this.add(note);
  }

  result(bindForm?: BindForm): WantedZone {
    const records = this.#records.toArray();
    HANDED_OVER.set(records, { atName: this.atName, mixed: this.mixed });
    return { zone: this.zone, records, notes: this.notes, ...(bindForm ? { bindForm } : {}) };
  }

  private add(entry: Entry): string | undefined {
    if (entry.name !== this.zone && !entry.name.endsWith(this.dotZone))
      return `${entry.name} is outside the zone ${this.zone}`;
    const held = this.atName.getOrSet(entry.name, entry);
    if (held === undefined) {
      if (!isRecord(entry)) this.mixed.push(entry.name);
      this.keep(entry);
      return undefined;
    }
    const group: Group =
      'entries' in held ? held : { entries: [held], cname: held.type === 'CNAME' ? held : undefined };
    if (!('entries' in held)) {
      this.atName.set(entry.name, group);
      // A note alone was put in `mixed` already.
      if (isRecord(held)) this.mixed.push(entry.name);
    }
    if (isRecord(entry)) {
      const same = this.sameRecordIn(group, entry);
      if (same) {
        if (same.ttl === entry.ttl && same.priority === entry.priority) return undefined;
        return (
          `${entry.name} ${entry.type} ${entry.value} is already at ${same.where} with another ` +
          `${same.ttl !== entry.ttl ? 'TTL' : 'priority'}`
        );
      }
    }
    const problem = group.conflictReported ? undefined : cnameConflict(entry, group);
    if (problem) group.conflictReported = true;
    group.entries.push(entry);
    if (entry.type === 'CNAME') group.cname ??= entry;
    if (isRecord(entry)) group.byData?.set(`${entry.type}\t${entry.value}`, entry);
    this.keep(entry);
    return problem;
  }

  private keep(entry: Entry): void {
    if (isRecord(entry)) this.#records.add(entry);
    else this.notes.push(entry);
  }

  private sameRecordIn(group: Group, record: WantedRecord): WantedRecord | undefined {
    if (!group.byData && group.entries.length > SCAN_LIMIT) {
      group.byData = new Map();
      for (const e of group.entries)
        if (isRecord(e) && !group.byData.has(`${e.type}\t${e.value}`)) group.byData.set(`${e.type}\t${e.value}`, e);
    }
    if (group.byData) return group.byData.get(`${record.type}\t${record.value}`);
    for (const e of group.entries) if (isRecord(e) && sameData(e, record)) return e;
    return undefined;
  }
}

/** RFC 1034 §3.6.2: why `entry` cannot join the group at its name, if it cannot. */
function cnameConflict(entry: Entry, group: Group): string | undefined {
  if (entry.type !== 'CNAME' && !group.cname) return undefined;
  const other = entry.type === 'CNAME' ? group.entries[0]! : entry;
  const what = other.type === 'CNAME' ? 'two CNAME records' : `a CNAME and ${other.type} data`;
  return `a CNAME cannot share its name with other data: ${entry.name} has ${what} (RFC 1034 §3.6.2)`;
}

/** The index a builder made of the records it read, until the first plan of them takes it. */
const HANDED_OVER = new WeakMap<readonly WantedRecord[], { atName: NameTable<Entry | Group>; mixed: string[] }>();

/**
 * The record alone at a name among `records` (no other record and no note there), by the index the builder that
 * read them made; undefined when no builder's index is at hand (then nothing is known). Asked before the first plan
 * of them, which takes the index over.
 */
export function soleRecordAt(
  records: readonly WantedRecord[],
): ((name: string) => WantedRecord | undefined) | undefined {
  const atName = HANDED_OVER.get(records)?.atName;
  if (!atName) return undefined;
  return (name) => {
    const held = atName.get(name);
    return held !== undefined && !('entries' in held) && isRecord(held) ? held : undefined;
  };
}

/**
 * The records of `records` by name, without notes and without those in `left`: a record alone at
 * its name is itself, several are an array in the order of the file. It is the map the builder
 * that read `records` made (no second map of every name), so it is given once, to its first
 * caller, and only for that very array; otherwise undefined, and the caller makes its own.
 */
export function takeRecordsByName(
  records: readonly WantedRecord[],
  left: ReadonlySet<WantedRecord>,
): NameTable<WantedRecord | WantedRecord[]> | undefined {
  const index = HANDED_OVER.get(records);
  if (!index) return undefined;
  HANDED_OVER.delete(records);
  const { atName, mixed } = index;
  // The same map, its values made records only below: every Group and note is at a name in
  // `mixed` (each name once), so past that loop none is left.
  const byName = atName as unknown as NameTable<WantedRecord | WantedRecord[]>;
  for (const r of left) if (atName.get(r.name) === r) atName.delete(r.name);
  for (const name of mixed) {
    const held = atName.get(name);
    if (held === undefined) continue;
    const kept = ('entries' in held ? held.entries : [held]).filter(
      (e): e is WantedRecord => isRecord(e) && !left.has(e),
    );
    if (kept.length === 0) byName.delete(name);
    else byName.set(name, kept.length === 1 ? kept[0]! : kept);
  }
  return byName;
}
