// What a file asks for, whichever form it was written in: the records ddedge manages, and
// those the file holds but leaves to the provider (SOA, apex NS) or skips (other types, with
// --skip-unsupported). Whole-zone rules are checked here, once for both forms.
import { isInZone } from './names.js';
import type { ZoneRecord } from './record.js';

/** A record of the file, with where it was written (`zone.txt:12:1`) for messages. */
export interface WantedRecord extends ZoneRecord {
  where: string;
}

export interface FileNote {
  name: string;
  type: string;
  reason: string;
  where: string;
}

export interface WantedZone {
  zone: string;
  records: WantedRecord[];
  /** Records the file holds that ddedge leaves to the provider (SOA, apex NS) or skips. */
  notes: FileNote[];
  /**
   * The file holds every record of the zone, even those a master file cannot (a backup,
   * backup-records.ts): the plan acts on those too instead of keeping them.
   */
  exact?: boolean;
}

/**
 * The zone-wide rules a master file must keep: every name inside the zone, a CNAME alone at
 * its name, each record once. Returns the message for the first record that breaks one.
 */
export function zoneProblem(zone: string, records: WantedRecord[], notes: FileNote[]): { where: string; reason: string } | undefined {
  const byName = new Map<string, (WantedRecord | FileNote)[]>();
  for (const r of [...records, ...notes]) {
    if (!isInZone(r.name, zone)) return { where: r.where, reason: `${r.name} is outside the zone ${zone}` };
    const group = byName.get(r.name);
    if (group) group.push(r);
    else byName.set(r.name, [r]);
  }
  for (const [name, list] of byName) {
    const cnames = list.filter((r) => r.type === 'CNAME');
    if (cnames.length && list.length > 1) {
      const other = list.find((r) => r !== cnames[0])!;
      return { where: later(cnames[0]!, other).where, reason: `a CNAME cannot share its name with other data: ${name} has ${cnames.length > 1 ? 'two CNAME records' : `a CNAME and ${other.type} data`} (RFC 1034 §3.6.2)` };
    }
  }
  const seen = new Map<string, WantedRecord>();
  for (const r of records) {
    const key = `${r.name}\t${r.type}\t${r.value}`;
    const first = seen.get(key);
    if (first && (first.ttl !== r.ttl || first.priority !== r.priority)) {
      return { where: r.where, reason: `${r.name} ${r.type} ${r.value} is already at ${first.where} with another ${first.ttl !== r.ttl ? 'TTL' : 'priority'}` };
    }
    seen.set(key, first ?? r);
  }
  return undefined;
}

/** The same record written twice is one record (an RRset has no duplicates, RFC 2181 §5). */
export function withoutDuplicates(records: WantedRecord[]): WantedRecord[] {
  const seen = new Set<string>();
  return records.filter((r) => {
    const key = `${r.name}\t${r.type}\t${r.value}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const position = (where: string): number[] => where.split(':').slice(-2).map(Number);
function later<T extends { where: string }>(a: T, b: T): T {
  const [la = 0, ca = 0] = position(a.where);
  const [lb = 0, cb = 0] = position(b.where);
  return la > lb || (la === lb && ca > cb) ? a : b;
}
