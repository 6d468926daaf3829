// The authoritative answer engine shared by the sandbox's name server and the gateway: a zone
// is indexed once (by owner, with its empty non-terminals and delegations), and each question
// then costs a few map look-ups and the records it returns, never a walk over the zone.
// CNAMEs are followed inside the zone, `*.` wildcards match names that do not exist (RFC 4592),
// NS records below the apex are delegations (referrals, RFC 1034 4.3.2), NXDOMAIN and NODATA
// carry the SOA in the authority section (RFC 2308).
import { typeCode } from '../wire/message.js';
import { atOrBelow, below } from '../../lib/names.js';
import { nameKey } from '../wire/names.js';
import { RCODE, TYPE_CODES, type DnsRecord } from '../wire/types.js';

export interface ZoneAnswer {
  rcode: number;
  authoritative: boolean;
  answers: DnsRecord[];
  authority: DnsRecord[];
  additional: DnsRecord[];
}

/**
 * One zone. Built in O(zone); a change of a few owners is made in place by replaceOwners (the
 * gateway's view after an update), in O(records changed), never by a rebuild.
 */
export interface ZoneIndex {
  /** The apex as a key (lower case, no trailing dot). */
  apex: string;
  /** Records by owner key; owners written as the zone holds them. */
  nodes: Map<string, DnsRecord[]>;
  /**
   * Every owner and every name between an owner and the apex (empty non-terminals exist), with
   * the number of owners at or below it: a name stops existing when its count falls to 0.
   */
  existing: Map<string, number>;
  /** Delegations: NS records of names below the apex, by name. */
  cuts: Map<string, DnsRecord[]>;
  soa: DnsRecord & { type: 'SOA' };
  /** The number of records, for logs and limits. */
  size: number;
}

/** CNAME hops followed inside a zone before answering with what there is. */
const MAX_CNAME_HOPS = 8;

/** The parent key of a name key ('' above a single label). */
const parentOf = (key: string): string => {
  const dot = key.indexOf('.');
  return dot < 0 ? '' : key.slice(dot + 1);
};

/** Indexes `records` (owners must lie at or below `apex`; others are left out) with `soa` at the apex. */
export function buildZoneIndex(
  apex: string,
  soa: DnsRecord & { type: 'SOA' },
  records: Iterable<DnsRecord>,
): ZoneIndex {
  const apexKey = nameKey(apex);
  const nodes = new Map<string, DnsRecord[]>();
  let size = 0;
  const add = (record: DnsRecord) => {
    const key = nameKey(record.name);
    if (!atOrBelow(key, apexKey)) return;
    const list = nodes.get(key);
    if (list) list.push(record);
    else nodes.set(key, [record]);
    size++;
  };
  for (const record of records) if (record.type !== 'SOA') add(record);
  add(soa);
  const existing = new Map<string, number>();
  for (const owner of nodes.keys()) countOwner(existing, owner, apexKey, 1);
  const cuts = new Map<string, DnsRecord[]>();
  for (const [owner, list] of nodes) {
    if (owner === apexKey) continue;
    const ns = list.filter((r) => r.type === 'NS');
    if (ns.length) cuts.set(owner, ns);
  }
  return { apex: apexKey, nodes, existing, cuts, soa, size };
}

/**
 * As buildZoneIndex, from records already grouped by owner key (each list holds the records at
 * its key): the lists are kept by the index, not copied (a large zone's first showing built every
 * list twice, and its peak memory with them). SOA records are left out, as buildZoneIndex leaves them.
 */
export function buildZoneIndexOfOwners(
  apex: string,
  soa: DnsRecord & { type: 'SOA' },
  owners: Map<string, DnsRecord[]>,
): ZoneIndex {
  const zone = buildZoneIndex(apex, soa, []);
  replaceOwners(zone, owners, soa);
  const withSoa = new Map<string, DnsRecord[]>();
  for (const [owner, records] of owners)
    if (owner !== zone.apex && records.some((r) => r.type === 'SOA'))
      withSoa.set(
        owner,
        records.filter((r) => r.type !== 'SOA'),
      );
  if (withSoa.size) replaceOwners(zone, withSoa, soa);
  return zone;
}

/**
 * Adds `step` to the count of `owner` and of every name above it up to the apex; a name whose count falls to 0 is gone.
 */
function countOwner(existing: Map<string, number>, owner: string, apexKey: string, step: 1 | -1): void {
  for (let name = owner; name.length >= apexKey.length; name = parentOf(name)) {
    const count = (existing.get(name) ?? 0) + step;
    if (count > 0) existing.set(name, count);
    else existing.delete(name);
    if (name === apexKey || name === '') break;
  }
}

/**
 * Replaces, in place, the records of each owner in `owners` (owner key -> its records; none: the
 * owner is gone) and the SOA. Cost: the records replaced and their names' depth, not the zone.
 * Answers see the index before or after, never half of it (this runs to its end at once).
 */
export function replaceOwners(
  zone: ZoneIndex,
  owners: Map<string, DnsRecord[]>,
  soa: DnsRecord & { type: 'SOA' },
): void {
  for (const [owner, records] of owners) {
    if (!below(owner, zone.apex)) continue;
    const before = zone.nodes.get(owner);
    zone.size += records.length - (before?.length ?? 0);
    if (records.length) zone.nodes.set(owner, records);
    else zone.nodes.delete(owner);
    if (!before && records.length) countOwner(zone.existing, owner, zone.apex, 1);
    if (before && !records.length) countOwner(zone.existing, owner, zone.apex, -1);
    const ns = records.filter((r) => r.type === 'NS');
    if (ns.length) zone.cuts.set(owner, ns);
    else zone.cuts.delete(owner);
  }
  // The apex keeps its SOA whatever else changes there; its records are given with the others.
  const apexRecords = owners.get(zone.apex);
  const apex = (apexRecords ?? zone.nodes.get(zone.apex) ?? []).filter((r) => r.type !== 'SOA');
  zone.size += apex.length + 1 - (zone.nodes.get(zone.apex)?.length ?? 0);
  zone.nodes.set(zone.apex, [...apex, soa]);
  zone.soa = soa;
}

/** Whether a name key lies in the zone (at or below its apex). */
function inZone(zone: ZoneIndex, key: string): boolean {
  return atOrBelow(key, zone.apex);
}

/** The answer to one question of class IN about a name in `zone` (check `inZone` first). */
export function answerFromZone(zone: ZoneIndex, qname: string, qtype: number, negativeTtl: number): ZoneAnswer {
  const negative = (): DnsRecord => ({ ...zone.soa, ttl: Math.min(zone.soa.ttl, negativeTtl) });
  const answers: DnsRecord[] = [];
  const additional: DnsRecord[] = [];
  let owner = qname.replace(/\.$/, '');
  let current = nameKey(owner);
  for (let hop = 0; ; hop++) {
    const cut = delegationOf(zone, current);
    if (cut) {
      // Below a delegation the data is another server's: a referral, not authoritative.
      return {
        rcode: RCODE.NOERROR,
        authoritative: answers.length > 0,
        answers,
        authority: cut,
        additional: glueOf(zone, cut),
      };
    }
    const records = recordsAt(zone, current);
    if (!records) return { rcode: RCODE.NXDOMAIN, authoritative: true, answers, authority: [negative()], additional };
    const cname = records.find((r) => r.type === 'CNAME');
    if (cname && qtype !== TYPE_CODES.CNAME && qtype !== TYPE_CODES.ANY) {
      answers.push({ ...cname, name: owner });
      const target = nameKey(cname.value as string);
      // Out of the zone, or too long a chain: the resolver follows it from here.
      if (hop >= MAX_CNAME_HOPS || !inZone(zone, target)) break;
      owner = cname.value as string;
      current = target;
      continue;
    }
    // typeCode, not TYPE_CODES: records of types the codec does not decode (TYPE49, DHCID) are asked for by number.
    const matching = records.filter((r) => qtype === TYPE_CODES.ANY || typeCode(r.type) === qtype);
    if (!matching.length)
      return { rcode: RCODE.NOERROR, authoritative: true, answers, authority: [negative()], additional };
    for (const r of matching) answers.push(r.name === owner ? r : { ...r, name: owner });
    // Glue: the addresses of in-zone name servers, so a resolver need not ask again.
    additional.push(
      ...glueOf(
        zone,
        matching.filter((r) => r.type === 'NS'),
      ),
    );
    break;
  }
  return { rcode: RCODE.NOERROR, authoritative: true, answers, authority: [], additional };
}

function glueOf(zone: ZoneIndex, ns: DnsRecord[]): DnsRecord[] {
  return ns.flatMap((r) =>
    (zone.nodes.get(nameKey(r.value as string)) ?? []).filter((a) => a.type === 'A' || a.type === 'AAAA'),
  );
}

/** The NS records of the highest delegation at or above a name, if it lies below one. */
function delegationOf(zone: ZoneIndex, key: string): DnsRecord[] | undefined {
  if (!zone.cuts.size) return undefined;
  let found: DnsRecord[] | undefined;
  for (let name = key; name !== zone.apex && name !== ''; name = parentOf(name)) found = zone.cuts.get(name) ?? found;
  return found;
}

/**
 * The records at a name, those of the wildcard that covers it, [] for an empty non-terminal, undefined when it does not
 * exist.
 */
function recordsAt(zone: ZoneIndex, key: string): DnsRecord[] | undefined {
  const own = zone.nodes.get(key);
  if (own) return own;
  if (zone.existing.has(key)) return [];
  // The closest existing ancestor decides: only its `*` child may match (RFC 4592).
  for (let name = key; name !== zone.apex && name !== ''; ) {
    name = parentOf(name);
    if (zone.existing.has(name)) return zone.nodes.get(`*.${name}`);
  }
  return undefined;
}
