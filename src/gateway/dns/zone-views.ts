// What the gateway answers queries from: each served zone as last read from the provider, a
// zone view (src/dns/server/zone-view.ts) fed the provider's records directly, with an SOA naming
// the gateway as primary (so nsupdate and its kin send updates here) and NS records (the zone's
// own apex NS, or the gateway's name). The serial is the time of the change in seconds (one
// more when two changes fall in the same second): it grows with every change seen, and across
// restarts from the last one served (serial-store.ts), by RFC 1982's arithmetic, whatever the
// clock says. A reading (the whole zone, or the few names an update read) changes the view only
// where an owner changed: an update of one name costs that name, not the zone (a
// 100,000-record zone re-indexed at every update stalled queries for seconds).
import type { ZoneIndex } from '../../dns/server/authority.js';
import { ServedZones, SOA_TTL, ZoneView, type SoaRecord } from '../../dns/server/zone-view.js';
import { nameKey } from '../../dns/wire/names.js';
import type { DnsRecord } from '../../dns/wire/types.js';
import type { ZoneProvider } from '../../zone/provider/provider-zone.js';
import type { LiveRecord } from '../../zone/record.js';
import { servedRecord } from '../../zone/provider/served-record.js';
import { nextSerial, SerialStore } from './serial-store.js';

interface Served {
  view: ZoneView;
  /** The provider's records at each owner, and in all (as last read): what reading the whole zone costs. */
  counts: Map<string, number>;
  records: number;
  /**
   * When (a count of readings shown) each owner was last shown from a reading of its names, while a whole-zone refresh
   * may be under way.
   */
  patched: Map<string, number>;
  /** When the zone was last shown from a whole listing. */
  shownWhole: number;
}

export class ZoneViews {
  private readonly zones = new Map<string, Served>();
  /** What queries are answered from (server.ts). */
  readonly served = new ServedZones();
  /**
   * Whether the provider's `filter` was seen to find a name's entries in each zone (filter-probe.ts); until it was,
   * updates read the zone whole.
   */
  readonly filterFinds = new Map<string, boolean>();
  /** Readings shown so far: a refresh's listing is older than any shown after it began. */
  private readings = 0;
  /** Per zone, how many times the gateway's own updates showed what they changed (showNames). */
  private readonly ownShows = new Map<string, number>();

  constructor(
    zones: string[],
    private readonly providerOf: (zone: string) => ZoneProvider,
    private readonly primaryName: string,
    private readonly now: () => number = () => Math.floor(Date.now() / 1000),
    /** Told of each change after the first reading (for NOTIFY). */
    private readonly onChange?: (zone: string, soa: SoaRecord) => void,
    /**
     * Records the gateway keeps itself beside the provider's (DHCID, dhcid/store.ts): answered, transferred, in the
     * serial; those at `names` when given.
     */
    private readonly keptByGateway: (zone: string, names?: string[]) => DnsRecord[] = () => [],
    /** The last serial served for each zone, by this run or an earlier one. */
    private readonly serials: SerialStore = SerialStore.inMemory(),
  ) {
    for (const zone of zones) {
      const view = new ZoneView(zone, {
        primary: primaryName,
        digest: true,
        nextSerial: (current, digest) => this.nextSerialOf(zone, current, digest),
      });
      this.served.set(view);
      this.zones.set(zone, { view, counts: new Map(), records: 0, patched: new Map(), shownWhole: 0 });
    }
  }

  /** The content an earlier run served keeps its serial; any other gets one above the last served. */
  private nextSerialOf(zone: string, current: number | undefined, digest: string): number {
    const before = this.serials.get(zone);
    const serial =
      current === undefined && before?.digest === digest
        ? before.serial
        : nextSerial(current ?? before?.serial, this.now());
    if (before?.serial !== serial || before.digest !== digest) this.serials.set(zone, { serial, digest });
    return serial;
  }

  /**
   * Grows with every re-index of any zone: answers cached before it moved are stale (src/dns/server/answer-cache.ts).
   */
  get version(): number {
    return this.served.version;
  }

  get names(): string[] {
    return [...this.zones.keys()];
  }

  /** The served zone holding a name key (the longest that matches), if any. */
  zoneOf(key: string): string | undefined {
    return this.served.zoneOf(key)?.apex;
  }

  index(zone: string): ZoneIndex | undefined {
    return this.zones.get(zone)?.view.index;
  }

  /** The serial the zone is served with (0 before the first reading). */
  serial(zone: string): number {
    return this.zones.get(zone)?.view.serial ?? 0;
  }

  /**
   * Grows each time the gateway's own updates show what they changed: a refresh that saw one may have seen the
   * gateway's own write.
   */
  ownChanges(zone: string): number {
    return this.ownShows.get(zone) ?? 0;
  }

  /** How many records the provider held at the last reading (0 before the first). */
  size(zone: string): number {
    return this.zones.get(zone)?.records ?? 0;
  }

  /**
   * How many of the provider's records (as last read) a service/dnslist `filter` would list:
   * those whose name contains it, case aside (as the sandbox and, as far as is known, the
   * provider match it). Counting stops once past `atMost`: a name that is a suffix of many
   * (a parent, the apex) is known to be costly without counting all of it.
   */
  filterMatches(zone: string, filter: string, atMost = Number.POSITIVE_INFINITY): number {
    const counts = this.zones.get(zone)?.counts;
    if (!counts) return 0;
    const text = nameKey(filter);
    let matches = 0;
    for (const [owner, count] of counts) {
      if (!owner.includes(text)) continue;
      matches += count;
      if (matches > atMost) break;
    }
    return matches;
  }

  /**
   * Reads the zone from the provider and re-indexes what changed; returns the listing. A
   * listing of many pages takes seconds: an update made meanwhile showed its names from a later
   * reading, and those owners keep what it showed (an attack saw the old value answered, with a
   * new serial and a NOTIFY, until the next refresh). A zone shown whole meanwhile (by an
   * update's reading) is not shown again from this older listing.
   */
  async refresh(zone: string): Promise<LiveRecord[]> {
    const began = this.readings;
    const live = await this.providerOf(zone).list();
    this.show(zone, live, began);
    return live;
  }

  /**
   * Shows a listing of the whole zone already read: owners it lacks are gone. `began` (a
   * refresh's): what was shown since it began is newer than the listing, and stays.
   */
  show(zone: string, live: LiveRecord[], began?: number): void {
    const served = this.zones.get(zone);
    if (!served) return;
    if (began !== undefined && served.shownWhole > began) return;
    const newer =
      began === undefined
        ? new Set<string>()
        : new Set([...served.patched].filter(([, at]) => at > began).map(([owner]) => owner));
    // Every owner seen before is looked at again: one the listing lacks is gone.
    const { byOwner, counts } = this.grouped(zone, live, this.keptByGateway(zone), [
      nameKey(zone),
      ...(served.view.index?.nodes.keys() ?? []),
    ]);
    let records = live.length;
    for (const owner of newer) {
      byOwner.delete(owner);
      records += (served.counts.get(owner) ?? 0) - (counts.get(owner) ?? 0);
      if (served.counts.has(owner)) counts.set(owner, served.counts.get(owner)!);
      else counts.delete(owner);
    }
    served.counts = counts;
    served.records = records;
    // Marks older than this listing are of no more use; those newer are kept for a refresh begun after them.
    served.patched = new Map([...served.patched].filter(([owner]) => newer.has(owner)));
    if (began === undefined) served.shownWhole = ++this.readings;
    this.apply(zone, served, byOwner);
  }

  /**
   * Shows what the provider holds at `names` (a listing of those names only, read afresh, or as
   * an update left them); the rest of the zone stays as it was seen.
   */
  showNames(zone: string, names: Iterable<string>, live: LiveRecord[]): void {
    const served = this.zones.get(zone);
    if (!served?.view.index) return;
    this.ownShows.set(zone, this.ownChanges(zone) + 1);
    const asked = [...new Set([...names].map(nameKey))];
    const at = ++this.readings;
    for (const owner of asked) served.patched.set(owner, at);
    const { byOwner, counts } = this.grouped(zone, live, this.keptByGateway(zone, asked), asked);
    for (const owner of byOwner.keys()) {
      const count = counts.get(owner) ?? 0;
      served.records += count - (served.counts.get(owner) ?? 0);
      if (count) served.counts.set(owner, count);
      else served.counts.delete(owner);
    }
    this.apply(zone, served, byOwner);
  }

  /**
   * The DNS records of a listing (and of the gateway's own records) by owner key, `owners` among them even when empty;
   * and the listing's records by owner.
   */
  private grouped(
    zone: string,
    live: LiveRecord[],
    kept: DnsRecord[],
    owners: Iterable<string>,
  ): { byOwner: Map<string, DnsRecord[]>; counts: Map<string, number> } {
    const byOwner = new Map<string, DnsRecord[]>();
    for (const owner of owners) byOwner.set(owner, []);
    const counts = new Map<string, number>();
    const add = (record: DnsRecord) => {
      const key = nameKey(record.name);
      const list = byOwner.get(key);
      if (list) list.push(record);
      else byOwner.set(key, [record]);
    };
    kept.forEach(add);
    for (const r of live) {
      const key = nameKey(r.name);
      counts.set(key, (counts.get(key) ?? 0) + 1);
      const record = servedRecord(r);
      if (record && record.type !== 'SOA') add(record);
    }
    // The apex answers NS: the zone's own, else the gateway's name.
    const apex = byOwner.get(nameKey(zone));
    if (apex && !apex.some((r) => r.type === 'NS'))
      apex.push({ name: zone, type: 'NS', ttl: SOA_TTL, value: this.primaryName });
    return { byOwner, counts };
  }

  /**
   * Shows the owners to the zone's view: those whose content changed are re-indexed, and the secondaries told (after
   * the first reading).
   */
  private apply(zone: string, served: Served, byOwner: Map<string, DnsRecord[]>): void {
    const first = !served.view.index;
    const soa = this.served.show(served.view, byOwner);
    if (soa && !first) this.onChange?.(zone, soa);
  }
}
