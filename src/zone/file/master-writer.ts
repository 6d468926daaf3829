// A zone as an RFC 1035 master file: `$ORIGIN <zone>.`, owners relative to it (`@` for the
// apex), targets absolute, TXT quoted and split into strings of at most 255 bytes, records
// with the provider's default TTL written without one. Sorted, so files diff well.
import { splitTxt, txtRdata } from '../../dns/wire/txt-strings.js';
import { atOrBelow, relativeName } from '../../lib/names.js';
import { parseCaa } from '../values.js';

export interface WritableRecord {
  name: string;
  type: string;
  ttl?: number;
  priority?: number;
  value: string;
}

const TYPE_ORDER = ['NS', 'A', 'AAAA', 'CNAME', 'MX', 'SRV', 'TXT', 'CAA'];

export interface FileParts {
  /** Lines written as they are right after `$ORIGIN` (`$TTL`, SOA and NS of a complete export). */
  afterOrigin?: string[];
  /** Lines written as they are after the records (a backup's exact records, comments). */
  trailer?: string[];
}

/**
 * `header` lines become `; ` comments before `$ORIGIN`. n log n in the records: keys made once,
 * one sort.
 */
export function writeMasterFile(
  zone: string,
  records: readonly WritableRecord[],
  header: string[] = [],
  parts: FileParts = {},
): string {
  const sorted = sortedForFile(zone, records);
  const owners = sorted.map((r) => ownerText(r.name, zone));
  let width = 1;
  for (const owner of owners) width = Math.max(width, owner.length);
  width = Math.min(40, width);
  const lines = [...header.map((h) => `; ${visible(h)}`), `$ORIGIN ${zone}.`, ...(parts.afterOrigin ?? [])];
  sorted.forEach((r, i) => {
    const ttl = r.ttl === undefined ? '' : String(r.ttl);
    lines.push(`${owners[i]!.padEnd(width)} ${ttl.padStart(6)} IN ${r.type.padEnd(5)} ${rdataOf(r)}`);
  });
  lines.push(...(parts.trailer ?? []));
  return lines.join('\n') + '\n';
}

/**
 * The owner relative to the zone, or absolute where a relative name would be misread: a name
 * that itself ends with the zone (`example.com.example.com`) is one a reader takes for a
 * forgotten trailing dot.
 */
function ownerText(name: string, zone: string): string {
  const relative = visible(relativeName(name, zone));
  return atOrBelow(relative, zone) ? `${name}.` : relative;
}

const absolute = (name: string) => (name === '.' ? '.' : `${name}.`);

export function rdataOf(r: WritableRecord): string {
  return visible(rdataText(r));
}

function rdataText(r: WritableRecord): string {
  switch (r.type) {
    case 'CNAME':
    case 'NS':
      return absolute(r.value);
    case 'MX':
      return `${r.priority ?? 10} ${absolute(r.value)}`;
    case 'SRV': {
      const [weight, port, target] = r.value.split(' ');
      return `${r.priority ?? 10} ${weight} ${port} ${absolute(target ?? '.')}`;
    }
    case 'CAA': {
      const caa = parseCaa(r.value);
      return `${caa.flag} ${caa.tag} ${quote(caa.value)}`;
    }
    case 'TXT':
      return txtRdata(r.value);
    default:
      return r.value;
  }
}

/** A TXT value as character-strings of at most 255 bytes, cut between characters. */
export const txtStrings = splitTxt;

/**
 * Text with its control characters as \DDD: what a provider's answer holds (a line break in a
 * value, an escape sequence) never starts a new line of a file or reaches a terminal raw.
 */
export const visible = (text: string): string =>
  text.replace(/[\x00-\x1f\x7f]/g, (c) => `\\${String(c.charCodeAt(0)).padStart(3, '0')}`);

/** A quoted character-string: `"` and `\` escaped, control characters as \DDD. */
export function quote(text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (char === '"' || char === '\\') out += `\\${char}`;
    else if (code < 0x20 || code === 0x7f) out += `\\${String(code).padStart(3, '0')}`;
    else out += char;
  }
  return `${out}"`;
}

/**
 * The apex first, then names in DNS order (RFC 4034 §6.1: labels compared from the right, by
 * their bytes), then type, priority and value. Each key is made once; comparing is comparing
 * strings and numbers, so a sort of 100,000 records costs its n log n comparisons and no more.
 */
function sortedForFile<T extends WritableRecord>(zone: string, records: readonly T[]): T[] {
  const keyed = records.map((r) => ({
    r,
    name:
      r.name === zone
        ? ''
        : r.name
            .slice(0, -zone.length - 1)
            .split('.')
            .reverse()
            .join('\u0001'),
    type: TYPE_RANK.get(r.type) ?? TYPE_ORDER.length,
  }));
  const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  keyed.sort(
    (a, b) =>
      text(a.name, b.name) ||
      a.type - b.type ||
      text(a.r.type, b.r.type) ||
      (a.r.priority ?? 0) - (b.r.priority ?? 0) ||
      text(a.r.value, b.r.value),
  );
  return keyed.map((k) => k.r);
}

const TYPE_RANK = new Map(TYPE_ORDER.map((type, i) => [type, i]));
