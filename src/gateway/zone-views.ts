// What the gateway answers queries from: each served zone as last read from the provider,
// indexed by the shared answer engine (src/dns/authority.ts), with an SOA naming the gateway
// as primary (so nsupdate and its kin send updates here) and NS records (the zone's own apex
// NS, or the gateway's name). The serial is the time of the change in seconds (one more when
// two changes fall in the same second): it grows with every change seen, and across restarts
// from the last one served (serial-store.ts), by RFC 1982's arithmetic, whatever the clock says.
import type { DnsEntry } from '../api/endpoints/service.js';
import { buildZoneIndex, type ZoneIndex } from '../dns/authority.js';
import { atOrBelow } from '../dns/names.js';
import type { DnsRecord } from '../dns/types.js';
import { recordOfEntry } from '../sandbox/dns/entry-records.js';
import type { ZoneProvider } from '../zone/provider-zone.js';
import { toProvider } from '../zone/provider-mapping.js';
import type { LiveRecord } from '../zone/record.js';
import { contentDigest, nextSerial, SerialStore } from './serial-store.js';

/** The negative-answer TTL: short, so ACME checks see a new challenge soon. */
export const NEGATIVE_TTL = 60;
const SOA_TTL = 300;

interface Served {
  index?: ZoneIndex;
  fingerprint?: string;
  serial?: number;
}

export class ZoneViews {
  private readonly zones = new Map<string, Served>();
  private changes = 0;

  constructor(
    zones: string[],
    private readonly providerOf: (zone: string) => ZoneProvider,
    private readonly primaryName: string,
    private readonly now: () => number = () => Math.floor(Date.now() / 1000),
    /** Told of each change after the first reading (for NOTIFY). */
    private readonly onChange?: (zone: string, soa: DnsRecord & { type: 'SOA' }) => void,
    /** Records the gateway keeps itself beside the provider's (DHCID, dhcid-store.ts): answered, transferred, in the serial. */
    private readonly keptByGateway: (zone: string) => DnsRecord[] = () => [],
    /** The last serial served for each zone, by this run or an earlier one. */
    private readonly serials: SerialStore = SerialStore.inMemory(),
  ) {
    for (const zone of zones) this.zones.set(zone, {});
  }

  /** Grows with every re-index of any zone: answers cached before it moved are stale (src/dns/answer-cache.ts). */
  get version(): number {
    return this.changes;
  }

  get names(): string[] {
    return [...this.zones.keys()];
  }

  /** The served zone holding a name key (the longest that matches), if any. */
  zoneOf(key: string): string | undefined {
    let best: string | undefined;
    for (const zone of this.zones.keys()) if (atOrBelow(key, zone) && (!best || zone.length > best.length)) best = zone;
    return best;
  }

  index(zone: string): ZoneIndex | undefined {
    return this.zones.get(zone)?.index;
  }

  /** Reads the zone from the provider and re-indexes it when its content changed; returns the listing. */
  async refresh(zone: string): Promise<LiveRecord[]> {
    const live = await this.providerOf(zone).list();
    this.show(zone, live);
    return live;
  }

  /** Indexes a listing already read (an update reads the zone afresh anyway). */
  show(zone: string, live: LiveRecord[]): void {
    const served = this.zones.get(zone);
    if (!served) return;
    const kept = this.keptByGateway(zone);
    const fingerprint = [...live.map((r) => `${r.name} ${r.type} ${r.ttl ?? '-'} ${r.priority ?? '-'} ${r.value}`), ...kept.map((r) => `${r.name} ${r.type} ${r.ttl} kept ${JSON.stringify(r.value)}`)].sort().join('\n');
    if (served.index && served.fingerprint === fingerprint) return;
    const first = !served.index;
    const digest = contentDigest(fingerprint);
    const before = this.serials.get(zone);
    // The content an earlier run served keeps its serial; any other gets one above the last served.
    served.serial = first && before?.digest === digest ? before.serial : nextSerial(served.serial ?? before?.serial, this.now());
    if (before?.serial !== served.serial || before.digest !== digest) this.serials.set(zone, { serial: served.serial, digest });
    served.fingerprint = fingerprint;
    served.index = this.build(zone, live, served.serial, kept);
    this.changes++;
    if (!first) this.onChange?.(zone, served.index.soa);
  }

  private build(zone: string, live: LiveRecord[], serial: number, kept: DnsRecord[]): ZoneIndex {
    const records: DnsRecord[] = [...kept];
    for (const r of live) {
      const fields = toProvider(r);
      // A TXT value is the text as read (an empty one is held as the characters "" at the provider, read back as empty).
      const value = r.type === 'TXT' ? r.value : fields.value;
      const entry: DnsEntry = { entityID: r.entityID, name: fields.name, type: fields.type, ttl: fields.ttl === undefined ? '-' : String(fields.ttl), priority: fields.priority === undefined ? '-' : String(fields.priority), value };
      const record = recordOfEntry(entry, r.name);
      if (record && record.type !== 'SOA') records.push(record);
    }
    if (!records.some((r) => r.type === 'NS' && r.name === zone)) records.push({ name: zone, type: 'NS', ttl: SOA_TTL, value: this.primaryName });
    const soa: DnsRecord & { type: 'SOA' } = {
      name: zone,
      type: 'SOA',
      ttl: SOA_TTL,
      value: { mname: this.primaryName, rname: `hostmaster.${zone}`, serial, refresh: 3600, retry: 600, expire: 604800, minimum: NEGATIVE_TTL },
    };
    return buildZoneIndex(zone, soa, records);
  }
}
