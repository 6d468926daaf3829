// A zone's text in either form: read (told apart by content) and written (export, backups).
import { toJsonRecord } from '../file/json-form.js';
import { looksLikeJson, parseJsonText, readJsonZone } from '../file/json-form.js';
import { masterFileOrigin, readMasterFile, type ReadOptions } from '../file/master-reader.js';
import { quote, rdataOf, visible, writeMasterFile } from '../file/master-writer.js';
import { relativeName } from '../../lib/names.js';
import { hasPriority, isZoneType, type LiveRecord } from '../record.js';
import type { WantedRecord, WantedZone } from '../wanted-zone.js';
import { ZoneFileError, type FileProblem } from '../zone-file-error.js';
import { ConfigError } from '../../lib/errors.js';
import { exactLines, readExactRecords } from '../file/backup-records.js';
import { unwritableRecords } from '../plan/unwritable.js';
import { withoutProviderLines } from '../file/provider-lines.js';

/**
 * The largest zone file ddedge reads (a path to a device or a generator must not be read without
 * end). 100,000 entries of long TXT data fit; export and backups never write a file larger than
 * this, so every file ddedge writes it can read back, and every backup can be applied.
 */
export const ZONE_FILE_MAX_BYTES = 256 * 1024 * 1024;

/** `text`, when ddedge can read it back as a zone file; otherwise an error saying so (exit 2). */
export function readableZoneText(text: string, what: string): string {
  const bytes = Buffer.byteLength(text);
  if (bytes > ZONE_FILE_MAX_BYTES)
    throw new ConfigError(
      `${what}: the zone as a file is ${Math.ceil(bytes / 1024 / 1024)} MiB, more than the ` +
        `${ZONE_FILE_MAX_BYTES / 1024 / 1024} MiB ddedge reads back; nothing was written`,
    );
  return text;
}

export function readZoneText(text: string, options: ReadOptions): WantedZone {
  const body = withoutBom(text);
  if (looksLikeJson(body)) return readJsonZone(body, options);
  // A complete export's `$TTL` and glue are the provider's (provider-lines.ts); a file that
  // still carries those marks says so itself and is not read as BIND's canonical form.
  const unmarked = withoutProviderLines(body);
  const wanted = readMasterFile(unmarked, options);
  if (unmarked !== body) delete wanted.bindForm;
  // A backup: the records its master file could not hold, in their exact form, beside it.
  const exact = readExactRecords(body, options.zone, options.file);
  if (!exact.exact) return wanted;
  checkExactBesideCnames(wanted.records, exact.records, options.file);
  return { ...wanted, records: [...wanted.records, ...exact.records], exact: true };
}

/**
 * RFC 1034 §3.6.2 between the two parts of a backup. Exact lines may hold a CNAME beside other
 * data among themselves (the provider held that, and a backup gives it back), but never beside
 * a record of the master-file part: a backup never writes such a pair, and the provider would
 * refuse it half-way through an apply.
 */
function checkExactBesideCnames(records: readonly WantedRecord[], exact: readonly WantedRecord[], file: string): void {
  const atName = new Map<string, { cname: boolean; other: boolean }>();
  for (const r of records) {
    const held = atName.get(r.name) ?? { cname: false, other: false };
    if (r.type === 'CNAME') held.cname = true;
    else held.other = true;
    atName.set(r.name, held);
  }
  const problems: FileProblem[] = [];
  for (const r of exact) {
    const held = atName.get(r.name);
    if (held && (r.type === 'CNAME' ? held.cname || held.other : held.cname)) {
      // An exact record is a plain object whose where is `file:line:1` (backup-records.ts).
      const line = Number(/:(\d+):\d+$/.exec(r.where ?? '')?.[1] ?? 1);
      problems.push({
        line,
        column: 1,
        reason:
          `a CNAME cannot share its name with other data: ${r.name} ${r.type} beside the file's records at ` +
          `that name (RFC 1034 §3.6.2)`,
      });
    }
  }
  if (problems.length) throw new ZoneFileError(file, problems);
}

/** Editors on Windows start UTF-8 files with a byte order mark; it is not part of the zone. */
const withoutBom = (text: string): string => (text.startsWith('\uFEFF') ? text.slice(1) : text);

/** The first $ORIGIN of a master file, the zone it is about when --service is not given. */
export function originOf(text: string, file = 'the zone file'): string | undefined {
  const body = withoutBom(text);
  return looksLikeJson(body) ? undefined : masterFileOrigin(body, file);
}

/**
 * Why a file names no zone, when its text says: the JSON form names none, and one that is not
 * valid JSON is first of all broken (a ZoneFileError naming where). Undefined for a master file.
 */
export function noZoneNamedBy(text: string, file: string): string | undefined {
  const body = withoutBom(text);
  if (!looksLikeJson(body)) return undefined;
  parseJsonText(body, file);
  return 'the JSON form names no zone';
}

/**
 * The live zone as a master file (export). Records of the managed types (and the provider's SOA
 * and NS) are written as records; a record a master file cannot hold is written as a comment
 * with the reason, and a plan keeps it (unwritable.ts); so are types ddedge does not manage.
 * A name or value with a line break or escape sequence is written escaped, in a comment: as a
 * record it could be anything, even other records.
 */
export function zoneAsMasterFile(
  zone: string,
  records: readonly LiveRecord[],
  header: string[],
  afterOrigin: string[] = [],
): string {
  return masterFile(zone, records, header, false, afterOrigin);
}

/**
 * The live zone as a backup: the export, and every record the master file could not hold in
 * its exact form (backup-records.ts), so that applying the backup restores the zone record
 * for record.
 */
export function backupAsMasterFile(zone: string, records: readonly LiveRecord[], header: string[]): string {
  return masterFile(zone, records, header, true);
}

function masterFile(
  zone: string,
  records: readonly LiveRecord[],
  header: string[],
  exact: boolean,
  afterOrigin: string[] = [],
): string {
  const unwritable = unwritableRecords(zone, records);
  const writable: LiveRecord[] = [];
  const comments: string[] = [];
  const restorable: LiveRecord[] = [];
  const line = (r: LiveRecord) => {
    const priority = r.priority !== undefined && hasPriority(r.type) ? ` ${r.priority}` : '';
    const data = r.type === 'TXT' ? rdataOf(r) : quote(r.value);
    return `${visible(relativeName(r.name, zone))} ${r.ttl ?? ''} IN ${visible(r.type)}${priority} ${data}`.replace(
      / {2,}/g,
      ' ',
    );
  };
  for (const r of records) {
    const problem = unwritable.get(r);
    if (problem) {
      comments.push(`kept, ${problem.reason}: ${line(r)}`);
      if (problem.restorable) restorable.push(r);
    } else if (isZoneType(r.type) || r.type === 'SOA') writable.push(r);
    else comments.push(`not managed by ddedge: ${line(r)}`);
  }
  const trailer = exact
    ? [
        '; every record of the zone is in this file: those above as records, those below as the provider holds them',
        ...exactLines(restorable),
      ]
    : [];
  return writeMasterFile(zone, writable, [...header, ...comments], { afterOrigin, trailer });
}

export function zoneAsJson(records: readonly LiveRecord[]): string {
  return JSON.stringify(records.map(toJsonRecord), null, 2) + '\n';
}
