// What makes a backup restore the zone record for record: the records a master file cannot hold
// (unwritable.ts) ride in the backup itself, each on a comment line in the JSON form,
//
//   ;ddedge-exact-zone
//   ;ddedge-record {"name":"alias.example.com","type":"CNAME","ttl":null,"priority":null,"value":"*.example.net"}
//
// Comments, so BIND and any other reader load the file as the master file it is; one file, so a
// backup copied elsewhere is still whole (a sidecar can be left behind or rotated apart). The
// first line says the file holds every record of the zone: applying it also replaces and deletes
// unwritable records, which an ordinary file (an export) keeps because it cannot name them.
// A line starts with ";" only as a comment (a quoted string never spans lines), so a record's
// text never reads as one of these.
import { toJsonRecord } from './json-form.js';
import { jsonParseReason } from './json-syntax-place.js';
import { atOrBelow, canonicalName } from '../../lib/names.js';
import { hasPriority, isZoneType, type LiveRecord } from '../record.js';
import type { WantedRecord } from '../wanted-zone.js';
import { ZoneFileError } from '../zone-file-error.js';

const EXACT_ZONE = ';ddedge-exact-zone';
const RECORD = ';ddedge-record ';

/**
 * The lines a backup carries: the mark, then each record as JSON. JSON escapes the C0 controls;
 * DEL, the C1 controls (a terminal's CSI) and the Unicode line separators are escaped too, so
 * the line is plain text whatever the provider held.
 */
export function exactLines(records: readonly LiveRecord[]): string[] {
  const escaped = (json: string) =>
    json.replace(/[\x7f-\x9f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return [EXACT_ZONE, ...records.map((r) => RECORD + escaped(JSON.stringify(toJsonRecord(r))))];
}

export interface ExactRecords {
  /** The file says it holds every record of the zone. */
  exact: boolean;
  records: WantedRecord[];
}

/** The exact records of a master file, checked only as far as the provider needs (they were its own). */
export function readExactRecords(text: string, zone: string, file: string): ExactRecords {
  let exact = false;
  const records: WantedRecord[] = [];
  // Only files that carry the mark are read line by line; an export or a hand-written file is not.
  if (!text.includes(EXACT_ZONE)) return { exact, records };
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.replace(/\r$/, '');
    if (line === EXACT_ZONE) exact = true;
    else if (line.startsWith(RECORD)) records.push(parseRecord(line.slice(RECORD.length), zone, file, i + 1));
  }
  if (records.length && !exact)
    throw new ZoneFileError(file, [
      { line: 1, column: 1, reason: `${RECORD.trim()} lines without the ${EXACT_ZONE} line` },
    ]);
  return { exact, records };
}

function parseRecord(json: string, zone: string, file: string, line: number): WantedRecord {
  const fail = (reason: string): never => {
    throw new ZoneFileError(file, [{ line, column: RECORD.length + 1, reason: `${RECORD.trim()}: ${reason}` }]);
  };
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(json);
  } catch (error) {
    return fail(`not valid JSON (${jsonParseReason((error as Error).message)})`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    fail('not an object {name, type, ttl, priority, value}');
  const { name, type, ttl, priority, value } = data;
  if (typeof name !== 'string' || typeof type !== 'string' || typeof value !== 'string')
    return fail('name, type and value must be strings');
  // Exactly as a backup writes it (a record whose name is not a host name in this form is never
  // written: unwritable.ts marks it not restorable). Any other spelling, "HOME.example.com" or
  // a trailing dot, would slip past the ownership and --ignore checks, which compare names as
  // the provider keeps them.
  if (canonicalName(name) !== name)
    fail(`${JSON.stringify(name)} is not a name as a backup writes it (lower case, ASCII, no trailing dot)`);
  if (!atOrBelow(name, zone)) fail(`${JSON.stringify(name)} is outside the zone ${zone}`);
  if (!isZoneType(type)) return fail(`type ${JSON.stringify(type)} is not one ddedge manages`);
  const number = (v: unknown, what: string, max: number): number | undefined => {
    if (v === null || v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max)
      fail(`${what} ${JSON.stringify(v)} is not a number from 0 to ${max}`);
    return v as number;
  };
  return {
    name,
    type,
    // The provider's own values go back as they were, even beyond what a master file allows.
    ttl: number(ttl, 'ttl', Number.MAX_SAFE_INTEGER),
    priority: hasPriority(type) ? number(priority, 'priority', Number.MAX_SAFE_INTEGER) : undefined,
    value,
    where: `${file}:${line}:1`,
  };
}
