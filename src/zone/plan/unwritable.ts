// The records of a live zone that a master file cannot hold, and why. The provider keeps what
// it accepted (a CNAME to `*.example.net`, a target longer than a name may be, a CAA value with
// a bare quote, a duplicate entry); ddedge's writer would turn such a record into another one,
// or into a file its reader refuses. So the export writes it as a comment, and the plan keeps it
// (reported, never updated or deleted): exporting a zone and applying that file changes nothing.
// Backups carry these records in their exact form besides (backup-records.ts).
import { atOrBelow, canonicalName } from '../../lib/names.js';
import { SeenTexts } from '../../lib/seen-texts.js';
import type { Owner } from './ownership.js';
import { hasPriority, isZoneType, MAX_TTL, type LiveRecord } from '../record.js';
import { canonicalValue, ValueError } from '../values.js';
import type { WantedZone } from '../wanted-zone.js';
import { visible } from '../file/master-writer.js';

const UNWRITABLE = 'cannot be written in a master file';

export interface Unwritable {
  /** `cannot be written in a master file: <why>`, as the plan reports it. */
  reason: string;
  /** Whether a backup can give it back to the provider as it was (its name is in the zone). */
  restorable: boolean;
  /**
   * A second entry of a record the file writes once (`name\ttype\tvalue`): it stays while the
   * file holds that record, and goes with it when the file drops the record.
   */
  entryOf?: string;
}

/**
 * Every record of the eight managed types (and the provider's SOA) that the writer cannot write
 * as itself, by identity. Linear in the zone: one pass per rule, maps keyed by name.
 */
export function unwritableRecords(
  zone: string,
  live: readonly LiveRecord[],
  notAsListed?: ReadonlySet<LiveRecord>,
): Map<LiveRecord, Unwritable> {
  const found = new Map<LiveRecord, Unwritable>();
  const mark: Mark = (r, why, restorable = true, entryOf) => {
    if (!found.has(r))
      found.set(r, { reason: `${UNWRITABLE}: ${why}`, restorable, ...(entryOf !== undefined ? { entryOf } : {}) });
  };
  const isWritten = (r: LiveRecord) => isZoneType(r.type) || r.type === 'SOA';
  // No copy of a zone whose records are all of these types (most are).
  const written = live.every(isWritten) ? live : live.filter(isWritten);
  // Each rule's pass is a function of its own: a loop over 100,000 records is optimized by itself
  // (one function of several such loops was compiled anew at each, and deoptimized between them).
  // Indexed loops: a for-of makes an iterator result for each record until it is optimized.
  markOwnProblems(written, zone, mark, notAsListed);
  markCnameNeighbours(written, mark);
  const several = namesOfSeveral(written, zone, found);
  if (several.size) markSecondEntries(written, several, found, mark);
  return found;
}

type Mark = (r: LiveRecord, why: string, restorable?: boolean, entryOf?: string) => void;

/**
 * With `notAsListed` (the listing's, provider-mapping.ts), a record not in it is canonical in name and value as the
 * mapping read it: those two checks, made for each record again, are left out for it.
 */
function markOwnProblems(
  written: readonly LiveRecord[],
  zone: string,
  mark: Mark,
  notAsListed: ReadonlySet<LiveRecord> | undefined,
): void {
  for (let i = 0; i < written.length; i++) {
    const r = written[i]!;
    const asListed = notAsListed !== undefined && (notAsListed.size === 0 || !notAsListed.has(r));
    const why = ownProblem(r, zone, asListed);
    if (why) mark(r, why.text, why.restorable);
  }
}

/**
 * A CNAME has its name to itself (RFC 1034 §3.6.2): a reader refuses a file that puts other
 * data beside it. None of the records at such a name is written, so none is acted on either:
 * a plan that kept some and matched others would create a conflict the provider refuses.
 */
function markCnameNeighbours(written: readonly LiveRecord[], mark: Mark): void {
  const cnames = new Map<string, number>();
  for (let i = 0; i < written.length; i++) if (written[i]!.type === 'CNAME') cnames.set(written[i]!.name, 0);
  if (!cnames.size) return;
  for (const r of written) if (cnames.has(r.name)) cnames.set(r.name, cnames.get(r.name)! + 1);
  for (const r of written)
    if ((cnames.get(r.name) ?? 0) > 1)
      mark(r, `a CNAME shares the name ${visible(r.name)} with other data (RFC 1034 §3.6.2)`);
}

/**
 * A record is written once: a reader keeps one of two equal lines, and refuses two that differ
 * only in TTL or priority. The entry written is the oldest (lowest entity ID), so every
 * listing picks the same one, also after the file changed its TTL.
 * Found by name first, in a table of the names seen (one lookup a record; most names hold one entry): only names of
 * several entries are looked at by type and value. The names that may hold several entries not found already: the
 * table says so of a few names by mistake, which the look by type and value finds to hold one.
 */
function namesOfSeveral(
  written: readonly LiveRecord[],
  zone: string,
  found: ReadonlyMap<LiveRecord, Unwritable>,
): Set<string> {
  // Names in the zone end in `.zone`: only what comes before tells them apart.
  const names = new SeenTexts(written.length, zone.length + 1);
  const several = new Set<string>();
  for (let i = 0; i < written.length; i++) {
    const r = written[i]!;
    if (!found.has(r) && names.seenBefore(r.name)) several.add(r.name);
  }
  return several;
}

/** Entries at `several` names that hold a record another (older) entry holds too. */
function markSecondEntries(
  written: readonly LiveRecord[],
  several: ReadonlySet<string>,
  found: ReadonlyMap<LiveRecord, Unwritable>,
  mark: Mark,
): void {
  const byName = new Map<string, LiveRecord[]>();
  // Indexed: this pass runs once, over every record (the table of names gives a few candidates in most large zones),
  // and a for-of there ran in the interpreter, an iterator result for each record, for tens of milliseconds.
  for (let i = 0; i < written.length; i++) {
    const r = written[i]!;
    if (!several.has(r.name) || found.has(r)) continue;
    const held = byName.get(r.name);
    if (held) held.push(r);
    else byName.set(r.name, [r]);
  }
  for (const held of byName.values()) {
    const oldest = new Map<string, LiveRecord>();
    for (const r of held) {
      const key = recordKey(r);
      const seen = oldest.get(key);
      if (!seen || byEntity(r, seen) < 0) oldest.set(key, r);
    }
    if (oldest.size === held.length) continue;
    for (const r of held) {
      const key = recordKey(r);
      if (oldest.get(key) !== r)
        mark(r, 'another entry holds the same record, and a master file holds a record once', true, key);
    }
  }
}

/**
 * The plan's owner, keeping unwritable records too (after the rules of ownership.ts). A file
 * that holds the zone exactly (a backup) names them itself: then only those it cannot give back
 * are kept. A second entry of a record is kept while the file holds the record.
 */
export function keepingUnwritable(owner: Owner, unwritable: Map<LiveRecord, Unwritable>, wanted: WantedZone): Owner {
  // Asked only of a second entry, which most zones have none of.
  let named: Set<string> | undefined;
  const isNamed = (key: string): boolean => {
    named ??= new Set(wanted.records.map(recordKey));
    return named.has(key);
  };
  return (record) => {
    const own = owner(record);
    if (own) return own;
    if (!unwritable.size) return undefined;
    const u = unwritable.get(record as LiveRecord);
    if (!u || (wanted.exact && u.restorable) || (u.entryOf !== undefined && !isNamed(u.entryOf))) return undefined;
    return u.reason;
  };
}

const recordKey = (r: { name: string; type: string; value: string }): string => `${r.name}\t${r.type}\t${r.value}`;

/**
 * A provider's value that ddedge can only read by guessing: a CAA value with a quote or a
 * backslash that is not escaped (`0 issue "ca"quoted"`). Its canonical form would be another
 * text, so it is not made canonical (provider-mapping.ts) and, not canonical, is kept.
 */
export function readingIsAGuess(type: string, value: string): boolean {
  if (type !== 'CAA') return false;
  const match = /^\s*\d+\s+[A-Za-z0-9]+\s+(.*?)\s*$/s.exec(value);
  if (!match) return false;
  const text = match[1]!;
  const body = text.length >= 2 && text.startsWith('"') && text.endsWith('"') ? text.slice(1, -1) : text;
  return /["\\]/.test(body.replace(/\\["\\]/g, ''));
}

/** Why `r` cannot be written as itself; `canonical`: its name and value are known canonical already. */
function ownProblem(
  r: LiveRecord,
  zone: string,
  canonical: boolean,
): { text: string; restorable: boolean } | undefined {
  const problem = (text: string, restorable = true) => ({ text, restorable });
  // The provider refuses such a name in a create: a backup could not give it back.
  if (!canonical && canonicalName(r.name) !== r.name)
    return problem(`its name "${visible(r.name)}" is not a host name`, false);
  if (!atOrBelow(r.name, zone)) return problem(`its name is outside the zone ${zone}`, false);
  if (r.type === 'SOA') return /^[\x20-\x7e]+$/.test(r.value) ? undefined : problem('its value is not one SOA text');
  if (r.ttl !== undefined && r.ttl > MAX_TTL) return problem(`its TTL ${r.ttl} is beyond ${MAX_TTL} (RFC 2181 §8)`);
  if (hasPriority(r.type) && r.priority !== undefined && r.priority > 65535)
    return problem(`its priority ${r.priority} is beyond 65535`);
  // A lone surrogate cannot be written as UTF-8: it would come back as U+FFFD, another text.
  if (SURROGATE.test(r.value) && LONE_SURROGATE.test(r.value)) return problem('its value is not valid Unicode text');
  if (!isZoneType(r.type) || canonical) return undefined;
  try {
    const canonical = canonicalValue(r.type, r.value);
    return canonical === r.value
      ? undefined
      : problem(`ddedge would write its value as ${visible(canonical)}, another value`);
  } catch (error) {
    if (error instanceof ValueError) return problem(visible(error.message));
    throw error;
  }
}

/** Any surrogate: a quick test that rules out the slower one for almost every value. */
const SURROGATE = /[\uD800-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const byEntity = (a: LiveRecord, b: LiveRecord): number =>
  a.entityID.length - b.entityID.length || (a.entityID < b.entityID ? -1 : a.entityID > b.entityID ? 1 : 0);
