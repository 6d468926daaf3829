// Names as a master file writes them, read as BIND reads them, into the provider's full host
// names: `@` alone is the origin, a name ending in an unescaped dot is absolute, any other is
// relative to the origin; `\.` is a dot inside a label and `\@` a literal "@", never the
// origin; `\DDD` is a byte. The provider keeps a name as dotted text of host-name labels, so a
// label holding a dot or an "@" cannot be sent as it is: such a name is refused (ValueError)
// rather than sent as another name.
import { atOrBelow, below, canonicalName } from '../../lib/names.js';
import { ValueError } from '../values.js';
import { shown } from '../zone-file-error.js';

/** The common case, checked without cutting the name up: plain labels, no escapes. */
const PLAIN_NAME = /^(?:\*|(?!-)[A-Za-z0-9_-]{1,63})(?:\.(?!-)[A-Za-z0-9_-]{1,63})*\.?$/;
const MAX_NAME = 253;
const JOIN: string[] = ['', ''];

/**
 * The full host name `raw` (a token as written) stands for, against `origin`. `zone` is the
 * zone the file is about: a relative name that already ends with it is refused, because it
 * means the zone twice (www.example.com.example.com) and no one writes that on purpose.
 */
export function masterName(raw: string, origin: string, zone: string): string {
  if (raw === '@') return origin;
  if (PLAIN_NAME.test(raw)) {
    const lower = raw.toLowerCase();
    if (lower.endsWith('.')) {
      if (lower.length - 1 > MAX_NAME)
        throw new ValueError(`${shown(raw)} is not a host name (longer than ${MAX_NAME} characters)`);
      return lower.slice(0, -1);
    }
    if (lower === zone || (lower.endsWith(zone) && lower.charCodeAt(lower.length - zone.length - 1) === 46))
      throw trailingDot(raw, lower, origin, zone);
    // Joined into one flat string: a concatenation would be flattened (copied) again when the
    // name is first compared or used as a key, and keep both copies.
    JOIN[0] = lower;
    JOIN[1] = origin;
    const full = JOIN.join('.');
    if (full.length > MAX_NAME)
      throw new ValueError(
        `${shown(raw)} is not a host name (${full.length} characters with its origin, over ${MAX_NAME})`,
      );
    return full;
  }
  return escapedName(raw, origin, zone);
}

/** Longer than any host name can be written, even with every byte as \DDD. */
const MAX_WRITTEN = MAX_NAME * 4 + 1;

/** A name with escapes, Unicode or anything unusual: label by label. */
function escapedName(raw: string, origin: string, zone: string): string {
  if (raw.length > MAX_WRITTEN) throw new ValueError(`${shown(raw)} is not a host name`);
  const { labels, absolute } = labelsOf(raw);
  for (const label of labels) {
    if (label === undefined)
      throw new ValueError(
        `${shown(raw)} has a label of bytes that are not UTF-8 (\\DDD); a host name cannot hold them`,
      );
    if (label.includes('.')) {
      throw new ValueError(
        `${shown(raw)} has a label holding a dot ("${label}" is one label, as BIND reads "\\."); the provider keeps ` +
          `a name as dotted text, so it cannot hold it`,
      );
    }
    if (label.includes('@')) {
      throw new ValueError(
        `${shown(raw)} has a label holding "@" (an escaped or embedded @ is a character, not the origin); a host ` +
          `name cannot hold it`,
      );
    }
  }
  const written = (labels as string[]).join('.');
  if (!absolute && written !== '') {
    const relative = canonicalName(written);
    if (relative !== undefined && atOrBelow(relative, zone)) throw trailingDot(raw, written, origin, zone);
  }
  const full = absolute ? written : `${written}.${origin}`;
  // A label may not be empty ("a..b", a name starting with a dot) or hold anything but
  // letters, digits, "-" and "_" (Unicode letters go to punycode).
  const name = labels.some((l) => l === '') ? undefined : canonicalName(full);
  if (name === undefined) throw new ValueError(`${shown(raw)} is not a host name`);
  return name;
}

/** The labels of a written name, escapes decoded; undefined for a label that is not UTF-8. */
function labelsOf(raw: string): { labels: (string | undefined)[]; absolute: boolean } {
  const labels: (string | undefined)[] = [];
  let bytes: number[] = [];
  let absolute = false;
  const finish = () => {
    labels.push(decodeLabel(bytes));
    bytes = [];
  };
  for (let i = 0; i < raw.length; ) {
    const c = raw.charCodeAt(i);
    if (c === 92 /* \ */) {
      const digits = /^\d{3}/.exec(raw.slice(i + 1, i + 4));
      if (digits) {
        bytes.push(Number(digits[0]) & 255);
        i += 4;
        continue;
      }
      const char = String.fromCodePoint(raw.codePointAt(i + 1) ?? 92);
      bytes.push(...Buffer.from(char, 'utf8'));
      i += 1 + char.length;
      continue;
    }
    if (c === 46 /* . */) {
      if (i === raw.length - 1 && i > 0) {
        absolute = true;
        break;
      }
      finish();
      i++;
      continue;
    }
    if (c < 128) {
      bytes.push(c);
      i++;
      continue;
    }
    const char = String.fromCodePoint(raw.codePointAt(i)!);
    bytes.push(...Buffer.from(char, 'utf8'));
    i += char.length;
  }
  finish();
  return { labels, absolute };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
function decodeLabel(bytes: number[]): string | undefined {
  try {
    return utf8.decode(Uint8Array.from(bytes));
  } catch {
    return undefined;
  }
}

function trailingDot(raw: string, written: string, origin: string, zone: string): ValueError {
  const meant = canonicalName(`${written}.${origin}`) ?? `${written}.${origin}`;
  const relative =
    origin === zone && below(raw.toLowerCase(), zone) ? ` (or ${shown(raw.slice(0, -zone.length - 1))})` : '';
  return new ValueError(
    `${shown(raw)} has no trailing dot, so it means ${meant}; write ${shown(`${raw}.`)}${relative}`,
  );
}
