// What an authoritative server answers for one question, read from the sandbox's model at
// the moment of the question (so API changes show at once): the records of the service's
// zone, plus an SOA and, when the zone has none of its own, an NS `ns1.<zone>` whose address
// is the sandbox's. CNAMEs are followed inside the zone, `*.` wildcards match names that do
// not exist, NS records below the apex are delegations (referrals), NXDOMAIN and NODATA carry
// the SOA in the authority section (RFC 2308).
import { nameKey } from '../../dns/names.js';
import { RCODE, TYPE_CODES, type DnsRecord, type SoaValue } from '../../dns/types.js';
import type { SandboxModel, SandboxService } from '../model.js';
import { DEFAULT_TTL, recordOfEntry } from './entry-records.js';

export interface ZoneAnswer {
  rcode: number;
  authoritative: boolean;
  answers: DnsRecord[];
  authority: DnsRecord[];
  additional: DnsRecord[];
}

/** Where the synthesised name server of each zone says it is (the listen address). */
export interface NameServerAddress {
  A?: string;
  AAAA?: string;
}

/** The negative-answer TTL (SOA minimum): short, so tests and ACME checks see changes soon. */
const NEGATIVE_TTL = 60;
/** CNAME hops followed inside a zone before answering with what there is. */
const MAX_CNAME_HOPS = 8;

/**
 * Each zone's view, rebuilt only when its entries change, and serials that grow when they do:
 * a fingerprint of the entries is taken at each question (cheap next to building the view),
 * so an API change is answered at once and a secondary (or a test) sees the serial move.
 */
export class ZoneCache {
  private readonly known = new Map<string, { fingerprint: number; serial: number; view: ZoneView }>();
  private readonly base = Math.floor(Date.now() / 1000);

  constructor(private readonly nsAddress: NameServerAddress) {}

  viewOf(service: SandboxService): ZoneView {
    const fingerprint = fingerprintOf(service);
    const seen = this.known.get(service.name);
    if (seen?.fingerprint === fingerprint) return seen.view;
    const serial = seen ? (seen.serial + 1) >>> 0 : this.base;
    const view = buildView(service, serial, this.nsAddress);
    this.known.set(service.name, { fingerprint, serial, view });
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
export function zoneOf(model: SandboxModel, key: string): SandboxService | undefined {
  let best: SandboxService | undefined;
  for (const s of model.services) {
    if ((key === s.name || key.endsWith(`.${s.name}`)) && (!best || s.name.length > best.name.length)) best = s;
  }
  return best;
}

interface ZoneView {
  apex: string;
  /** Records by owner (lower case), owners written as the zone holds them. */
  nodes: Map<string, DnsRecord[]>;
  /** Every owner and every name between an owner and the apex (empty non-terminals exist). */
  existing: Set<string>;
  /** Delegations: NS records of names below the apex, by name. */
  cuts: Map<string, DnsRecord[]>;
  soa: DnsRecord;
}

function buildView(service: SandboxService, serial: number, nsAddress: NameServerAddress): ZoneView {
  const apex = service.name;
  const nodes = new Map<string, DnsRecord[]>();
  const add = (record: DnsRecord) => {
    const key = record.name.toLowerCase();
    nodes.set(key, [...(nodes.get(key) ?? []), record]);
  };
  for (const entry of service.dns) {
    let key: string;
    try {
      // The API stores full names; a relative one (or `@`) is read as the provider reads it.
      const name = entry.name.trim() === '@' || entry.name.trim() === '' ? apex : nameKey(entry.name);
      key = name === apex || name.endsWith(`.${apex}`) ? name : nameKey(`${name}.${apex}`);
    } catch {
      continue;
    }
    const record = recordOfEntry(entry, key);
    if (record) add(record);
  }
  const apexRecords = nodes.get(apex) ?? [];
  const ownNs = apexRecords.filter((r) => r.type === 'NS');
  const nsName = ownNs[0]?.value as string | undefined ?? `ns1.${apex}`;
  if (!ownNs.length) {
    add({ name: apex, type: 'NS', ttl: DEFAULT_TTL, value: nsName });
    if (!nodes.has(nsName)) for (const type of ['A', 'AAAA'] as const) if (nsAddress[type]) add({ name: nsName, type, ttl: DEFAULT_TTL, value: nsAddress[type] });
  }
  const soaValue: SoaValue = { mname: nsName, rname: `hostmaster.${apex}`, serial, refresh: 3600, retry: 600, expire: 604800, minimum: NEGATIVE_TTL };
  const soa: DnsRecord = { name: apex, type: 'SOA', ttl: DEFAULT_TTL, value: soaValue };
  add(soa);
  const existing = new Set<string>();
  for (const owner of nodes.keys()) {
    for (let name = owner; name.length >= apex.length; name = name.slice(name.indexOf('.') + 1)) {
      existing.add(name);
      if (name === apex || !name.includes('.')) break;
    }
  }
  const cuts = new Map<string, DnsRecord[]>();
  for (const [owner, records] of nodes) {
    const ns = records.filter((r) => r.type === 'NS');
    if (owner !== apex && ns.length) cuts.set(owner, ns);
  }
  return { apex, nodes, existing, cuts, soa };
}

/** The answer to one question of class IN. */
export function answerQuestion(model: SandboxModel, qname: string, qtype: number, zones: ZoneCache): ZoneAnswer {
  const key = nameKey(qname);
  const service = zoneOf(model, key);
  if (!service) return { rcode: RCODE.REFUSED, authoritative: false, answers: [], authority: [], additional: [] };
  const zone = zones.viewOf(service);
  const negative = (): DnsRecord => ({ ...zone.soa, ttl: Math.min(zone.soa.ttl, NEGATIVE_TTL) });
  const answers: DnsRecord[] = [];
  const additional: DnsRecord[] = [];
  let owner = qname.replace(/\.$/, '');
  let current = key;
  for (let hop = 0; ; hop++) {
    const cut = delegationOf(zone, current);
    if (cut) {
      // Below a delegation the data is another server's: a referral, not authoritative (RFC 1034 4.3.2).
      const glue = cut.flatMap((ns) => (zone.nodes.get(nameKey(ns.value as string)) ?? []).filter((r) => r.type === 'A' || r.type === 'AAAA'));
      return { rcode: RCODE.NOERROR, authoritative: answers.length > 0, answers, authority: cut, additional: glue };
    }
    const records = recordsAt(zone, current);
    if (!records) return { rcode: RCODE.NXDOMAIN, authoritative: true, answers, authority: [negative()], additional };
    const cname = records.find((r) => r.type === 'CNAME');
    if (cname && qtype !== TYPE_CODES.CNAME && qtype !== TYPE_CODES.ANY) {
      answers.push({ ...cname, name: owner });
      const target = nameKey(cname.value as string);
      // Out of the zone, or too long a chain: the resolver follows it from here.
      if (hop >= MAX_CNAME_HOPS || (target !== zone.apex && !target.endsWith(`.${zone.apex}`))) break;
      owner = cname.value as string;
      current = target;
      continue;
    }
    const matching = records.filter((r) => qtype === TYPE_CODES.ANY || TYPE_CODES[r.type as keyof typeof TYPE_CODES] === qtype);
    if (!matching.length) return { rcode: RCODE.NOERROR, authoritative: true, answers, authority: [negative()], additional };
    answers.push(...matching.map((r) => ({ ...r, name: owner })));
    // Glue: the addresses of in-zone name servers, so a resolver need not ask again.
    for (const ns of matching) if (ns.type === 'NS') additional.push(...(zone.nodes.get(nameKey(ns.value)) ?? []).filter((r) => r.type === 'A' || r.type === 'AAAA'));
    break;
  }
  return { rcode: RCODE.NOERROR, authoritative: true, answers, authority: [], additional };
}

/** The NS records of the highest delegation at or above a name, if it lies below one. */
function delegationOf(zone: ZoneView, key: string): DnsRecord[] | undefined {
  if (!zone.cuts.size) return undefined;
  let found: DnsRecord[] | undefined;
  for (let name = key; name !== zone.apex && name.includes('.'); name = name.slice(name.indexOf('.') + 1)) found = zone.cuts.get(name) ?? found;
  return found;
}

/** The records at a name, those of the wildcard that covers it, [] for an empty non-terminal, undefined when it does not exist. */
function recordsAt(zone: ZoneView, key: string): DnsRecord[] | undefined {
  const own = zone.nodes.get(key);
  if (own) return own;
  if (zone.existing.has(key)) return [];
  // The closest existing ancestor decides: only its `*` child may match (RFC 4592).
  for (let name = key; name !== zone.apex && name.includes('.'); ) {
    name = name.slice(name.indexOf('.') + 1);
    if (zone.existing.has(name)) return zone.nodes.get(`*.${name}`);
  }
  return undefined;
}
