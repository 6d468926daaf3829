// A zone's text in either form: read (told apart by content) and written (export, backups).
import { toJsonRecord } from './json-form.js';
import { looksLikeJson, readJsonZone } from './json-form.js';
import { readMasterFile, type ReadOptions } from './master-reader.js';
import { rdataOf, writeMasterFile } from './master-writer.js';
import { relativeName } from './names.js';
import { isZoneType, type LiveRecord } from './record.js';
import type { WantedZone } from './wanted-zone.js';

export function readZoneText(text: string, options: ReadOptions): WantedZone {
  const body = withoutBom(text);
  return looksLikeJson(body) ? readJsonZone(body, options) : readMasterFile(body, options);
}

/** Editors on Windows start UTF-8 files with a byte order mark; it is not part of the zone. */
const withoutBom = (text: string): string => (text.startsWith('\uFEFF') ? text.slice(1) : text);

/** The first $ORIGIN of a master file, the zone it is about when --service is not given. */
export function originOf(text: string): string | undefined {
  const match = /^\$ORIGIN[ \t]+(\S+)/im.exec(withoutBom(text));
  return match ? match[1]!.toLowerCase().replace(/\.$/, '') : undefined;
}

export function zoneAsMasterFile(zone: string, records: LiveRecord[], header: string[]): string {
  // SOA and NS are written as records (a reader leaves them to the provider); other types the
  // provider may hold but ddedge does not manage are kept visible as comments.
  const writable = records.filter((r) => isZoneType(r.type) || r.type === 'SOA');
  const others = records.filter((r) => !writable.includes(r));
  const comments = others.map((r) => `not managed by ddedge: ${relativeName(r.name, zone)} ${r.ttl ?? ''} IN ${r.type} ${rdataOf(r)}`.replace(/ {2,}/g, ' '));
  return writeMasterFile(zone, writable, [...header, ...comments]);
}

export function zoneAsJson(records: LiveRecord[]): string {
  return JSON.stringify(records.map(toJsonRecord), null, 2) + '\n';
}
