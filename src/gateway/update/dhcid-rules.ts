// An UPDATE that may carry DHCID records, which the provider cannot hold and the gateway keeps
// itself (dhcid/store.ts). The DHCID part is taken out and judged here against the kept
// records; the rest goes to update/rules.ts unchanged, against the provider's zone:
// - prerequisites: on DHCID (exists, does not exist, exactly these values) are checked against
//   the kept records; "name in use" / "name not in use" see a name holding a DHCID as in use;
// - updates: DHCID adds and deletes (one record, the RRset) change the kept records, in order;
//   a delete of everything at a name deletes its DHCID too.
// The two parts are independent but for those name checks and that delete, so splitting keeps
// RFC 2136's meaning. A delete of everything at a name is allowed, as BIND's update-policy
// allows it, when the key may change every type the name holds (Kea's removal deletes the name
// with a key granted A, AAAA and DHCID only): update/rules.ts checks the provider's types, and
// a kept DHCID there needs a grant for DHCID.
import { EDE } from '../../dns/wire/edns.js';
import { atOrBelow } from '../../lib/names.js';
import type { LiveRecord, ZoneRecord } from '../../zone/record.js';
import {
  bytesOf,
  DHCID_DATA_BYTES,
  isDhcidData,
  MAX_DHCID_PER_NAME,
  TYPE_DHCID,
  type DhcidRecord,
  type DhcidRoom,
  type DhcidTouched,
} from '../dhcid/store.js';
import { CLASS, TYPE_ANY, type UpdateMessage, type UpdateRecord } from './message.js';
import { evaluateUpdate, RCODE_UPDATE, type Allowed } from './rules.js';

export { TYPE_DHCID };

export type DhcidEvaluation =
  | { ok: true; wanted: ZoneRecord[]; dhcid: DhcidTouched }
  | { ok: false; rcode: number; ede: number; why: string };

const refuse = (rcode: number, ede: number, why: string): DhcidEvaluation => ({ ok: false, rcode, ede, why });
const isDhcid = (r: UpdateRecord) => r.type === TYPE_DHCID;
/** The RDATA in hex, as the wire reader gives a type it does not decode (RFC 3597). */
const dataOf = (r: UpdateRecord) => (r.data?.type === `TYPE${TYPE_DHCID}` ? r.data.value : undefined);

/**
 * Checks the update's prerequisites on DHCID, and the name checks a kept DHCID decides, against
 * `held`: a refusal, or the other prerequisites, left to evaluateUpdate.
 */
function dhcidPrerequisites(
  message: UpdateMessage,
  held: ReadonlyMap<string, readonly DhcidRecord[]>,
  namesHeld: { has: (name: string) => boolean },
): UpdateRecord[] | DhcidEvaluation {
  // Prerequisites on DHCID, and the name checks a kept DHCID decides; the others go to update-rules.
  const others: UpdateRecord[] = [];
  const valueSets = new Map<string, Set<string>>();
  for (const p of message.prerequisites) {
    if (isDhcid(p)) {
      if (p.class === CLASS.ANY && !namesHeld.has(p.name))
        return refuse(RCODE_UPDATE.NXRRSET, EDE.OTHER, `prerequisite failed: ${p.name} has no DHCID record`);
      if (p.class === CLASS.NONE && namesHeld.has(p.name))
        return refuse(RCODE_UPDATE.YXRRSET, EDE.OTHER, `prerequisite failed: ${p.name} has a DHCID record`);
      if (p.class === CLASS.IN) valueSets.set(p.name, (valueSets.get(p.name) ?? new Set()).add(dataOf(p)!));
    } else if (p.type === TYPE_ANY && p.class === CLASS.NONE && namesHeld.has(p.name)) {
      return refuse(
        RCODE_UPDATE.YXDOMAIN,
        EDE.OTHER,
        `prerequisite failed: ${p.name} is in use (it holds a DHCID record)`,
      );
    } else if (!(p.type === TYPE_ANY && p.class === CLASS.ANY && namesHeld.has(p.name))) {
      others.push(p);
    }
  }
  // Value-dependent (RFC 2136 2.4.2): exactly the DHCID records named, no more and no fewer.
  for (const [name, wanted] of valueSets) {
    const have = new Set((held.get(name) ?? []).map((r) => r.data));
    if (have.size !== wanted.size || [...have].some((d) => !wanted.has(d)))
      return refuse(
        RCODE_UPDATE.NXRRSET,
        EDE.OTHER,
        `prerequisite failed: the DHCID record at ${name} is not the one named (another client holds the name)`,
      );
  }
  return others;
}

/**
 * evaluateUpdate (update/rules.ts) with DHCID kept beside the provider's zone: `held` is the
 * zone's DHCID records as the updates before this one left them, `spare` how many more records
 * (and bytes of them) it may hold. Costs what the update touches, not the size of `held` (a site may have 50,000
 * leases).
 */
export function evaluateWithDhcid(
  message: UpdateMessage,
  live: LiveRecord[],
  zone: string,
  allowed: Allowed,
  held: ReadonlyMap<string, readonly DhcidRecord[]>,
  spare: DhcidRoom,
): DhcidEvaluation {
  const malformed = prescanDhcid(message, zone);
  if (malformed) return malformed;
  const namesHeld = { has: (name: string) => Boolean(held.get(name)?.length) };

  const others = dhcidPrerequisites(message, held, namesHeld);
  if (!Array.isArray(others)) return others;

  const rest = evaluateUpdate(
    { ...message, prerequisites: others, updates: message.updates.filter((u) => !isDhcid(u)) },
    live,
    zone,
    allowed,
  );
  if (!rest.ok) return rest;

  // The names the update touches, each with a list of its own (copied at the first touch).
  const touched: DhcidTouched = new Map();
  const at = (name: string) =>
    touched.get(name) ??
    touched
      .set(
        name,
        (held.get(name) ?? []).map((r) => ({ ...r })),
      )
      .get(name)!;
  const keep = (name: string, pred: (r: DhcidRecord) => boolean) => touched.set(name, at(name).filter(pred));
  for (const u of message.updates) {
    if (u.type === TYPE_ANY && u.class === CLASS.ANY && (touched.has(u.name) || namesHeld.has(u.name))) {
      if (at(u.name).length && !allowed(u.name, 'DHCID'))
        return refuse(
          RCODE_UPDATE.REFUSED,
          EDE.PROHIBITED,
          `the key may not change DHCID at ${u.name}, which a delete of everything there would remove`,
        );
      touched.set(u.name, []);
    }
    if (!isDhcid(u)) continue;
    if (!allowed(u.name, 'DHCID'))
      return refuse(RCODE_UPDATE.REFUSED, EDE.PROHIBITED, `the key may not change DHCID at ${u.name}`);
    if (u.class === CLASS.ANY) touched.set(u.name, []);
    else if (u.class === CLASS.NONE) keep(u.name, (r) => r.data !== dataOf(u));
    // A CNAME has its name to itself (RFC 2136 3.4.2.2): the add beside one is ignored.
    else if (!rest.wanted.some((r) => r.name === u.name && r.type === 'CNAME')) {
      // One TTL per RRset: the last add sets it, as BIND does. A TTL with the top bit set is 0 (RFC 2181 8).
      const ttl = u.ttl > 0x7fffffff ? 0 : u.ttl;
      const others = at(u.name)
        .filter((r) => r.data !== dataOf(u))
        .map((r) => ({ ...r, ttl }));
      touched.set(u.name, [...others, { name: u.name, ttl, data: dataOf(u)! }]);
    }
  }
  const full = roomRefusal(touched, held, spare);
  if (full) return full;
  return { ok: true, wanted: rest.wanted, dhcid: touched };
}

/** FORMERR and NOTZONE for DHCID records, as update/rules.ts prescans the others (RFC 2136 3.2, 3.4.1). */
function prescanDhcid(message: UpdateMessage, zone: string): DhcidEvaluation | undefined {
  const badData = (r: UpdateRecord) => r.data && !isDhcidData(dataOf(r) ?? '');
  for (const p of message.prerequisites.filter(isDhcid)) {
    if (p.ttl !== 0)
      return refuse(RCODE_UPDATE.FORMERR, EDE.OTHER, `prerequisite ${p.name} has a TTL; prerequisites carry TTL 0`);
    if (!atOrBelow(p.name, zone))
      return refuse(RCODE_UPDATE.NOTZONE, EDE.NOT_AUTHORITATIVE, `prerequisite ${p.name} is outside the zone ${zone}`);
    if (p.class === CLASS.IN ? !p.data : p.data || (p.class !== CLASS.ANY && p.class !== CLASS.NONE))
      return refuse(
        RCODE_UPDATE.FORMERR,
        EDE.OTHER,
        `prerequisite ${p.name} DHCID has the wrong form for class ${p.class}`,
      );
    if (badData(p))
      return refuse(
        RCODE_UPDATE.FORMERR,
        EDE.INVALID_DATA,
        `prerequisite ${p.name}: DHCID data is ${DHCID_DATA_BYTES.min} to ${DHCID_DATA_BYTES.max} bytes`,
      );
  }
  for (const u of message.updates.filter(isDhcid)) {
    if (!atOrBelow(u.name, zone))
      return refuse(RCODE_UPDATE.NOTZONE, EDE.NOT_AUTHORITATIVE, `${u.name} is outside the zone ${zone}`);
    const form =
      u.class === CLASS.IN
        ? Boolean(u.data)
        : u.class === CLASS.ANY
          ? u.ttl === 0 && !u.data
          : u.class === CLASS.NONE
            ? u.ttl === 0 && Boolean(u.data)
            : false;
    if (!form)
      return refuse(
        RCODE_UPDATE.FORMERR,
        EDE.OTHER,
        `the DHCID update at ${u.name} has the wrong form for class ${u.class}`,
      );
    if (badData(u))
      return refuse(
        RCODE_UPDATE.REFUSED,
        EDE.INVALID_DATA,
        `${u.name}: DHCID data is ${DHCID_DATA_BYTES.min} to ${DHCID_DATA_BYTES.max} bytes`,
      );
  }
  return undefined;
}

/** A refusal when the update grows a name past MAX_DHCID_PER_NAME or the zone past its `spare` room. */
function roomRefusal(
  touched: DhcidTouched,
  held: ReadonlyMap<string, readonly DhcidRecord[]>,
  spare: DhcidRoom,
): DhcidEvaluation | undefined {
  let added = 0;
  let addedBytes = 0;
  for (const [name, list] of touched) {
    const was = held.get(name) ?? [];
    // Only a name the update grows past the bound is refused: one already past it may shrink.
    if (list.length > MAX_DHCID_PER_NAME && list.length > was.length)
      return refuse(
        RCODE_UPDATE.REFUSED,
        EDE.PROHIBITED,
        `${name} would hold ${list.length} DHCID records; the gateway keeps at most ${MAX_DHCID_PER_NAME} at one ` +
          `name (a DHCP client has one)`,
      );
    added += list.length - was.length;
    addedBytes += bytesOf(new Map([[name, list]])) - bytesOf(new Map([[name, was]]));
  }
  if (added > 0 && added > spare.records)
    return refuse(
      RCODE_UPDATE.REFUSED,
      EDE.PROHIBITED,
      `the gateway keeps no more DHCID records for this zone (${Math.max(0, spare.records)} more at most); remove ` +
        `stale ones first`,
    );
  if (addedBytes > 0 && addedBytes > spare.bytes)
    return refuse(
      RCODE_UPDATE.REFUSED,
      EDE.PROHIBITED,
      `the gateway has no room for these DHCID records (${Math.max(0, spare.bytes)} bytes left of its file); remove ` +
        `stale ones first`,
    );
  return undefined;
}
