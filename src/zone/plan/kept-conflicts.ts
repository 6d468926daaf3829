// The zone as it will be after a plan, checked for the one rule a file cannot check alone: a
// CNAME is alone at its name (RFC 1034 §3.6.2). The file may be clean and still put a CNAME
// beside a record the plan leaves alone (the agent's host, an ACME challenge, an --ignore-d
// or --keep-unlisted record); the provider refuses that create half-way through an apply,
// after the backup and other changes. Found here, it is a bad file: nothing is sent.
// Linear in the zone: each record is looked up by its name once.
import { ConfigError } from '../../lib/errors.js';
import type { Plan } from './plan.js';
import type { LiveRecord, ZoneRecord } from '../record.js';
import type { WantedZone } from '../wanted-zone.js';

/** What stays at one name: the first record, and the first CNAME, if any. */
interface StayingAtName {
  first: LiveRecord;
  cname?: LiveRecord;
}

/** Throws a ConfigError naming the file's line when the planned zone has a CNAME beside other data. */
export function checkKeptConflicts(plan: Plan, wanted: WantedZone): void {
  // Each live record is unchanged, changed or left alone, once: when none is left alone, nothing stays.
  let touched = plan.unchanged.length;
  // Indexed: a for-of makes an iterator result for each of 100,000 changes until it is optimized.
  for (let i = 0; i < plan.changes.length; i++) if (plan.changes[i]!.before) touched++;
  if (touched === plan.live.length) return;
  const gone = new Set<LiveRecord>(plan.unchanged);
  for (const c of plan.changes) if (c.before) gone.add(c.before);
  const staying = new Map<string, StayingAtName>();
  for (const r of plan.live) {
    if (gone.has(r)) continue;
    const atName = staying.get(r.name);
    if (!atName) staying.set(r.name, { first: r, ...(r.type === 'CNAME' ? { cname: r } : {}) });
    else if (r.type === 'CNAME') atName.cname ??= r;
  }
  if (!staying.size) return;
  const check = (record: ZoneRecord | LiveRecord) => {
    const atName = staying.get(record.name);
    const other = !atName ? undefined : record.type === 'CNAME' ? atName.first : atName.cname;
    if (other) throw conflict(record, other, plan, wanted);
  };
  for (const r of plan.unchanged) check(r);
  for (const c of plan.changes) if (c.after) check(c.after);
}

function conflict(record: ZoneRecord | LiveRecord, other: LiveRecord, plan: Plan, wanted: WantedZone): ConfigError {
  const reason =
    plan.kept.find((k) => k.name === other.name && k.type === other.type && k.value === other.value)?.reason ??
    'left alone';
  return new ConfigError(
    `${whereOf(record, wanted)}: a CNAME cannot share its name with other data: ${record.name} keeps ${other.type} ` +
      `${other.value} (${reason}) (RFC 1034 §3.6.2)`,
  );
}

function whereOf(record: ZoneRecord | LiveRecord, wanted: WantedZone): string {
  const line = wanted.records.find((w) => w.name === record.name && w.type === record.type && w.value === record.value);
  return line?.where ?? wanted.records.find((w) => w.name === record.name)?.where ?? wanted.zone;
}
