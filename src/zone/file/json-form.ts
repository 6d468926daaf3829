// The zone as JSON for scripts: an array of {name, type, ttl, priority, value}, names in full,
// values in the provider's form, ttl and priority null for the provider's default. Read back
// with the same rules as a master file, every problem reported with its line and column.
import { ConfigError } from '../../lib/errors.js';
import { atOrBelow, canonicalName } from '../../lib/names.js';
import { hasPriority, isZoneType, MAX_TTL, type ZoneRecord } from '../record.js';
import { canonicalValue, checkPriority, ValueError } from '../values.js';
import { WantedZoneBuilder, type WantedZone } from '../wanted-zone.js';
import { FileProblems, shown, ZoneFileError } from '../zone-file-error.js';
import { jsonParseReason, jsonSyntaxPlace, placeOf } from './json-syntax-place.js';
import type { ReadOptions } from './master-reader.js';

export interface JsonRecord {
  name: string;
  type: string;
  ttl: number | null;
  priority: number | null;
  value: string;
}

export const toJsonRecord = (r: Omit<ZoneRecord, 'type'> & { type: string }): JsonRecord => ({
  name: r.name,
  type: r.type,
  ttl: r.ttl ?? null,
  priority: r.priority ?? null,
  value: r.value,
});

/** Master file or JSON, told apart by content: only JSON starts with "[". */
export const looksLikeJson = (text: string): boolean => text.trimStart().startsWith('[');

/** The JSON form's text parsed; not JSON, a ZoneFileError naming the line and column where it breaks. */
export function parseJsonText(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    const offset = position ? Number(position[1]) : (jsonSyntaxPlace(text) ?? 0);
    const { line, column } = placeOf(text, offset);
    throw new ZoneFileError(file, [{ line, column, reason: `not valid JSON (${jsonParseReason(message)})` }]);
  }
}

export function readJsonZone(text: string, options: ReadOptions): WantedZone {
  const { file, zone } = options;
  const data = parseJsonText(text, file);
  if (!Array.isArray(data))
    throw new ConfigError(`${file}: the JSON form is an array of {name, type, ttl, priority, value}`);
  const problems = new FileProblems(file);
  const wanted = new WantedZoneBuilder(zone);
  const positions = elementPositions(text);
  data.forEach((item: unknown, index) => {
    if (problems.full) return;
    const at = positions[index] ?? { line: 1, column: 1 };
    const where = `${file}:${at.line}:${at.column}`;
    const problem = readElement(item, zone, where, wanted, options.skipUnsupported ?? false);
    if (problem !== undefined) problems.add(at.line, at.column, problem);
  });
  problems.throwIfAny();
  return wanted.result();
}

/** Adds one element of the array to `wanted`; returns what is wrong with it, if anything. */
function readElement(
  item: unknown,
  zone: string,
  where: string,
  wanted: WantedZoneBuilder,
  skipUnsupported: boolean,
): string | undefined {
  if (typeof item !== 'object' || item === null || Array.isArray(item))
    return 'not an object {name, type, ttl, priority, value}';
  const r = item as Record<string, unknown>;
  if (typeof r.name !== 'string' || typeof r.type !== 'string' || typeof r.value !== 'string')
    return 'name, type and value must be strings';
  if (LONE_SURROGATE.test(r.name) || LONE_SURROGATE.test(r.value))
    return (
      `${shown(r.name)}: a name or value holds half of a UTF-16 pair (a lone \\uD800-\\uDFFF escape), which is ` +
      `no character`
    );
  const name = jsonName(r.name, zone);
  if (name === undefined) return `${shown(r.name)} is not a host name`;
  const type = r.type.toUpperCase();
  if (type === 'SOA' || (type === 'NS' && name === zone))
    return wanted.addNote({
      name,
      type,
      reason: `left to the provider (${type === 'SOA' ? 'SOA' : 'apex NS'})`,
      where,
    });
  if (!isZoneType(type)) {
    if (!skipUnsupported) return `unknown or unsupported type ${shown(r.type)}`;
    return wanted.addNote({
      name,
      type,
      reason: 'skipped: the provider does not keep this type (--skip-unsupported)',
      where,
    });
  }
  try {
    const ttl = optionalNumber(r.ttl, 'ttl', MAX_TTL);
    const priority = hasPriority(type) ? (optionalNumber(r.priority, 'priority', 65535) ?? 10) : undefined;
    checkPriority(type, priority);
    return wanted.addRecord({ name, type, ttl, priority, value: canonicalValue(type, r.value), where });
  } catch (error) {
    if (error instanceof ValueError) return error.message;
    throw error;
  }
}

const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/**
 * A name of the JSON form: `@` (or "") is the zone; a name ending in a dot is absolute; any
 * other is relative to the zone, except a name that already ends with the zone's name, which
 * is that full name (as `zone export --format json` writes names, in the provider's form).
 * Compared as names are, without case and with Unicode as punycode.
 */
function jsonName(written: string, zone: string): string | undefined {
  if (written === '@' || written === '') return zone;
  if (written.endsWith('.')) return canonicalName(written);
  const full = canonicalName(written);
  if (full !== undefined && atOrBelow(full, zone)) return full;
  return canonicalName(`${written}.${zone}`);
}

function optionalNumber(value: unknown, what: string, max: number): number | undefined {
  if (value === null || value === undefined || value === '' || value === '-') return undefined;
  const text = String(value);
  if (!/^\d+$/.test(text) || Number(text) > max)
    throw new ValueError(`${what} ${JSON.stringify(value)} is out of range (0 to ${max})`);
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
