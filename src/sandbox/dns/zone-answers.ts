// What the sandbox's name server answers for one question, read from its model: the records
// of the service's zone, plus an SOA and, when the zone has none of its own, an NS
// `ns1.<zone>` whose address is the sandbox's. Each zone is indexed (src/dns/server/authority.ts) and
// re-indexed only after the model changed (model-watch.ts) and its entries did, so API changes
// are answered at once and a question costs O(answer), not O(zone).
import { answerFromZone, buildZoneIndex, type ZoneAnswer, type ZoneIndex } from '../../dns/server/authority.js';
import { nameKey } from '../../dns/wire/names.js';
import { atOrBelow } from '../../lib/names.js';
import { RCODE, type DnsRecord, type SoaValue } from '../../dns/wire/types.js';
import type { SandboxModel, SandboxService } from '../model.js';
import { DEFAULT_TTL, recordOfEntry } from '../../zone/provider/entry-records.js';
import { generationOf } from './model-watch.js';

export type { ZoneAnswer };

/** Where the synthesised name server of each zone says it is (the listen address). */
export interface NameServerAddress {
  A?: string;
  AAAA?: string;
}

/** The negative-answer TTL (SOA minimum): short, so tests and ACME checks see changes soon. */
const NEGATIVE_TTL = 60;

/**
 * Each zone's index, rebuilt only when its entries change, and serials that grow when they do.
 * After a change anywhere in the model, each zone's entries are fingerprinted once, at its next
 * question; between changes a question reads no entry.
 */
export class ZoneCache {
  private readonly known = new Map<string, { generation: number; fingerprint: number; serial: number; view: ZoneIndex }>();
  private readonly base = Math.floor(Date.now() / 1000);
  /** The model's services as a plain array, taken once per change: reading the watched list costs a proxy trap per item. */
  private services: { generation: number; list: SandboxService[] } | undefined;

  constructor(private readonly nsAddress: NameServerAddress) {}

  /** The zone (service) holding a name key: the longest service name it ends with. */
  serviceOf(model: SandboxModel, key: string): SandboxService | undefined {
    const generation = generationOf(model);
    if (this.services?.generation !== generation) this.services = { generation, list: [...model.services] };
    return zoneOf(this.services.list, key);
  }

  viewOf(model: SandboxModel, service: SandboxService): ZoneIndex {
    const generation = generationOf(model);
    const seen = this.known.get(service.name);
    if (seen?.generation === generation) return seen.view;
    const fingerprint = fingerprintOf(service);
    if (seen?.fingerprint === fingerprint) {
      seen.generation = generation;
      return seen.view;
    }
    const serial = seen ? (seen.serial + 1) >>> 0 : this.base;
    const view = buildView(service, serial, this.nsAddress);
    this.known.set(service.name, { generation, fingerprint, serial, view });
    return view;
  }
}

/** FNV-1a over every field of every entry. */
function fingerprintOf(service: SandboxService): number {
  let hash = 0x811c9dc5;
  const mix = (text: string) => {
    for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
    hash = Math.imul(hash ^ 0xff, 0x01000193);
  };
  for (const e of service.dns) {
    mix(e.name);
    mix(e.type);
    mix(e.ttl);
    mix(e.priority);
    mix(e.value);
  }
  return hash;
}

/** The zone (service) holding a name: the longest service name it ends with. */
function zoneOf(services: SandboxService[], key: string): SandboxService | undefined {
  let best: SandboxService | undefined;
  for (const s of services) {
    if (atOrBelow(key, s.name) && (!best || s.name.length > best.name.length)) best = s;
  }
  return best;
}

function buildView(service: SandboxService, serial: number, nsAddress: NameServerAddress): ZoneIndex {
  const apex = service.name;
  const records: DnsRecord[] = [];
  const owners = new Set<string>();
  for (const entry of service.dns) {
    let key: string;
    try {
      // The API stores full names; a relative one (or `@`) is read as the provider reads it.
      const name = entry.name.trim() === '@' || entry.name.trim() === '' ? apex : nameKey(entry.name);
      key = atOrBelow(name, apex) ? name : nameKey(`${name}.${apex}`);
    } catch {
      continue;
    }
    const record = recordOfEntry(entry, key);
    if (record) {
      records.push(record);
      owners.add(key);
    }
  }
  const ownNs = records.filter((r) => r.type === 'NS' && r.name === apex);
  const nsName = (ownNs[0]?.value as string | undefined) ?? `ns1.${apex}`;
  if (!ownNs.length) {
    records.push({ name: apex, type: 'NS', ttl: DEFAULT_TTL, value: nsName });
    if (!owners.has(nsName)) for (const type of ['A', 'AAAA'] as const) if (nsAddress[type]) records.push({ name: nsName, type, ttl: DEFAULT_TTL, value: nsAddress[type] });
  }
  const soaValue: SoaValue = { mname: nsName, rname: `hostmaster.${apex}`, serial, refresh: 3600, retry: 600, expire: 604800, minimum: NEGATIVE_TTL };
  return buildZoneIndex(apex, { name: apex, type: 'SOA', ttl: DEFAULT_TTL, value: soaValue }, records);
}

/** The answer to one question of class IN. */
export function answerQuestion(model: SandboxModel, qname: string, qtype: number, zones: ZoneCache): ZoneAnswer {
  const service = zones.serviceOf(model, nameKey(qname));
  if (!service) return { rcode: RCODE.REFUSED, authoritative: false, answers: [], authority: [], additional: [] };
  return answerFromZone(zones.viewOf(model, service), qname, qtype, NEGATIVE_TTL);
}
