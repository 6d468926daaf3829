// The plan: one pure function from the live zone, the wanted zone and who owns what, to the
// changes that make the first into the second. Records at one name and type are matched value
// by value, so a TTL change on one of three MX records is one update, not three.
import { atProviderDefault, providerGlue } from '../bind-form.js';
import type { Owner } from './ownership.js';
import { NameTable } from '../../lib/name-table.js';
import { identityKey, LiveIndex } from '../live-index.js';
import type { LiveRecord, ZoneRecord } from '../record.js';
import { FileRecord, takeRecordsByName, type WantedRecord, type WantedZone } from '../wanted-zone.js';

export interface Change {
  action: 'create' | 'update' | 'delete';
  before?: LiveRecord;
  after?: ZoneRecord;
  /**
   * An update service/dnsupdate cannot make in place: it keeps the old TTL when none is sent,
   * so a TTL back to the provider's default is a delete and a create.
   */
  replace?: boolean;
}

export interface KeptRecord {
  name: string;
  type: string;
  reason: string;
  value?: string;
}

export interface Plan {
  zone: string;
  changes: Change[];
  kept: KeptRecord[];
  unchanged: LiveRecord[];
  /** Every record the provider listed. */
  live: LiveRecord[];
  /**
   * How many of them the plan may touch: every listed record but those kept before the diff
   * (the agent's hosts, ACME challenges, --ignore, what ddedge cannot write). The safety rule
   * counts against this, so records it never touches do not dilute the 30%.
   */
  touchable: number;
}

export interface PlanOptions {
  /** Leave records that are not in the file (and values the file does not name) as they are. */
  keepUnlisted?: boolean;
}

/** The records at one name: most names hold one, kept without an array around it. */
type Grouped<T> = T | T[];
/** A map by name: the file's is a NameTable, the live zone's leftovers a Map. */
interface ByName<T> {
  get(name: string): T | undefined;
  set(name: string, value: T): unknown;
}
function addTo<T extends object>(groups: ByName<Grouped<T>>, key: string, item: T): void {
  const group = groups.get(key);
  if (group === undefined) groups.set(key, item);
  else if (Array.isArray(group)) group.push(item);
  else groups.set(key, [group, item]);
}
/** The records by name, those in `left` left out (what the reader's index gives, made here). */
function byName({ records, zone }: WantedZone, left: ReadonlySet<WantedRecord>): NameTable<Grouped<WantedRecord>> {
  const map = new NameTable<Grouped<WantedRecord>>(records.length, `.${zone}`);
  for (const r of records) if (!left.has(r)) addTo(map, r.name, r);
  return map;
}
const listOf = <T extends object>(group: Grouped<T> | undefined): T[] =>
  group === undefined ? NONE : Array.isArray(group) ? group : [group];
const byValue = (a: { value: string }, b: { value: string }) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);
/** Name and type are the group's: the rest of sameRecord. */
const identical = (a: ZoneRecord | LiveRecord, b: ZoneRecord | LiveRecord): boolean =>
  a.value === b.value && a.ttl === b.ttl && a.priority === b.priority;

const NONE: never[] = [];
/** In the file's map by name, a name whose one record is settled (unchanged): no record is left there. */
const SETTLED: WantedRecord[] = [];

/**
 * n log n at worst: records are matched through maps (live-index.ts); only sorts compare.
 * Records are grouped by name, whose hash each name string keeps (a key made per record would
 * be hashed anew); a name the file holds exactly as the provider does (one record a side, the
 * bulk of a big zone) is settled on the spot, and only the other changes are sorted, so that they
 * come in the order of their names and types.
 */
export function planZone(live: LiveRecord[], wanted: WantedZone, owner: Owner, options: PlanOptions = {}): Plan {
  const kept: KeptRecord[] = [];
  for (const note of wanted.notes)
    kept.push({ name: note.name, type: note.type, reason: `in the file, ${note.reason}` });
  const { bindForm } = wanted;
  // Each pass over the records is a function of its own: a loop over 100,000 records is optimized
  // by itself (the whole plan around it was compiled anew at each loop, and deoptimized between).
  const left = fileRecordsLeftAlone(wanted, live, owner, kept);
  const wantedByName = takeRecordsByName(wanted.records, left) ?? byName(wanted, left);
  const plan: Plan = { zone: wanted.zone, changes: [], kept: [], unchanged: [], live, touchable: 0 };
  const { waiting, ownKept } = settleIdentical(live, wantedByName, owner, plan);
  // The live zone's kept records come first, as the provider lists them, then the file's.
  plan.kept = [...ownKept, ...kept];

  // Each name and type is planned as it comes; its changes (and the records it leaves unchanged
  // or keeps) come in the order it makes them, and are then put in the order of name and type by
  // a stable sort, so that a plan reads the same whatever order the file and the listing have. A
  // name the live zone lacks with one record in the file (every record of a zone created whole)
  // is a create, with no group made for it.
  const fromUnchanged = plan.unchanged.length;
  const fromKept = plan.kept.length;
  const plan1 = (live: LiveRecord[], want: ZoneRecord[]) =>
    planGroup(live, bindForm ? atProviderDefault(live, want, bindForm.defaultTtl) : want, plan, options);
  waiting.forEach((have, name) => {
    byType(listOf(have), listOf(wantedByName.get(name)), plan1);
  });
  wantedByName.forEach((want, name) => {
    if (want === SETTLED || waiting.has(name)) return;
    if (Array.isArray(want)) byType(NONE, want, plan1);
    else plan.changes.push({ action: 'create', after: zoneRecord(want) });
  });
  plan.changes.sort(byChangeOrder);
  sortFrom(plan.unchanged, fromUnchanged);
  sortFrom(plan.kept, fromKept);
  return plan;
}

/**
 * The file's records the plan leaves alone (the provider's glue, what an owner keeps), each reported in `kept`
 * unless the live zone holds it as it is; the others are planned, found by their name. Indexed loops (and
 * Map.forEach below): a for-of makes an iterator result for each of 100,000 records (an entry array too, over a
 * map) until the loop is optimized, about 30 MB a plan that the young generation is collected for.
 */
function fileRecordsLeftAlone(
  wanted: WantedZone,
  live: readonly LiveRecord[],
  owner: Owner,
  kept: KeptRecord[],
): Set<WantedRecord> {
  const { bindForm, records } = wanted;
  const left = new Set<WantedRecord>();
  let liveKeys: Set<string> | undefined;
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    const glue = bindForm && providerGlue(r, bindForm, live);
    if (glue) {
      kept.push({ name: r.name, type: r.type, reason: `in the file, ${glue}`, value: r.value });
      left.add(r);
      continue;
    }
    const reason = owner(r);
    if (!reason) continue;
    left.add(r);
    liveKeys ??= new Set(live.map(identityKey));
    if (!liveKeys.has(identityKey(r)))
      kept.push({ name: r.name, type: r.type, reason: `in the file, not applied: ${reason}`, value: r.value });
  }
  return left;
}

/**
 * A live record identical to the one record the file holds at its name, and the first the
 * listing gives there, stays: the groups below would match it so too (identical records first).
 * The file's record is marked settled (not deleted: a map that shrinks as 100,000 names are
 * taken out is copied again and again); every other live record waits for its group, but those
 * an owner keeps.
 */
function settleIdentical(
  live: readonly LiveRecord[],
  wantedByName: NameTable<Grouped<WantedRecord>>,
  owner: Owner,
  plan: Plan,
): { waiting: Map<string, Grouped<LiveRecord>>; ownKept: KeptRecord[] } {
  const waiting = new Map<string, Grouped<LiveRecord>>();
  const ownKept: KeptRecord[] = [];
  // Made at its largest at once and cut to what it holds at the end: a no-change plan puts every live record here,
  // and an array pushed to 100,000 times leaves the copies of its growth (about 1.5 MB) in the old generation.
  const unchanged = new Array<LiveRecord>(live.length);
  let settled = 0;
  for (let i = 0; i < live.length; i++) {
    const r = live[i]!;
    const reason = owner(r);
    if (reason) {
      ownKept.push({ name: r.name, type: r.type, reason, value: r.value });
      continue;
    }
    plan.touchable++;
    const entry = wantedByName.entryOf(r.name);
    const want = entry < 0 ? undefined : wantedByName.valueAt(entry);
    if (
      want !== undefined &&
      !Array.isArray(want) &&
      want.type === r.type &&
      identical(want, r) &&
      !waiting.has(r.name)
    ) {
      unchanged[settled++] = r;
      wantedByName.setValueAt(entry, SETTLED);
    } else addTo(waiting, r.name, r);
  }
  unchanged.length = settled;
  plan.unchanged = unchanged;
  return { waiting, ownKept };
}

/** The name and type a change is about: its record's, before or after (the same for both). */
const byChangeOrder = (a: Change, b: Change): number => byNameAndType((a.after ?? a.before)!, (b.after ?? b.before)!);

/** The entries from `start` on, put in the order of name and type (stable: ties keep their order). */
function sortFrom<T extends { name: string; type: string }>(list: T[], start: number): void {
  if (list.length - start < 2) return;
  if (start === 0) {
    list.sort(byNameAndType);
    return;
  }
  // Pushed one by one: a spread of 100,000 arguments may overflow the stack.
  for (const entry of list.splice(start).sort(byNameAndType)) list.push(entry);
}

/**
 * The order of `${name}\t${type}`, without making that string: names compare as they are unless
 * one begins with the other (rare: `a.example` and `a.example.example`), where the tab counts.
 */
function byNameAndType(a: { name: string; type: string }, b: { name: string; type: string }): number {
  const an = a.name;
  const bn = b.name;
  if (an === bn) return a.type < b.type ? -1 : a.type > b.type ? 1 : 0;
  const shorter = an.length < bn.length ? an : bn;
  const longer = shorter === an ? bn : an;
  if (!longer.startsWith(shorter)) return an < bn ? -1 : 1;
  const ak = `${an}\t${a.type}`;
  const bk = `${bn}\t${b.type}`;
  return ak < bk ? -1 : ak > bk ? 1 : 0;
}

/** The records of one name, planned type by type (most names hold one type: no map of types then). */
function byType(
  live: LiveRecord[],
  wanted: ZoneRecord[],
  plan1: (live: LiveRecord[], want: ZoneRecord[]) => void,
): void {
  const type = (live[0] ?? wanted[0])!.type;
  if (live.every((r) => r.type === type) && wanted.every((r) => r.type === type)) {
    plan1(live, wanted);
    return;
  }
  const types = new Map<string, { live: LiveRecord[]; wanted: ZoneRecord[] }>();
  const groupOf = (type: string) => {
    let group = types.get(type);
    if (!group) {
      group = { live: [], wanted: [] };
      types.set(type, group);
    }
    return group;
  };
  for (const r of live) groupOf(r.type).live.push(r);
  for (const r of wanted) groupOf(r.type).wanted.push(r);
  for (const group of types.values()) plan1(group.live, group.wanted);
}

/**
 * A record of the file as a plan's change holds it: without where it was written. A FileRecord
 * is taken as it is (its where is made only when asked, and is no field of its own), so a plan
 * of 100,000 creates copies no record.
 */
function zoneRecord(record: ZoneRecord | WantedRecord): ZoneRecord {
  if (record instanceof FileRecord) return record;
  if (!('where' in record))
    return { name: record.name, type: record.type, ttl: record.ttl, priority: record.priority, value: record.value };
  const { where: _where, ...plain } = record;
  return plain;
}

/**
 * The records of one name and type. Most groups hold one record a side; bigger ones (a TXT
 * set, round-robin addresses) are matched through a LiveIndex, never by a scan per record.
 */
function planGroup(liveGroup: LiveRecord[], wantedGroup: ZoneRecord[], plan: Plan, options: PlanOptions): void {
  const { changes, unchanged } = plan;
  let want = wantedGroup.length > 1 ? wantedGroup.sort(byValue) : wantedGroup;
  let have: LiveRecord[];
  if (liveGroup.length <= 1) {
    // The same steps as below, for at most one live record: nothing to index.
    const h = liveGroup[0];
    const i = h ? want.findIndex((w) => identical(w, h)) : -1;
    const j = h && i < 0 ? want.findIndex((w) => w.value === h.value) : -1;
    if (i >= 0) unchanged.push(h!);
    else if (j >= 0) changes.push(update(h!, want[j]!));
    const matched = i >= 0 ? i : j;
    if (matched >= 0) want = want.filter((_, k) => k !== matched);
    have = h && matched < 0 ? liveGroup : NONE;
  } else {
    const index = new LiveIndex(liveGroup);
    // 1. Identical records stay.
    want = want.filter((w) => {
      const h = index.takeIdentical(w);
      if (h) unchanged.push(h);
      return !h;
    });
    // 2. The same value with another TTL or priority: an update of that entry.
    want = want.filter((w) => {
      const h = index.takeSameValue(w);
      if (h) changes.push(update(h, w));
      return !h;
    });
    have = liveGroup.filter((h) => !index.isTaken(h)).sort(byValue);
  }
  // 3. Other values at the same name and type: update entries in place, pairwise.
  if (!options.keepUnlisted) {
    const pairs = Math.min(have.length, want.length);
    for (let i = 0; i < pairs; i++) changes.push(update(have[i]!, want[i]!));
    have = have.slice(pairs);
    want = want.slice(pairs);
  }
  for (const w of want) changes.push({ action: 'create', after: zoneRecord(w) });
  for (const h of have) {
    if (options.keepUnlisted)
      plan.kept.push({ name: h.name, type: h.type, reason: 'not in the file (--keep-unlisted)', value: h.value });
    else changes.push({ action: 'delete', before: h });
  }
}

function update(before: LiveRecord, wanted: ZoneRecord): Change {
  const after = zoneRecord(wanted);
  return {
    action: 'update',
    before,
    after,
    ...(after.ttl === undefined && before.ttl !== undefined ? { replace: true } : {}),
  };
}

export interface PlanSummary {
  create: number;
  update: number;
  delete: number;
  unchanged: number;
}

/** Counted in one pass: no list of the 100,000 creates made to take its length. */
export function summarize(plan: Plan): PlanSummary {
  const summary: PlanSummary = { create: 0, update: 0, delete: 0, unchanged: plan.unchanged.length };
  const { changes } = plan;
  for (let i = 0; i < changes.length; i++) summary[changes[i]!.action]++;
  return summary;
}
