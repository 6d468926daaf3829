// A zone's text in either form: read (told apart by content) and written (export, backups).
import { toJsonRecord } from './json-form.js';
import { looksLikeJson, readJsonZone } from './json-form.js';
import { masterFileOrigin, readMasterFile, type ReadOptions } from './master-reader.js';
import { quote, rdataOf, visible, writeMasterFile } from './master-writer.js';
import { canonicalName, isInZone, relativeName } from './names.js';
import { canonicalValue, ValueError } from './values.js';
import { isZoneType, type LiveRecord } from './record.js';
import type { WantedZone } from './wanted-zone.js';

export function readZoneText(text: string, options: ReadOptions): WantedZone {
  const body = withoutBom(text);
  return looksLikeJson(body) ? readJsonZone(body, options) : readMasterFile(body, options);
}

/** Editors on Windows start UTF-8 files with a byte order mark; it is not part of the zone. */
const withoutBom = (text: string): string => (text.startsWith('\uFEFF') ? text.slice(1) : text);

/** The first $ORIGIN of a master file, the zone it is about when --service is not given. */
export function originOf(text: string, file = 'the zone file'): string | undefined {
  const body = withoutBom(text);
  return looksLikeJson(body) ? undefined : masterFileOrigin(body, file);
}

export function zoneAsMasterFile(zone: string, records: LiveRecord[], header: string[]): string {
  // SOA and NS are written as records (a reader leaves them to the provider); other types the
  // provider may hold but ddedge does not manage are kept visible as comments.
  // A name or value the provider answered that is not valid for its type (a line break in it,
  // say) is written as a comment too: as a record it could be anything, even other records.
  // So is a name outside the zone: the file would not be read back (exit 2 on every apply).
  const valid = records.filter((r) => writableAsIs(r) && isInZone(r.name, zone));
  const writable = valid.filter((r) => isZoneType(r.type) || r.type === 'SOA');
  const others = valid.filter((r) => !writable.includes(r));
  const line = (r: LiveRecord) => `${visible(relativeName(r.name, zone))} ${r.ttl ?? ''} IN ${visible(r.type)} ${r.type === 'TXT' ? rdataOf(r) : quote(r.value)}`.replace(/ {2,}/g, ' ');
  const comments = [
    ...others.map((r) => `not managed by ddedge: ${relativeName(r.name, zone)} ${r.ttl ?? ''} IN ${r.type} ${rdataOf(r)}`.replace(/ {2,}/g, ' ')),
    ...records.filter((r) => !valid.includes(r)).map((r) => `not written, its name or value cannot be: ${line(r)}`),
  ];
  return writeMasterFile(zone, writable, [...header, ...comments]);
}

/** A record whose name is a host name and whose value is one its type holds, as ddedge writes it. */
function writableAsIs(r: LiveRecord): boolean {
  if (canonicalName(r.name) !== r.name || !/^[A-Z0-9]+$/.test(r.type)) return false;
  if (!isZoneType(r.type)) return !/[\x00-\x1f\x7f]/.test(r.value);
  try {
    return canonicalValue(r.type, r.value) === r.value;
  } catch (error) {
    if (error instanceof ValueError) return false;
    throw error;
  }
}

export function zoneAsJson(records: LiveRecord[]): string {
  return JSON.stringify(records.map(toJsonRecord), null, 2) + '\n';
}
