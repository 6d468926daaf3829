// The DHCID records the gateway keeps itself (the provider cannot hold them), so that DHCP
// servers' conflict detection (RFC 4701, RFC 4703: Kea's check-with-dhcid mode, ISC dhcpd's
// standard mode) works: a name carries the DHCID of the client that registered it, and another
// client's update, whose prerequisite names its own DHCID, fails. Kept in
// <state dir>/gateway/dhcid.json, by zone and owner name, replaced atomically (mode 0600) at
// each change, so it survives restarts. Bounded: at most MAX_DHCID_RECORDS records, a file of at
// most MAX_FILE_BYTES. A damaged file is an error naming it (the gateway does not start), never
// read as empty: an empty store would let any client take every name.
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { ConfigError } from '../runtime/errors.js';

/** One DHCID record: its owner (a name key), TTL and RDATA in hex (identifier type, digest type, digest). */
export interface DhcidRecord {
  name: string;
  ttl: number;
  data: string;
}

/** A zone's DHCID records by owner name; a list is never empty and never changed in place (replaced whole). */
export type DhcidByName = Map<string, readonly DhcidRecord[]>;

/** Far more than the leases of any site one gateway serves; each costs about 150 bytes. */
export const MAX_DHCID_RECORDS = 50_000;
/** RDATA bounds: identifier type (2 bytes) and digest type (1 byte), then a digest (32 bytes for SHA-256). */
export const DHCID_DATA_BYTES = { min: 3, max: 255 } as const;
const MAX_FILE_BYTES = 16 * 1024 * 1024;
const VERSION = 1;

export function dhcidStorePath(stateDir: string): string {
  return join(stateDir, 'gateway', 'dhcid.json');
}

export class DhcidStore {
  private constructor(
    private readonly path: string,
    private readonly zones: Map<string, DhcidByName>,
  ) {}

  /** Reads the store of `stateDir` (none yet: empty); throws ConfigError naming the file when it is damaged. */
  static open(stateDir: string): DhcidStore {
    const path = dhcidStorePath(stateDir);
    let text: string;
    try {
      if (statSync(path).size > MAX_FILE_BYTES) throw new ConfigError(`${path}: larger than ${MAX_FILE_BYTES} bytes; it is not a file the gateway wrote`);
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new DhcidStore(path, new Map());
      if (error instanceof ConfigError) throw error;
      throw new ConfigError(`${path}: cannot read it: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    return new DhcidStore(path, parseStore(text, path));
  }

  /** The records of `zone` by name (a map of its own: the caller may change it; the lists are shared and never changed in place). */
  of(zone: string): DhcidByName {
    return new Map(this.zones.get(zone));
  }

  /** How many records `zone` may hold beside those of the other zones. */
  roomFor(zone: string): number {
    let others = 0;
    for (const [name, byName] of this.zones) if (name !== zone) others += countOf(byName);
    return MAX_DHCID_RECORDS - others;
  }

  /** Replaces the records of `zone`, on disk first (atomically): when the write fails, nothing changed. */
  replace(zone: string, byName: DhcidByName): void {
    const kept: DhcidByName = new Map([...byName].filter(([, list]) => list.length));
    if (countOf(kept) > this.roomFor(zone)) throw new Error(`the gateway keeps at most ${MAX_DHCID_RECORDS} DHCID records`);
    const next = new Map(this.zones);
    if (kept.size) next.set(zone, kept);
    else next.delete(zone);
    const zones: Record<string, DhcidRecord[]> = {};
    for (const [name, records] of [...next].sort(([a], [b]) => a.localeCompare(b))) zones[name] = [...records.values()].flat();
    mkdirSync(join(this.path, '..'), { recursive: true, mode: 0o700 });
    writeFileAtomic(this.path, `${JSON.stringify({ version: VERSION, zones }, null, 1)}\n`, 0o600);
    this.zones.clear();
    for (const [name, list] of next) this.zones.set(name, list);
  }
}

/** The number of records in a zone's map. */
export function countOf(byName: ReadonlyMap<string, readonly DhcidRecord[]>): number {
  let count = 0;
  for (const list of byName.values()) count += list.length;
  return count;
}

/** The file's content, checked record by record; every fault names the file. */
function parseStore(text: string, path: string): Map<string, DhcidByName> {
  const damaged = (why: string): never => {
    throw new ConfigError(`${path} is damaged (${why}); the gateway does not start without the DHCID records it keeps for DHCP conflict detection: restore the file from a backup, or remove it to forget them`);
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    damaged('not JSON');
  }
  const body = parsed as { version?: unknown; zones?: unknown };
  if (typeof body !== 'object' || body === null || body.version !== VERSION) damaged(`not version ${VERSION} of the store`);
  if (typeof body.zones !== 'object' || body.zones === null || Array.isArray(body.zones)) damaged('no zones');
  const zones = new Map<string, DhcidByName>();
  let count = 0;
  for (const [zone, list] of Object.entries(body.zones as Record<string, unknown>)) {
    if (!Array.isArray(list)) damaged(`zone ${zone} holds no list`);
    const byName = new Map<string, DhcidRecord[]>();
    for (const item of list as unknown[]) {
      if (++count > MAX_DHCID_RECORDS) damaged(`more than ${MAX_DHCID_RECORDS} records`);
      const r = item as Partial<DhcidRecord>;
      const valid =
        typeof r === 'object' && r !== null &&
        typeof r.name === 'string' && (r.name === zone || r.name.endsWith(`.${zone}`)) &&
        Number.isInteger(r.ttl) && r.ttl! >= 0 && r.ttl! <= 0x7fffffff &&
        typeof r.data === 'string' && isDhcidData(r.data);
      if (!valid) damaged(`a record of zone ${zone} is not a DHCID record of it`);
      byName.set(r.name!, [...(byName.get(r.name!) ?? []), { name: r.name!, ttl: r.ttl!, data: r.data! }]);
    }
    if (byName.size) zones.set(zone, byName);
  }
  return zones;
}

/** Whether `hex` is DHCID RDATA of a length RFC 4701 allows (lower-case hex, as the wire reader gives it). */
export function isDhcidData(hex: string): boolean {
  return /^(?:[0-9a-f]{2})+$/.test(hex) && hex.length / 2 >= DHCID_DATA_BYTES.min && hex.length / 2 <= DHCID_DATA_BYTES.max;
}
