// The DHCID records the gateway keeps itself (the provider cannot hold them), so that DHCP
// servers' conflict detection (RFC 4701, RFC 4703: Kea's check-with-dhcid mode, ISC dhcpd's
// standard mode) works: a name carries the DHCID of the client that registered it, and another
// client's update, whose prerequisite names its own DHCID, fails. Kept in
// <state dir>/gateway/dhcid.json, by zone and owner name, replaced atomically (mode 0600) at
// each change, so it survives restarts; gateways sharing a state directory (one per zone) each
// write their own zones and keep the others' as the file holds them. Bounded: at most MAX_DHCID_RECORDS records, at
// most MAX_DHCID_PER_NAME at one name, at most MAX_RECORD_BYTES of records, and a file the gateway
// writes is never one it would refuse to read (MAX_FILE_BYTES). A damaged file is an error naming it (the gateway does
// not start), never read as empty nor set aside: an empty store would let any client take every name.
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../lib/atomic-write.js';
import { atOrBelow } from '../../lib/names.js';
import { readStateFile, type StateFileType } from '../../state/state-file.js';
import { list, object, oneOf, table, text, where, whole } from '../../state/shape.js';

/** One DHCID record: its owner (a name key), TTL and RDATA in hex (identifier type, digest type, digest). */
export interface DhcidRecord {
  name: string;
  ttl: number;
  data: string;
}

/** A zone's DHCID records by owner name; a list is never empty and never changed in place (replaced whole). */
export type DhcidByName = Map<string, readonly DhcidRecord[]>;

/** The kept records as an update leaves them: only the names it touched, each with its new list (empty: none left). */
export type DhcidTouched = Map<string, DhcidRecord[]>;

/** DHCID (RFC 4701), which the wire codec does not name: the gateway keeps such records itself. */
export const TYPE_DHCID = 49;

/** Far more than the leases of any site one gateway serves; each costs about 150 bytes. */
export const MAX_DHCID_RECORDS = 50_000;
/**
 * A DHCP client holds one DHCID at its name (RFC 4701 3.3, RFC 4703 5): more than one appears
 * only while a name moves between clients or identifier types (client-id, DUID); 8 leaves room
 * for that, and bounds the answer to a DHCID query at one name to about 2 KB (each record at
 * most 255 bytes of data), so it always fits a TCP message and truncates cleanly over UDP.
 */
export const MAX_DHCID_PER_NAME = 8;
/**
 * The bytes the records may take in the file (recordBytes each). 50,000 leases of a long
 * 100-character name take about 12 MB, within it; a name written with \DDD escapes and 255
 * bytes of data take about 1.7 KB each, so a key granted DHCID cannot fill the file with those
 * past what it reads. The rest of MAX_FILE_BYTES is the zones' framing (a zone costs at most
 * ~1.3 KB; 3,000 zones fit). Also bounds the time to rewrite the file at each change.
 */
export const MAX_RECORD_BYTES = 12 * 1024 * 1024;
/** RDATA bounds: identifier type (2 bytes) and digest type (1 byte), then a digest (32 bytes for SHA-256). */
export const DHCID_DATA_BYTES = { min: 3, max: 255 } as const;
/** The largest file read (and written): larger is not a file the gateway wrote. */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;
/**
 * The indentation, line ends and comma JSON.stringify(…, null, 1) puts around a record at its depth: 28; 32 to be safe.
 */
const RECORD_FRAMING_BYTES = 32;

/** What a zone may still take: records and bytes (recordBytes). */
export interface DhcidRoom {
  records: number;
  bytes: number;
}
const VERSION = 1;

export function dhcidStorePath(stateDir: string): string {
  return join(stateDir, 'gateway', 'dhcid.json');
}

export class DhcidStore {
  /** Each zone's records and bytes, counted once (roomFor is asked at every update). */
  private readonly sizes = new Map<string, DhcidRoom>();
  /** The file as last read or written here (inode, size, time): another writer changes it. */
  private stamp: string | undefined;

  private constructor(
    private readonly path: string,
    private readonly zones: Map<string, DhcidByName>,
  ) {
    for (const [zone, byName] of zones) this.sizes.set(zone, { records: countOf(byName), bytes: bytesOf(byName) });
  }

  /** Reads the store of `stateDir` (none yet: empty); throws ConfigError naming the file when it is damaged. */
  static open(stateDir: string): DhcidStore {
    const path = dhcidStorePath(stateDir);
    // Damaged, not a regular file, larger than the store is ever written, or unreadable:
    // ConfigError naming it (exit 2).
    const zones = readStore(path);
    if (zones === undefined) return new DhcidStore(path, new Map());
    const store = new DhcidStore(path, zones);
    store.stamp = stampOf(path);
    return store;
  }

  /** Takes every zone but `zone` from the file when another writer changed it since this one last read or wrote it. */
  private catchUp(zone: string): void {
    const now = stampOf(this.path);
    if (now === undefined || now === this.stamp) return;
    let onDisk: Map<string, DhcidByName>;
    try {
      onDisk = readStore(this.path) ?? new Map();
    } catch (error) {
      // Not written over: it may hold another gateway's records.
      throw new Error(
        `${this.path} was changed by another writer and cannot be read (${(error as Error).message.split(' (')[0]})`,
      );
    }
    for (const name of [...this.zones.keys()]) if (name !== zone && !onDisk.has(name)) this.zones.delete(name);
    for (const [name, byName] of onDisk) if (name !== zone) this.zones.set(name, byName);
    this.sizes.clear();
    for (const [name, byName] of this.zones) this.sizes.set(name, { records: countOf(byName), bytes: bytesOf(byName) });
    this.stamp = now;
  }

  /**
   * The records of `zone` by name (a map of its own: the caller may change it; the lists are shared and never changed
   * in place).
   */
  of(zone: string): DhcidByName {
    return new Map(this.zones.get(zone));
  }

  /** How many records, and how many bytes of them (recordBytes), `zone` holds. */
  sizeOf(zone: string): DhcidRoom {
    return this.sizes.get(zone) ?? { records: 0, bytes: 0 };
  }

  /** How many records, and how many bytes of them, `zone` may hold beside those of the other zones. */
  roomFor(zone: string): DhcidRoom {
    let records = 0;
    let bytes = 0;
    for (const [name, size] of this.sizes) {
      if (name === zone) continue;
      records += size.records;
      bytes += size.bytes;
    }
    return { records: MAX_DHCID_RECORDS - records, bytes: MAX_RECORD_BYTES - bytes };
  }

  /**
   * Replaces the records of `zone`, on disk first (atomically): when the write fails, nothing
   * changed. The other zones are written as the file holds them now: another gateway on the same
   * state directory (one per zone, as docs/gateway.md allows) keeps its zones' records there, and a file
   * rewritten from this gateway's memory alone would drop them.
   */
  replace(zone: string, byName: DhcidByName): void {
    this.catchUp(zone);
    const kept: DhcidByName = new Map([...byName].filter(([, list]) => list.length));
    const room = this.roomFor(zone);
    const size = { records: countOf(kept), bytes: bytesOf(kept) };
    if (size.records > room.records) throw new Error(`the gateway keeps at most ${MAX_DHCID_RECORDS} DHCID records`);
    // A store over the bytes (written before they were bounded) may still shrink.
    if (size.bytes > room.bytes && size.bytes > this.sizeOf(zone).bytes)
      throw new Error(`the gateway keeps at most ${MAX_RECORD_BYTES} bytes of DHCID records`);
    const next = new Map(this.zones);
    if (kept.size) next.set(zone, kept);
    else next.delete(zone);
    const zones: Record<string, DhcidRecord[]> = {};
    for (const [name, records] of [...next].sort(([a], [b]) => a.localeCompare(b)))
      zones[name] = [...records.values()].flat();
    const text = `${JSON.stringify({ version: VERSION, zones }, null, 1)}\n`;
    // The last word: never write a file open() would refuse (the gateway would not start again).
    if (Buffer.byteLength(text) > MAX_FILE_BYTES)
      throw new Error(`the DHCID records would take more than ${MAX_FILE_BYTES} bytes`);
    mkdirSync(join(this.path, '..'), { recursive: true, mode: 0o700 });
    writeFileAtomic(this.path, text, 0o600);
    this.stamp = stampOf(this.path);
    this.zones.clear();
    for (const [name, list] of next) this.zones.set(name, list);
    if (kept.size) this.sizes.set(zone, size);
    else this.sizes.delete(zone);
  }
}

/**
 * What tells one version of the file from another: inode (an atomic write makes a new one), size and time; undefined
 * when there is none.
 */
function stampOf(path: string): string | undefined {
  try {
    const stat = statSync(path);
    return `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  } catch {
    return undefined;
  }
}

/** The number of records in a zone's map. */
function countOf(byName: ReadonlyMap<string, readonly DhcidRecord[]>): number {
  let count = 0;
  for (const list of byName.values()) count += list.length;
  return count;
}

/**
 * What a record takes in the file, at most: its JSON and the framing around it (owners may be long, with \DDD escapes).
 */
export function recordBytes(record: DhcidRecord): number {
  return (
    Buffer.byteLength(JSON.stringify({ name: record.name, ttl: record.ttl, data: record.data })) + RECORD_FRAMING_BYTES
  );
}

/** The bytes (recordBytes) of the records in a zone's map. */
export function bytesOf(byName: ReadonlyMap<string, readonly DhcidRecord[]>): number {
  let bytes = 0;
  for (const list of byName.values()) for (const r of list) bytes += recordBytes(r);
  return bytes;
}

type StoreFile = { zones: Record<string, DhcidRecord[]> };

const dhcidRecord = object({
  name: text,
  ttl: whole(0, 0x7fffffff),
  data: where(
    text,
    (data) => isDhcidData(data),
    `DHCID data of ${DHCID_DATA_BYTES.min} to ${DHCID_DATA_BYTES.max} bytes in lower-case hex`,
  ),
});

/** Every fault stops the gateway (ConfigError naming the file, exit 2), the file left as it is. */
const STORE_FILE: StateFileType<StoreFile> = {
  maxBytes: MAX_FILE_BYTES,
  refuse: 'always',
  advice:
    'the gateway does not start without the DHCID records it keeps for DHCP conflict detection: ' +
    'restore the file from a backup, or remove it to forget them',
  shape: where(
    where(
      object({ version: oneOf(VERSION), zones: table(list(dhcidRecord, MAX_DHCID_RECORDS)) }),
      (body) => Object.values(body.zones).reduce((sum, records) => sum + records.length, 0) <= MAX_DHCID_RECORDS,
      `a store of at most ${MAX_DHCID_RECORDS} records`,
    ),
    (body) => Object.entries(body.zones).every(([zone, records]) => records.every((r) => atOrBelow(r.name, zone))),
    'a store whose records are each at or below their zone',
  ),
};

/** The file's zones, record by record; undefined when there is no file. */
function readStore(path: string): Map<string, DhcidByName> | undefined {
  const body = readStateFile(path, STORE_FILE, { setAside: false }).value;
  if (!body) return undefined;
  const zones = new Map<string, DhcidByName>();
  for (const [zone, records] of Object.entries(body.zones)) {
    const byName = new Map<string, DhcidRecord[]>();
    for (const { name, ttl, data } of records) byName.set(name, [...(byName.get(name) ?? []), { name, ttl, data }]);
    if (byName.size) zones.set(zone, byName);
  }
  return zones;
}

/** Whether `hex` is DHCID RDATA of a length RFC 4701 allows (lower-case hex, as the wire reader gives it). */
export function isDhcidData(hex: string): boolean {
  return (
    /^(?:[0-9a-f]{2})+$/.test(hex) && hex.length / 2 >= DHCID_DATA_BYTES.min && hex.length / 2 <= DHCID_DATA_BYTES.max
  );
}
