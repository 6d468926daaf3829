// What the sandbox's name server answers from: each service of the model as a served zone
// (src/dns/server/zone-view.ts), plus an NS `ns1.<zone>` whose address is the sandbox's when the
// zone has none of its own (the view adds the SOA). The model is watched (model-watch.ts): a
// write tells what it touched, and at the next question only that is read again and shown to
// the zone's view, which changes its index in place. An entry edited or appended costs its
// owner; a list changed otherwise (a delete splices it, an import replaces it) is walked by
// identity, each entry's record kept from before unless the entry itself changed; a question
// between changes reads no entry.
import { ServedZones, ZoneView, type SoaRecord } from '../../dns/server/zone-view.js';
import type { ZoneAnswer } from '../../dns/server/authority.js';
import { nameKey } from '../../dns/wire/names.js';
import { atOrBelow } from '../../lib/names.js';
import type { DnsRecord } from '../../dns/wire/types.js';
import type { DnsEntry } from '../../api/endpoints/service.js';
import type { SandboxModel, SandboxService } from '../model.js';
import { recordOfEntry } from '../../zone/provider/entry-records.js';
import { DEFAULT_TTL } from '../../zone/provider/entry-fields.js';
import { arrayOf, watchModel, type ModelChange } from './model-watch.js';

/** Where the synthesised name server of each zone says it is (the listen address). */
export interface NameServerAddress {
  A?: string;
  AAAA?: string;
}

/** An entry as last read: its owner key (none when its name cannot be one) and the record it is served as. */
interface Held {
  /** Its place in the list, as last known: the order of an owner's records is the list's. */
  seq: number;
  /** The walk of the list that last saw it. */
  seen: number;
  key: string | undefined;
  record: DnsRecord | undefined;
}

/** One service's zone: its entries as last read, by owner. */
class ServiceZone {
  readonly apex: string;
  readonly view: ZoneView;
  list: DnsEntry[];
  readonly held = new Map<DnsEntry, Held>();
  /** The entries at each owner key, in list order. */
  owners = new Map<string, DnsEntry[]>();
  private nextSeq = 0;
  private walks = 0;
  /** Changes seen since the last sync. */
  walk = true;
  readonly appended: DnsEntry[] = [];
  readonly edited = new Set<DnsEntry>();

  constructor(
    readonly service: SandboxService,
    private readonly nsAddress: NameServerAddress,
    nextSerial: (apex: string, current: number | undefined) => number,
  ) {
    this.apex = service.name;
    this.list = service.dns;
    this.view = new ZoneView(this.apex, { nextSerial: (current) => nextSerial(this.apex, current) });
  }

  get dirty(): boolean {
    return this.walk || this.appended.length > 0 || this.edited.size > 0;
  }

  /** The owners whose records may have changed since the last sync, with their records now. */
  changes(): Map<string, DnsRecord[]> {
    return this.recordsOf(this.settle());
  }

  /** Every owner's records (the first showing). */
  all(): Map<string, DnsRecord[]> {
    this.settle();
    return this.recordsOf([this.apex, `ns1.${this.apex}`, ...this.owners.keys()]);
  }

  /** Reads what changed since the last sync; returns the owner keys it touched. */
  private settle(): Set<string> {
    const touched = new Set<string | undefined>();
    if (this.walk) this.walkList(touched);
    else {
      for (const entry of this.appended) this.append(entry, touched);
      for (const entry of this.edited) this.reread(entry, touched);
    }
    this.walk = false;
    this.appended.length = 0;
    this.edited.clear();
    touched.delete(undefined);
    // The apex's NS and the glue of `ns1.<zone>` depend on each other.
    const ns1 = `ns1.${this.apex}`;
    if (touched.has(this.apex) || touched.has(ns1)) {
      touched.add(this.apex);
      touched.add(ns1);
    }
    return touched as Set<string>;
  }

  private recordsOf(keys: Iterable<string>): Map<string, DnsRecord[]> {
    const owners = new Map<string, DnsRecord[]>();
    const apexNs = this.apexHasNs();
    for (const key of keys) owners.set(key, this.recordsAt(key, apexNs));
    return owners;
  }

  private served(key: string): DnsRecord[] {
    const records: DnsRecord[] = [];
    for (const entry of this.owners.get(key) ?? []) {
      const record = this.held.get(entry)?.record;
      if (record) records.push(record);
    }
    return records;
  }

  /** Whether the zone's own entries give the apex an NS (else the sandbox's `ns1.<zone>` is added). */
  private apexHasNs(): boolean {
    return this.served(this.apex).some((r) => r.type === 'NS');
  }

  private recordsAt(key: string, apexNs: boolean): DnsRecord[] {
    const records = this.served(key);
    if (apexNs) return records;
    const nsName = `ns1.${this.apex}`;
    if (key === this.apex) records.push({ name: this.apex, type: 'NS', ttl: DEFAULT_TTL, value: nsName });
    else if (key === nsName && !records.length)
      for (const type of ['A', 'AAAA'] as const)
        if (this.nsAddress[type]) records.push({ name: nsName, type, ttl: DEFAULT_TTL, value: this.nsAddress[type] });
    return records;
  }

  /** The owner key and record of an entry, read from its fields now. */
  private read(entry: DnsEntry): Pick<Held, 'key' | 'record'> {
    const apex = this.apex;
    let key: string;
    try {
      // The API stores full names; a relative one (or `@`) is read as the provider reads it.
      const name = entry.name.trim() === '@' || entry.name.trim() === '' ? apex : nameKey(entry.name);
      key = atOrBelow(name, apex) ? name : nameKey(`${name}.${apex}`);
    } catch {
      return { key: undefined, record: undefined };
    }
    return { key, record: recordOfEntry(entry, key) };
  }

  private place(entry: DnsEntry, key: string | undefined, seq: number): void {
    if (key === undefined) return;
    const at = this.owners.get(key);
    if (!at) return void this.owners.set(key, [entry]);
    // In list order: after every entry placed before it.
    let i = at.length;
    while (i > 0 && (this.held.get(at[i - 1]!)?.seq ?? -1) > seq) i--;
    at.splice(i, 0, entry);
  }

  private unplace(entry: DnsEntry, key: string | undefined): void {
    if (key === undefined) return;
    const at = this.owners.get(key);
    const i = at?.indexOf(entry) ?? -1;
    if (i < 0) return;
    at!.splice(i, 1);
    if (!at!.length) this.owners.delete(key);
  }

  private append(entry: DnsEntry, touched: Set<string | undefined>): void {
    if (this.held.has(entry)) return void this.walkList(touched);
    const { key, record } = this.read(entry);
    const held: Held = { seq: this.nextSeq++, seen: this.walks, key, record };
    this.held.set(entry, held);
    this.place(entry, held.key, held.seq);
    touched.add(held.key);
  }

  private reread(entry: DnsEntry, touched: Set<string | undefined>): void {
    const held = this.held.get(entry);
    if (!held) return;
    const now = this.read(entry);
    touched.add(held.key);
    touched.add(now.key);
    if (now.key !== held.key) {
      this.unplace(entry, held.key);
      held.key = now.key;
      this.place(entry, held.key, held.seq);
    }
    held.record = now.record;
  }

  /**
   * Reads the list again by identity: entries gone or new touch their owners, each entry kept
   * keeps its record. When the entries kept are still in the same order (a delete, or anything
   * but a reordering), only those gone and those new move in the owners' lists; otherwise the
   * lists are made again from the list.
   */
  private walkList(touched: Set<string | undefined>): void {
    this.list = this.service.dns;
    const list = arrayOf(this.list);
    const walk = ++this.walks;
    /** The places of entries not held before. */
    const fresh: number[] = [];
    let last = -1;
    let inOrder = true;
    for (let i = 0; i < list.length; i++) {
      const entry = list[i]!;
      const held = this.held.get(entry);
      if (!held) {
        fresh.push(i);
        continue;
      }
      // Seen twice in this walk (one entry twice in the list), or behind one before it: not in the same order.
      if (held.seen === walk || held.seq < last) inOrder = false;
      last = held.seq;
      held.seq = i;
      held.seen = walk;
    }
    this.nextSeq = list.length;
    for (const [entry, held] of this.held) {
      if (held.seen === walk) continue;
      this.held.delete(entry);
      this.unplace(entry, held.key);
      touched.add(held.key);
    }
    for (const seq of fresh) {
      const entry = list[seq]!;
      const { key, record } = this.read(entry);
      const held: Held = { seq, seen: walk, key, record };
      // One new entry twice in the list: read once, placed by the rebuild below.
      if (this.held.has(entry)) inOrder = false;
      this.held.set(entry, held);
      touched.add(held.key);
      if (inOrder) this.place(entry, held.key, seq);
    }
    for (const entry of this.edited) if (this.held.has(entry)) this.reread(entry, touched);
    if (inOrder) return;
    // The owners' lists made again in list order; an owner whose entries moved is touched.
    const before = this.owners;
    const owners = new Map<string, DnsEntry[]>();
    for (const entry of list) {
      const key = this.held.get(entry)?.key;
      if (key === undefined) continue;
      const at = owners.get(key);
      if (at) at.push(entry);
      else owners.set(key, [entry]);
    }
    for (const [key, entries] of owners) {
      const was = before.get(key);
      if (!was || was.length !== entries.length || was.some((e, i) => e !== entries[i])) touched.add(key);
    }
    for (const key of before.keys()) if (!owners.has(key)) touched.add(key);
    this.owners = owners;
  }
}

/**
 * The model's services as served zones, each re-read where a write touched it, at the next
 * question (or sync) after the write. Serials start at the time the sandbox started and grow by
 * one with each change of a zone's answers.
 */
export class ModelZones {
  readonly served = new ServedZones();
  private readonly zones = new Map<SandboxService, ServiceZone>();
  /** The last serial of each zone name: a zone that goes and comes back goes on from it. */
  private readonly serials = new Map<string, number>();
  private readonly base = Math.floor(Date.now() / 1000);
  private servicesChanged = true;
  private pending = true;
  private readonly unwatch: () => void;

  constructor(
    private readonly model: SandboxModel,
    private readonly nsAddress: NameServerAddress,
  ) {
    this.unwatch = watchModel(model, (change) => this.note(change));
  }

  /** Stops watching the model. */
  close(): void {
    this.unwatch();
  }

  /** The answer to one question of class IN. */
  answer(qname: string, qtype: number): ZoneAnswer {
    this.sync();
    return this.served.answer(qname, qtype);
  }

  private note(change: ModelChange): void {
    this.pending = true;
    switch (change.kind) {
      case 'services':
        this.servicesChanged = true;
        return;
      case 'list':
        for (const zone of this.zones.values())
          if (zone.list === change.list || zone.service === change.service) zone.walk = true;
        return;
      case 'append':
        for (const zone of this.zones.values())
          if (zone.list === change.list && !zone.walk) zone.appended.push(change.entry);
        return;
      case 'entry':
        for (const zone of this.zones.values()) if (zone.held.has(change.entry)) zone.edited.add(change.entry);
        return;
    }
  }

  /** Shows each zone what changed since the last sync. */
  sync(): void {
    if (!this.pending) return;
    this.pending = false;
    if (this.servicesChanged) this.syncServices();
    for (const zone of this.zones.values()) {
      // A service renamed is another zone.
      if (zone.service.name !== zone.apex) this.servicesChanged = true;
      else if (zone.dirty) this.show(zone, zone.changes());
    }
    if (this.servicesChanged) {
      this.syncServices();
      for (const zone of this.zones.values()) if (zone.dirty) this.show(zone, zone.changes());
    }
  }

  private show(zone: ServiceZone, owners: Map<string, DnsRecord[]>): SoaRecord | undefined {
    const soa = this.served.show(zone.view, owners);
    if (soa) this.serials.set(zone.apex, soa.value.serial);
    return soa;
  }

  /** Zones for services new or renamed, none for those gone; the first service of a name is its zone. */
  private syncServices(): void {
    this.servicesChanged = false;
    const services = [...this.model.services];
    const current = new Set(services);
    for (const [service, zone] of this.zones) {
      if (current.has(service) && service.name === zone.apex) continue;
      this.zones.delete(service);
      if (this.served.get(nameKey(zone.apex)) === zone.view) this.served.delete(nameKey(zone.apex));
    }
    const apexes = new Set<string>();
    for (const service of services) {
      if (apexes.has(service.name)) continue;
      apexes.add(service.name);
      if (this.zones.has(service)) continue;
      const zone = new ServiceZone(service, this.nsAddress, (apex, serial) =>
        serial === undefined
          ? this.serials.has(apex)
            ? (this.serials.get(apex)! + 1) >>> 0
            : this.base
          : (serial + 1) >>> 0,
      );
      this.zones.set(service, zone);
      this.served.set(zone.view);
      this.show(zone, zone.all());
    }
  }
}
