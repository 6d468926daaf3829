// The zone as JSON for scripts: an array of {name, type, ttl, priority, value}, names in full,
// values in the provider's form, ttl and priority null for the provider's default. Read back
// with the same rules as a master file.
import { ConfigError } from '../errors.js';
import { absoluteName, canonicalName } from './names.js';
import { hasPriority, isZoneType, MAX_TTL, type ZoneRecord } from './record.js';
import { canonicalValue, checkPriority, ValueError } from './values.js';
import { withoutDuplicates, zoneProblem, type FileNote, type WantedRecord, type WantedZone } from './wanted-zone.js';
import type { ReadOptions } from './master-reader.js';

export interface JsonRecord {
  name: string;
  type: string;
  ttl: number | null;
  priority: number | null;
  value: string;
}

export const toJsonRecord = (r: Omit<ZoneRecord, 'type'> & { type: string }): JsonRecord => ({ name: r.name, type: r.type, ttl: r.ttl ?? null, priority: r.priority ?? null, value: r.value });

/** Master file or JSON, told apart by content: only JSON starts with "[". */
export const looksLikeJson = (text: string): boolean => text.trimStart().startsWith('[');

export function readJsonZone(text: string, options: ReadOptions): WantedZone {
  const { file, zone } = options;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const position = /position (\d+)/.exec((error as Error).message);
    const offset = position ? Number(position[1]) : 0;
    const before = text.slice(0, offset).split('\n');
    throw new ConfigError(`${file}:${before.length}:${before.at(-1)!.length + 1}: not valid JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(data)) throw new ConfigError(`${file}: the JSON form is an array of {name, type, ttl, priority, value}`);
  const records: WantedRecord[] = [];
  const notes: FileNote[] = [];
  const positions = elementPositions(text);
  data.forEach((item: unknown, index) => {
    const at = positions[index];
    const where = at ? `${file}:${at.line}:${at.column}` : `${file}: record ${index + 1}`;
    const fail = (reason: string): never => {
      throw new ConfigError(`${where}: ${reason}`);
    };
    if (typeof item !== 'object' || item === null) fail('not an object {name, type, ttl, priority, value}');
    const r = item as Record<string, unknown>;
    if (typeof r.name !== 'string' || typeof r.type !== 'string' || typeof r.value !== 'string') fail('name, type and value must be strings');
    const raw = String(r.name);
    const name = canonicalName(raw === '@' || raw === '' ? zone : raw.endsWith('.') || raw === zone || raw.endsWith(`.${zone}`) ? raw : absoluteName(raw, zone)) ?? fail(`"${raw}" is not a host name`);
    const type = String(r.type).toUpperCase();
    if (type === 'SOA' || (type === 'NS' && name === zone)) {
      notes.push({ name, type, reason: `left to the provider (${type === 'SOA' ? 'SOA' : 'apex NS'})`, where });
      return;
    }
    if (!isZoneType(type)) {
      if (options.skipUnsupported) notes.push({ name, type, reason: 'skipped: the provider does not keep this type (--skip-unsupported)', where });
      else fail(`unknown or unsupported type "${r.type}"`);
      return;
    }
    const ttl = optionalNumber(r.ttl, 'ttl', MAX_TTL, fail);
    const priority = hasPriority(type) ? (optionalNumber(r.priority, 'priority', 65535, fail) ?? 10) : undefined;
    try {
      checkPriority(type, priority);
      records.push({ name, type, ttl, priority, value: canonicalValue(type, String(r.value)), where });
    } catch (error) {
      if (error instanceof ValueError) fail(error.message);
      throw error;
    }
  });
  const problem = zoneProblem(zone, records, notes);
  if (problem) throw new ConfigError(`${problem.where}: ${problem.reason}`);
  return { zone, records: withoutDuplicates(records), notes };
}

function optionalNumber(value: unknown, what: string, max: number, fail: (reason: string) => never): number | undefined {
  if (value === null || value === undefined || value === '' || value === '-') return undefined;
  const text = String(value);
  if (!/^\d+$/.test(text) || Number(text) > max) fail(`${what} ${JSON.stringify(value)} is out of range (0 to ${max})`);
  return Number(text);
}

/** Where each element of the top-level array starts, so errors name a line and column. */
function elementPositions(text: string): { line: number; column: number }[] {
  const positions: { line: number; column: number }[] = [];
  let depth = 0;
  let inString = false;
  let line = 1;
  let column = 0;
  let expectElement = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    column++;
    if (c === '\n') {
      line++;
      column = 0;
      continue;
    }
    if (inString) {
      if (c === '\\') {
        i++;
        column++;
      } else if (c === '"') inString = false;
      continue;
    }
    if (/\s/.test(c)) continue;
    if (depth === 1 && expectElement) {
      positions.push({ line, column });
      expectElement = false;
    }
    if (c === '"') inString = true;
    else if (c === '[' || c === '{') {
      depth++;
      if (depth === 1) expectElement = true;
    } else if (c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 1) expectElement = true;
  }
  return positions;
}
