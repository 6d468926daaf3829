// A zone as an RFC 1035 master file: `$ORIGIN <zone>.`, owners relative to it (`@` for the
// apex), targets absolute, TXT quoted and split into strings of at most 255 bytes, records
// with the provider's default TTL written without one. Sorted, so files diff well.
import { splitTxt, txtRdata } from '../dns/txt-strings.js';
import { relativeName } from './names.js';
import { parseCaa } from './values.js';

export interface WritableRecord {
  name: string;
  type: string;
  ttl?: number;
  priority?: number;
  value: string;
}

const TYPE_ORDER = ['NS', 'A', 'AAAA', 'CNAME', 'MX', 'SRV', 'TXT', 'CAA'];

export function writeMasterFile(zone: string, records: WritableRecord[], header: string[] = []): string {
  const sorted = [...records].sort(compareRecords(zone));
  const owners = sorted.map((r) => relativeName(r.name, zone));
  const width = Math.min(40, Math.max(1, ...owners.map((o) => o.length)));
  const lines = [...header.map((h) => `; ${visible(h)}`), `$ORIGIN ${zone}.`];
  sorted.forEach((r, i) => {
    const ttl = r.ttl === undefined ? '' : String(r.ttl);
    lines.push(`${owners[i]!.padEnd(width)} ${ttl.padStart(6)} IN ${r.type.padEnd(5)} ${rdataOf(r)}`);
  });
  return lines.join('\n') + '\n';
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
export const visible = (text: string): string => text.replace(/[\x00-\x1f\x7f]/g, (c) => `\\${String(c.charCodeAt(0)).padStart(3, '0')}`);

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

function compareRecords(zone: string) {
  // The apex first, then names by their labels from the right, as DNS orders them.
  const key = (name: string) => (name === zone ? '' : name.slice(0, -zone.length - 1).split('.').reverse().join('\u0001'));
  return (a: WritableRecord, b: WritableRecord): number =>
    key(a.name).localeCompare(key(b.name)) ||
    (TYPE_ORDER.indexOf(a.type) >>> 0) - (TYPE_ORDER.indexOf(b.type) >>> 0) ||
    (a.priority ?? 0) - (b.priority ?? 0) ||
    (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);
}
