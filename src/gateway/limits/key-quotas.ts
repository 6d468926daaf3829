// What each key may hold in each zone: DHCID records (kept by the gateway, in a store shared by
// every key) and records it created at the provider (whose hosting plan bounds the entries of a
// zone for every key at once). Without a bound one key filled the shared DHCID store and every
// other key's Kea add was refused. A key's records are those its updates created and no update
// has deleted since: the owners ledger, <state dir>/gateway/owners.json, names the key of each
// (by zone, owner name, type and value; nothing secret). A record changed in place keeps its
// owner; one deleted by anyone, or gone from the provider at a full re-read, frees its place.
// Records made before the ledger, or by others than the gateway, belong to no key.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../../lib/atomic-write.js';
import type { Logger } from '../../lib/log.js';
import type { Change } from '../../zone/plan/plan.js';
import type { LiveRecord } from '../../zone/record.js';
import type { DhcidRecord } from '../dhcid/store.js';
import type { GatewayKeys, QuotaKind } from '../keys/keys-file.js';
import { readStateFile, type StateFileType } from '../../state/state-file.js';
import { list, object, oneOf, table, text, tuple } from '../../state/shape.js';

/**
 * Per key and zone unless the keys file says otherwise (`quota "KEY" dhcid N records N;`).
 * DHCID: a fifth of the store's 50,000, so five keys at their bound still leave room for more;
 * a site with more leases than that under one key raises it. Records: far more than one
 * client's names (a router's few, external-dns's hundreds), far fewer than a plan's entries.
 */
export const DEFAULT_QUOTA: Readonly<Record<HeldKind, number>> = { dhcid: 10_000, records: 1_000 };
/** What a key holds (its provider calls are counted in key-calls.ts). */
type HeldKind = Exclude<QuotaKind, 'calls'>;
const VERSION = 1;
/**
 * Damage is set aside (owners.json.damaged): its records then count against no key, as records
 * made before the ledger.
 */
const LEDGER_FILE: StateFileType<{ zones: Record<string, [string, string, string, string][]> }> = {
  // A ledger larger than this is not one the gateway wrote (entries are bounded by the quotas and the DHCID store).
  maxBytes: 64 * 1024 * 1024,
  shape: object({
    version: oneOf(VERSION),
    zones: table(list(tuple<[string, string, string, string]>(text, text, text, text))),
  }),
};

type Counts = Record<HeldKind, number>;
const kindOf = (type: string): HeldKind => (type === 'DHCID' ? 'dhcid' : 'records');
/**
 * A record's identity: owner, type, value (as sameValue in zone/record.ts); DHCID values as the changes show them
 * (base64).
 */
const identity = (r: { name: string; type: string; value: string }) => `${r.name}\t${r.type}\t${r.value}`;

function quotaOf(keys: GatewayKeys, key: string): Counts {
  const { dhcid, records } = keys.quotas.get(key) ?? {};
  return { dhcid: dhcid ?? DEFAULT_QUOTA.dhcid, records: records ?? DEFAULT_QUOTA.records };
}

export class OwnersLedger {
  /** zone → identity → key. */
  private readonly zones = new Map<string, Map<string, string>>();
  /** zone → key → counts, kept with `zones`. */
  private readonly counts = new Map<string, Map<string, Counts>>();
  /** zone → how many times its records were recorded: a listing read before the last of them may lack them. */
  private readonly recorded = new Map<string, number>();

  private constructor(
    private readonly file: string | undefined,
    private readonly logger: Logger | undefined,
  ) {}

  static inMemory(): OwnersLedger {
    return new OwnersLedger(undefined, undefined);
  }

  /**
   * The ledger of `stateDir`. One that cannot be used is set aside (owners.json.damaged) and said:
   * the records it named then count against no key, as records made before the ledger.
   */
  static open(stateDir: string, logger: Logger): OwnersLedger {
    const ledger = new OwnersLedger(join(stateDir, 'gateway', 'owners.json'), logger);
    const loaded = readLedger(ledger.file!);
    if (loaded.damage)
      logger.warn(
        `gateway: ${loaded.damage}; the records it named count against no key's quota, each key's count starts ` +
          `again from its next updates`,
      );
    for (const [zone, owners] of loaded.value ?? []) ledger.setZone(zone, owners);
    return ledger;
  }

  /** What `key` holds in `zone`. */
  held(zone: string, key: string): Counts {
    return this.counts.get(zone)?.get(key) ?? { dhcid: 0, records: 0 };
  }

  /** The key that created `record` in `zone`, if a key did. */
  ownerOf(zone: string, record: { name: string; type: string; value: string }): string | undefined {
    return this.zones.get(zone)?.get(identity(record));
  }

  /**
   * Records the changes of a batch's updates, each with its key (written once, merged with the zones another gateway
   * keeps in the file).
   */
  record(zone: string, updates: readonly { key: string; changes: readonly Change[] }[]): void {
    const owners = new Map(this.zones.get(zone));
    for (const { key, changes } of updates) {
      for (const c of changes) {
        const was = c.before ? owners.get(identity(c.before)) : undefined;
        if (c.before) owners.delete(identity(c.before));
        if (c.action === 'create' && c.after) owners.set(identity(c.after), key);
        else if (c.action === 'update' && c.after && was !== undefined) owners.set(identity(c.after), was);
      }
    }
    this.setZone(zone, owners);
    this.recorded.set(zone, this.version(zone) + 1);
    this.save(zone);
  }

  /** Grows each time records of `zone` are recorded: given to prune with a listing read after it was taken. */
  version(zone: string): number {
    return this.recorded.get(zone) ?? 0;
  }

  /**
   * Forgets the records of `zone` no longer there: the provider's full listing, read when the
   * ledger was at `since` (version()), and the DHCID records kept. A listing read before records
   * were last recorded may lack them: it prunes nothing (the next one will).
   */
  prune(zone: string, live: readonly LiveRecord[], dhcid: readonly DhcidRecord[], since = this.version(zone)): void {
    const owners = this.zones.get(zone);
    if (!owners?.size || since !== this.version(zone)) return;
    const present = new Set([
      ...live.map(identity),
      ...dhcid.map((r) =>
        identity({ name: r.name, type: 'DHCID', value: Buffer.from(r.data, 'hex').toString('base64') }),
      ),
    ]);
    const kept = new Map([...owners].filter(([id]) => present.has(id)));
    if (kept.size === owners.size) return;
    this.setZone(zone, kept);
    this.save(zone);
  }

  private setZone(zone: string, owners: Map<string, string>): void {
    const counts = new Map<string, Counts>();
    for (const [id, key] of owners) {
      const count = counts.get(key) ?? counts.set(key, { dhcid: 0, records: 0 }).get(key)!;
      count[kindOf(id.split('\t')[1]!)]++;
    }
    this.zones.set(zone, owners);
    this.counts.set(zone, counts);
  }

  private save(zone: string): void {
    if (!this.file) return;
    try {
      // The other zones are another gateway's: a file damaged since it was read is set aside, not written over.
      const loaded = readLedger(this.file);
      if (loaded.damage)
        this.logger?.warn(`gateway: ${loaded.damage}; it is written again with the zones of this gateway only`);
      const merged = loaded.value ?? new Map<string, Map<string, string>>();
      merged.set(zone, this.zones.get(zone)!);
      const zones: Record<string, [string, string, string, string][]> = {};
      for (const [name, owners] of [...merged].sort(([a], [b]) => a.localeCompare(b))) {
        if (owners.size)
          zones[name] = [...owners].map(([id, key]) => [...(id.split('\t') as [string, string, string]), key]);
      }
      mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
      writeFileAtomic(this.file, `${JSON.stringify({ version: VERSION, zones })}\n`, 0o600);
    } catch (error) {
      this.logger?.warn(
        `gateway: ${this.file} cannot be written ` +
          `(${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); after a restart some records may ` +
          `count against no key's quota`,
      );
    }
  }
}

/** The ledger's zones (zone → identity → key); a damaged file is set aside and said in `damage`. */
function readLedger(file: string): { value?: Map<string, Map<string, string>>; damage?: string } {
  const loaded = readStateFile(file, LEDGER_FILE, { setAside: true });
  if (!loaded.value) return { damage: loaded.damage };
  const zones = new Map<string, Map<string, string>>();
  for (const [zone, entries] of Object.entries(loaded.value.zones)) {
    zones.set(zone, new Map(entries.map(([name, type, value, key]) => [identity({ name, type, value }), key])));
  }
  return { value: zones };
}

/**
 * The quotas while a batch of updates is judged: each update admitted counts for the next ones
 * of the batch; the ledger changes only once the batch's writes are made (commit).
 */
export class QuotaBatch {
  private readonly pending = new Map<string, Counts>();
  private readonly admitted: { key: string; changes: Change[] }[] = [];

  constructor(
    private readonly ledger: OwnersLedger,
    private readonly zone: string,
    private readonly keys: GatewayKeys,
  ) {}

  /**
   * Admits one key's update, or says why not: a quota it would pass (only growth is refused: a key over its quota may
   * still delete).
   */
  admit(key: string, changes: Change[]): string | undefined {
    const growth: Counts = { dhcid: 0, records: 0 };
    for (const c of changes) {
      if (c.action === 'create' && c.after) growth[kindOf(c.after.type)]++;
      // Only its own records free a key's place: deleting another's does not make room for more of its own.
      if (c.action === 'delete' && c.before && this.ledger.ownerOf(this.zone, c.before) === key)
        growth[kindOf(c.before.type)]--;
    }
    const held = this.ledger.held(this.zone, key);
    const before = this.pending.get(key) ?? { dhcid: 0, records: 0 };
    const quota = quotaOf(this.keys, key);
    for (const kind of ['dhcid', 'records'] as const) {
      const after = held[kind] + before[kind] + growth[kind];
      if (growth[kind] > 0 && after > quota[kind]) {
        const what = kind === 'dhcid' ? 'DHCID records kept by the gateway' : 'records created at the provider';
        const holds = held[kind] + before[kind];
        return (
          `the key ${key} may hold at most ${quota[kind]} ${what} in ${this.zone} (it holds ${holds}); ` +
          `remove stale ones, or raise it with quota "${key}" ${kind} N; in the keys file`
        );
      }
    }
    this.pending.set(key, { dhcid: before.dhcid + growth.dhcid, records: before.records + growth.records });
    this.admitted.push({ key, changes });
    return undefined;
  }

  /** The batch's writes were made: the ledger takes its admitted changes. */
  commit(): void {
    if (this.admitted.some(({ changes }) => changes.length)) this.ledger.record(this.zone, this.admitted);
  }
}
