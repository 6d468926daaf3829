// The records an UPDATE is evaluated against (rules.ts), indexed by name, type and data,
// so that each prerequisite and each change costs a few map look-ups, whatever the zone holds
// (1,000 TXT adds in one update must not each filter the whole working zone). An RRset keeps the
// TTL all its records are served with, so an add with that TTL (the common case) touches no other
// record of it.
import { DEFAULT_TTL } from '../../zone/provider/entry-fields.js';
import { hasPriority, type ZoneRecord } from '../../zone/record.js';

/** The TTL a record is served with: the provider's default when it has none. */
const ttlOf = (r: { ttl?: number }): number => r.ttl ?? DEFAULT_TTL;

/**
 * Equal for two records of one name and type exactly when they hold the same data (the MX preference and SRV priority
 * included, TTL aside).
 */
const dataKey = (r: { type: string; value: string; priority?: number }): string =>
  `${hasPriority(r.type) ? (r.priority ?? '') : ''}|${r.value}`;

interface RRset {
  records: Map<string, ZoneRecord[]>;
  /** The TTL every record of it is served with, when they share one. */
  ttl?: number;
}

/**
 * The TTL of an RRset as the provider holds it: undefined when every record has the provider's default, else the TTL
 * its records are served with (the first record's that has one, when they differ).
 */
function rawTtl(set: RRset): number | undefined {
  for (const list of set.records.values()) for (const r of list) if (r.ttl !== undefined) return set.ttl ?? r.ttl;
  return undefined;
}

export class UpdateRecords {
  private readonly names = new Map<string, Map<string, RRset>>();
  /**
   * The TTL of the RRset last deleted at each `name\ttype` in this update: what an add that names no TTL takes
   * after it (heldTtl), the provider's default included.
   */
  private readonly deleted = new Map<string, number | undefined>();

  constructor(records: Iterable<ZoneRecord>) {
    for (const r of records) this.push({ ...r });
  }

  /** Whether `name` holds a record of `type`. */
  has(name: string, type: string): boolean {
    return Boolean(this.names.get(name)?.get(type)?.records.size);
  }

  /** The types `name` holds. */
  typesAt(name: string): string[] {
    return [...(this.names.get(name)?.entries() ?? [])].filter(([, set]) => set.records.size).map(([type]) => type);
  }

  /** Removes every record at `name` (of `type` only, when given). */
  deleteRRsets(name: string, type?: string): void {
    const types = this.names.get(name);
    if (!types) return;
    for (const [t, set] of types)
      if ((type === undefined || t === type) && set.records.size) this.deleted.set(`${name}\t${t}`, rawTtl(set));
    if (type === undefined) this.names.delete(name);
    else types.delete(type);
  }

  /**
   * The TTL an add that names none takes: that of the RRset at `name` and `type` (or of the one this update deleted
   * there), undefined for the provider's default, which a new RRset gets too.
   */
  heldTtl(name: string, type: string): number | undefined {
    const set = this.names.get(name)?.get(type);
    if (set?.records.size) return rawTtl(set);
    return this.deleted.get(`${name}\t${type}`);
  }

  /** Removes every record with the data of `record` (TTL aside). */
  deleteRecord(record: ZoneRecord): void {
    const set = this.names.get(record.name)?.get(record.type);
    const key = dataKey(record);
    // The last record of its RRset: the RRset is deleted, and its TTL kept as deleteRRsets keeps it.
    if (set?.records.size === 1 && set.records.has(key))
      this.deleted.set(`${record.name}\t${record.type}`, rawTtl(set));
    set?.records.delete(key);
  }

  /** Adds `record` in place of any with the same data; the RRset takes its TTL, as BIND gives an RRset one TTL. */
  add(record: ZoneRecord): void {
    this.deleteRecord(record);
    const set = this.names.get(record.name)?.get(record.type);
    if (set && set.ttl !== ttlOf(record)) {
      // A record whose TTL is the provider's default keeps it when that is the TTL asked for.
      for (const list of set.records.values()) for (const r of list) if (ttlOf(r) !== ttlOf(record)) r.ttl = record.ttl;
      set.ttl = ttlOf(record);
    }
    this.push(record);
  }

  /** Every record held, as the zone engine's wanted records. */
  all(): ZoneRecord[] {
    const out: ZoneRecord[] = [];
    for (const types of this.names.values())
      for (const set of types.values()) for (const list of set.records.values()) out.push(...list);
    return out;
  }

  private push(record: ZoneRecord): void {
    let types = this.names.get(record.name);
    if (!types) {
      types = new Map();
      this.names.set(record.name, types);
    }
    let set = types.get(record.type);
    if (!set) {
      set = { records: new Map(), ttl: ttlOf(record) };
      types.set(record.type, set);
    } else if (set.ttl !== ttlOf(record)) set.ttl = undefined;
    const key = dataKey(record);
    const list = set.records.get(key);
    if (list) list.push(record);
    else set.records.set(key, [record]);
  }
}
