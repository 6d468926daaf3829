// The zone as it will be after a plan, checked for the one rule a file cannot check alone: a
// CNAME is alone at its name (RFC 1034 §3.6.2). The file may be clean and still put a CNAME
// beside a record the plan leaves alone (the agent's host, an ACME challenge, an --ignore-d
// or --keep-unlisted record); the provider refuses that create half-way through an apply,
// after the backup and other changes. Found here, it is a bad file: nothing is sent.
import { ConfigError } from '../errors.js';
import type { Plan } from './plan.js';
import type { LiveRecord, ZoneRecord } from './record.js';
import type { WantedZone } from './wanted-zone.js';

/** Throws a ConfigError naming the file's line when the planned zone has a CNAME beside other data. */
export function checkKeptConflicts(plan: Plan, wanted: WantedZone): void {
  const touched = new Set<LiveRecord>(plan.changes.flatMap((c) => (c.before ? [c.before] : [])));
  const staying = plan.live.filter((r) => !touched.has(r) && !plan.unchanged.includes(r));
  if (!staying.length) return;
  const arriving = [...plan.unchanged, ...plan.changes.flatMap((c) => (c.after ? [c.after] : []))];
  const stayingByName = new Map<string, LiveRecord[]>();
  for (const r of staying) stayingByName.set(r.name, [...(stayingByName.get(r.name) ?? []), r]);
  for (const record of arriving) {
    const other = (stayingByName.get(record.name) ?? []).find((r) => record.type === 'CNAME' || r.type === 'CNAME');
    if (!other) continue;
    const reason = plan.kept.find((k) => k.name === other.name && k.type === other.type && k.value === other.value)?.reason ?? 'left alone';
    throw new ConfigError(`${whereOf(record, wanted)}: a CNAME cannot share its name with other data: ${record.name} keeps ${other.type} ${other.value} (${reason}) (RFC 1034 §3.6.2)`);
  }
}

function whereOf(record: ZoneRecord | LiveRecord, wanted: WantedZone): string {
  const line = wanted.records.find((w) => w.name === record.name && w.type === record.type && w.value === record.value);
  return line?.where ?? wanted.records.find((w) => w.name === record.name)?.where ?? wanted.zone;
}
