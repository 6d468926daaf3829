// RFC 2136's meaning of an UPDATE, as a pure function of the message and the zone as the
// provider holds it (read afresh): the prescan (section 3.4.1), the prerequisites (2.4 and
// 3.2: all five forms), the grants of the signing key, then the updates in order (3.4.2: add,
// delete an RRset, delete every RRset at a name, delete one RR) on a copy of the zone. What
// comes out is the zone the update asks for, which the zone engine turns into the writes it
// needs (plan.ts): the gateway never calls the API itself.
import { EDE } from '../../dns/wire/edns.js';
import { typeName, type DnsRecord } from '../../dns/wire/types.js';
import { atOrBelow, canonicalName } from '../../lib/names.js';
import { isProviderRecord, providerKeeps } from '../../zone/plan/ownership.js';
import { hasPriority, isZoneType, type LiveRecord, type ZoneRecord } from '../../zone/record.js';
import { EMPTY_TXT, txtReadBackSame } from '../../zone/provider/entry-fields.js';
import { canonicalValue, formatCaa, ValueError } from '../../zone/values.js';
import { CLASS, TYPE_ANY, TYPE_DHCID, type UpdateMessage, type UpdateRecord } from './message.js';
import { UpdateRecords } from './records.js';

export const RCODE_UPDATE = {
  NOERROR: 0,
  FORMERR: 1,
  SERVFAIL: 2,
  NXDOMAIN: 3,
  NOTIMP: 4,
  REFUSED: 5,
  YXDOMAIN: 6,
  YXRRSET: 7,
  NXRRSET: 8,
  NOTAUTH: 9,
  NOTZONE: 10,
} as const;

export type Evaluation = { ok: true; wanted: ZoneRecord[] } | { ok: false; rcode: number; ede: number; why: string };

/** Whether the signing key may change records of `type` (a type name) at `owner`. */
export type Allowed = (owner: string, type: string) => boolean;

const refuse = (rcode: number, ede: number, why: string): Evaluation => ({ ok: false, rcode, ede, why });

/**
 * The managed records of the zone, as the update starts from them (SOA, apex NS and other types stay with the
 * provider).
 */
export function managedRecords(live: LiveRecord[], zone: string): ZoneRecord[] {
  return live.filter((r) => !providerKeeps(r, zone)).map(({ entityID: _id, ...r }) => r as ZoneRecord);
}

/**
 * REFUSED (EDE Invalid Data) for the first prerequisite or update whose owner is not a host name
 * as the provider keeps one (the zone reader's rule, lib/names.ts: letters, digits, `-` and `_`,
 * a `*` only as the whole leftmost label). A wire label may hold any byte: `x\.y.dyn.example.com`
 * is one label "x.y" under dyn.example.com, which passes the zone and grant checks as text and
 * which the provider then refuses, undoing the writes of every update batched with it. Pure, and
 * cheap: the gateway calls it before the zone is read (handler.ts); evaluateUpdate again.
 */
export function unfitOwner(message: UpdateMessage): Evaluation | undefined {
  for (const [what, records] of [
    ['prerequisite', message.prerequisites],
    ['update', message.updates],
  ] as const) {
    const unfit = records.find((r) => canonicalName(r.name) !== r.name);
    if (unfit)
      return refuse(
        RCODE_UPDATE.REFUSED,
        EDE.INVALID_DATA,
        `the ${what} at ${unfit.name} names no host name: a label may hold letters, digits, "-" and "_" only (and ` +
          `"*" as the whole first label)`,
      );
  }
  return undefined;
}

/**
 * REFUSED (EDE Invalid Data) for the first update whose text rdata (TXT, SPF, CAA) is not UTF-8.
 * The provider keeps such values as JSON strings, so the bytes cannot be held as they are: read
 * as UTF-8, "caf\233" became "caf\239\191\189" (U+FFFD), accepted and stored, and two byte
 * strings became one record, which a delete of either then removed. An add, and a delete too
 * (it would remove the record it was turned into), are refused before the zone is read.
 * Prerequisites are not refused here: see checkPrerequisites.
 */
export function unfitText(message: UpdateMessage): Evaluation | undefined {
  const unfit = message.updates.find((u) => u.notUtf8);
  if (unfit)
    return refuse(
      RCODE_UPDATE.REFUSED,
      EDE.INVALID_DATA,
      `the update at ${unfit.name}: ${unfit.notUtf8}; the provider holds text, so these bytes cannot be kept as ` +
        `they are`,
    );
  // The provider's real limit on a value is unknown, so none is made up; what is refused is a text that would be read
  // back as other data.
  for (const u of message.updates) {
    const problem = u.data?.type === 'TXT' ? txtReadBackProblem(u.name, u.data.value.join('')) : undefined;
    if (problem) return refuse(RCODE_UPDATE.REFUSED, EDE.INVALID_DATA, problem);
  }
  return undefined;
}

/** Why a TXT text cannot be kept exactly (it is one of the provider's own forms), or undefined. */
function txtReadBackProblem(name: string, text: string): string | undefined {
  if (txtReadBackSame(text)) return undefined;
  const form = text === EMPTY_TXT ? 'an empty TXT' : 'bytes that are not UTF-8';
  return `${name} TXT: this text is how the provider holds ${form}, so it would be read back as other data`;
}

/**
 * The update evaluated against `live`: the records the provider holds at the names it concerns
 * (more do no harm). Each prerequisite and change costs a few look-ups (records.ts), so
 * the work follows the update, not the zone; `wanted` holds the records of `live` as the
 * update leaves them.
 */
export function evaluateUpdate(message: UpdateMessage, live: LiveRecord[], zone: string, allowed: Allowed): Evaluation {
  const unfit = unfitOwner(message) ?? unfitText(message);
  if (unfit) return unfit;
  const records = new UpdateRecords(managedRecords(live, zone));
  // First, as BIND 9.16 and later: every update's name is in the zone (NOTZONE) and allowed by the key's grants
  // (REFUSED), before any prerequisite is looked at, so that a key cannot probe with prerequisites what it may not
  // change.
  const ungranted = grantsFirst(message, zone, allowed, (name) => records.typesAt(name));
  if (ungranted) return ungranted;
  // Then the prerequisites (3.2), each checked and evaluated in order: the first that is malformed or fails decides.
  const failed = checkPrerequisites(message.prerequisites, live, zone);
  if (failed) return failed;
  // Then the prescan of the updates (3.4.1): forms that cannot be meant are FORMERR.
  for (const u of message.updates) {
    if (u.class === CLASS.IN && (u.type === TYPE_ANY || !u.data))
      return refuse(RCODE_UPDATE.FORMERR, EDE.OTHER, `an add at ${u.name} needs a type and data`);
    if (u.class === CLASS.ANY && (u.ttl !== 0 || u.data))
      return refuse(RCODE_UPDATE.FORMERR, EDE.OTHER, `a delete of RRsets at ${u.name} carries TTL 0 and no data`);
    if (u.class === CLASS.NONE && (u.ttl !== 0 || u.type === TYPE_ANY || !u.data))
      return refuse(
        RCODE_UPDATE.FORMERR,
        EDE.OTHER,
        `a delete of one record at ${u.name} carries TTL 0, a type and its data`,
      );
    if (![CLASS.IN, CLASS.ANY, CLASS.NONE].includes(u.class as 1))
      return refuse(RCODE_UPDATE.FORMERR, EDE.OTHER, `${u.name} has class ${u.class}`);
  }

  for (const u of message.updates) {
    const type = u.type === TYPE_ANY ? 'ANY' : String(typeName(u.type));
    // SOA and the apex NS are the provider's: an update of them is ignored, as BIND ignores what it may not change
    // (3.4.2.2-3.4.2.4).
    if (isProviderRecord(u.name, type, zone)) continue;
    if (type !== 'ANY' && !isZoneType(type))
      return refuse(RCODE_UPDATE.REFUSED, EDE.NOT_SUPPORTED, `the provider cannot hold ${type} records (${u.name})`);
    const applied = applyOne(records, u, type, zone);
    if (applied) return applied;
  }
  return { ok: true, wanted: records.all() };
}

/** One update on `records` (in place); an Evaluation when it cannot be made. */
function applyOne(records: UpdateRecords, u: UpdateRecord, type: string, zone: string): Evaluation | undefined {
  if (u.class === CLASS.ANY) {
    records.deleteRRsets(u.name, type === 'ANY' ? undefined : type);
    return undefined;
  }
  const record = zoneRecordOf(u.data!, u.name, u.ttl);
  if (typeof record === 'string') return refuse(RCODE_UPDATE.REFUSED, EDE.INVALID_DATA, record);
  if (u.ttlAsHeld) {
    const ttl = records.heldTtl(u.name, record.type);
    if (ttl === undefined) delete record.ttl;
    else record.ttl = ttl;
  }
  if (u.class === CLASS.NONE) {
    records.deleteRecord(record);
    return undefined;
  }
  // A CNAME has its name to itself (RFC 2136 3.4.2.2): the add that would break that is ignored.
  // The apex always holds the SOA and NS, which are not among `records`.
  if (record.type === 'CNAME' && (u.name === zone || records.typesAt(u.name).some((t) => t !== 'CNAME')))
    return undefined;
  if (record.type !== 'CNAME' && records.has(u.name, 'CNAME')) return undefined;
  if (record.type === 'CNAME') records.deleteRRsets(u.name, 'CNAME');
  // An RRset has one TTL: the add's TTL becomes the TTL of every record of it, as BIND does.
  records.add(record);
  return undefined;
}

function checkPrerequisites(prerequisites: UpdateRecord[], live: LiveRecord[], zone: string): Evaluation | undefined {
  if (!prerequisites.length) return undefined;
  // Every type the provider holds counts here, those ddedge does not manage included.
  const held = new Map<string, Map<string, ZoneRecord[]>>();
  for (const r of live) {
    const types = held.get(r.name) ?? held.set(r.name, new Map()).get(r.name)!;
    types.set(r.type, [...(types.get(r.type) ?? []), r as ZoneRecord]);
  }
  const inUse = (name: string) => name === zone || held.has(name);
  const rrsetExists = (name: string, type: string) =>
    (name === zone && (type === 'SOA' || type === 'NS')) || Boolean(held.get(name)?.get(type)?.length);
  const valueSets = new Map<string, ZoneRecord[]>();
  for (const p of prerequisites) {
    if (p.ttl !== 0)
      return refuse(RCODE_UPDATE.FORMERR, EDE.OTHER, `prerequisite ${p.name} has a TTL; prerequisites carry TTL 0`);
    if (!atOrBelow(p.name, zone))
      return refuse(RCODE_UPDATE.NOTZONE, EDE.NOT_AUTHORITATIVE, `prerequisite ${p.name} is outside the zone ${zone}`);
    if (p.class !== CLASS.IN && p.data)
      return refuse(RCODE_UPDATE.FORMERR, EDE.OTHER, `prerequisite ${p.name} of class ${p.class} has data`);
    if (![CLASS.IN, CLASS.ANY, CLASS.NONE].includes(p.class as 1))
      return refuse(RCODE_UPDATE.FORMERR, EDE.OTHER, `prerequisite ${p.name} has class ${p.class}`);
    const type = p.type === TYPE_ANY ? 'ANY' : String(typeName(p.type));
    if (p.class === CLASS.ANY) {
      if (type === 'ANY' && !inUse(p.name))
        return refuse(RCODE_UPDATE.NXDOMAIN, EDE.OTHER, `prerequisite failed: ${p.name} is not in use`);
      if (type !== 'ANY' && !rrsetExists(p.name, type))
        return refuse(RCODE_UPDATE.NXRRSET, EDE.OTHER, `prerequisite failed: ${p.name} has no ${type} records`);
    } else if (p.class === CLASS.NONE) {
      if (type === 'ANY' && inUse(p.name))
        return refuse(RCODE_UPDATE.YXDOMAIN, EDE.OTHER, `prerequisite failed: ${p.name} is in use`);
      if (type !== 'ANY' && rrsetExists(p.name, type))
        return refuse(RCODE_UPDATE.YXRRSET, EDE.OTHER, `prerequisite failed: ${p.name} has ${type} records`);
    } else if (p.notUtf8) {
      // RFC 2136 3.2.5: a value-dependent prerequisite fails (NXRRSET) when the RRset is not
      // exactly the records named. The provider holds text only, so no RRset it holds can
      // contain these bytes: the prerequisite is evaluated, and fails, as BIND's would for a
      // record its zone does not have. It is a well-formed question with a definite answer, not
      // a change the provider cannot make, so it is not REFUSED; and it must not be compared as
      // decoded, where U+FFFD would match a record that holds "\239\191\189" instead.
      return refuse(
        RCODE_UPDATE.NXRRSET,
        EDE.OTHER,
        `prerequisite failed: ${p.name} holds no such ${type} record (${p.notUtf8}: the provider holds text only)`,
      );
    } else {
      const record = p.data ? zoneRecordOf(p.data, p.name, 0) : `prerequisite ${p.name} has no data`;
      if (typeof record === 'string') return refuse(RCODE_UPDATE.NXRRSET, EDE.INVALID_DATA, record);
      const key = `${p.name}\t${type}`;
      valueSets.set(key, [...(valueSets.get(key) ?? []), record]);
    }
  }
  // Value-dependent: the RRset must be exactly the records named, no more and no fewer (2.4.2); TTLs aside.
  for (const [key, wanted] of valueSets) {
    const [name, type] = key.split('\t') as [string, string];
    const have = held.get(name)?.get(type) ?? [];
    const named = new Map(wanted.map((w) => [rdataKey(w), w]));
    const haveKeys = new Set(have.map(rdataKey));
    const same = have.length === named.size && haveKeys.size === named.size && [...haveKeys].every((k) => named.has(k));
    if (!same)
      return refuse(
        RCODE_UPDATE.NXRRSET,
        EDE.OTHER,
        `prerequisite failed: the ${type} records at ${name} are not the ones named`,
      );
  }
  return undefined;
}

/**
 * A record's data as one text: two records of one name and type hold the same data exactly when equal (the MX
 * preference and SRV priority included, TTL aside).
 */
const rdataKey = (r: { value: string; type: string; priority?: number }): string =>
  `${hasPriority(r.type) ? (r.priority ?? '') : ''}|${r.value}`;

/** A record of the message in the zone engine's form (the provider's value forms), or why it cannot be one. */
function zoneRecordOf(data: DnsRecord, name: string, ttl: number): ZoneRecord | string {
  const type = data.type;
  if (!isZoneType(type)) return `the provider cannot hold ${type} records (${name})`;
  let value: string;
  let priority: number | undefined;
  switch (data.type) {
    case 'MX':
      priority = data.value.preference;
      value = data.value.exchange;
      break;
    case 'SRV':
      priority = data.value.priority;
      value = `${data.value.weight} ${data.value.port} ${data.value.target}`;
      break;
    case 'TXT':
      value = data.value.join('');
      break;
    case 'CAA':
      value = formatCaa(data.value.flags, data.value.tag, data.value.value);
      break;
    case 'A':
    case 'AAAA':
    case 'CNAME':
    case 'NS':
      value = data.value;
      break;
    default:
      return `the provider cannot hold ${type} records (${name})`;
  }
  try {
    return { name, type, ttl, value: canonicalValue(type, value), ...(priority !== undefined ? { priority } : {}) };
  } catch (error) {
    if (error instanceof ValueError) return `${name} ${type}: ${error.message}`;
    throw error;
  }
}

/**
 * BIND's first pass over the updates: each name in the zone (else NOTZONE) and each change
 * allowed by the key's grants (else REFUSED); SOA and apex NS are ignored. A delete of every RRset
 * at a name (type ANY) is allowed when each type `typesAt` says the name holds may be changed (at
 * a name with nothing it deletes nothing: what a name holds is no secret, any query shows it).
 * Without `typesAt` (the zone not read yet) those deletes are left to the pass that has it: the
 * gateway runs this before the zone is read, so a key with no grants cannot spend its provider
 * call budget (not even a transfer-only key), and evaluateUpdate again after.
 */
export function grantsFirst(
  message: UpdateMessage,
  zone: string,
  allowed: Allowed,
  typesAt?: (name: string) => string[],
): Evaluation | undefined {
  for (const u of message.updates) {
    if (!atOrBelow(u.name, zone))
      return refuse(RCODE_UPDATE.NOTZONE, EDE.NOT_AUTHORITATIVE, `${u.name} is outside the zone ${zone}`);
    if (u.type === TYPE_ANY && !typesAt) continue;
    const type = u.type === TYPE_ANY ? 'ANY' : u.type === TYPE_DHCID ? 'DHCID' : String(typeName(u.type));
    if (isProviderRecord(u.name, type, zone)) continue;
    const refused = (type === 'ANY' ? typesAt!(u.name) : [type]).find((t) => !allowed(u.name, t));
    if (refused) return refuse(RCODE_UPDATE.REFUSED, EDE.PROHIBITED, `the key may not change ${refused} at ${u.name}`);
  }
  return undefined;
}
