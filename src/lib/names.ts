// Names as ddedge compares them: the provider's canonical form, the key names compare by, zone
// membership label by label, the agent's host-name rule and master-file forms. The registered
// domain is in registered-domain.ts; names in the DNS text form with escapes (`\DDD`, `\.`) are
// read by dns/wire/names.ts. Imports nothing of ours, so every layer can use it.
import { domainToASCII } from 'node:url';

const LABEL = /^(?!-)[a-z0-9_-]{1,63}$/;
/** A name already in the canonical form (lower case, plain labels): most names, returned as they are. */
const PLAIN_CANONICAL = /^(?:\*|(?!-)[a-z0-9_-]{1,63})(?:\.(?!-)[a-z0-9_-]{1,63})*$/;

/**
 * The name as the provider keeps it: lower case, punycode for Unicode labels, no trailing dot;
 * undefined when it is not a name (empty labels, other characters, too long).
 */
export function canonicalName(name: string): string | undefined {
  if (name.length <= 253 && PLAIN_CANONICAL.test(name)) return name;
  const trimmed = name.replace(/\.$/, '');
  if (trimmed === '') return undefined;
  const labels = trimmed.split('.').map((label) => {
    if (/^[\x00-\x7f]*$/.test(label)) return label.toLowerCase();
    // A label alone is a name of one label.
    return asciiName(label);
  });
  if (labels.some((l) => l === undefined)) return undefined;
  const ascii = labels as string[];
  // A wildcard is a whole first label.
  const valid = ascii.every((l, i) => LABEL.test(l) || (i === 0 && l === '*'));
  const full = ascii.join('.');
  return valid && full.length <= 253 ? full : undefined;
}

/**
 * A name through IDNA (UTS46) to ASCII: punycode for Unicode labels, lower case; undefined when
 * it cannot be one. The URL host parser behind domainToASCII drops tabs and line breaks and
 * decodes percent escapes: "exa\tmple" and "ex%41mple" would be example, another host; such
 * text is refused here rather than read as another name, as is a `*` that was not one before.
 */
export function asciiName(text: string): string | undefined {
  if (/[\t\n\r%]/.test(text)) return undefined;
  const ascii = domainToASCII(text);
  // A wildcard is written `*`: a character that becomes one only here (U+FF0A, U+FE61) would pass every check made
  // on the text and then name every name below.
  if (!ascii || starsIn(ascii) !== starsIn(text)) return undefined;
  return ascii;
}

const starsIn = (text: string): number => text.split('*').length - 1;

/**
 * A configured host as the provider writes it (punycode, lower case, no trailing dot), never
 * refused here: what is not a name stays as written, for the host check to refuse with its text.
 * Unlike canonicalName, the whole name goes to domainToASCII, which also maps Unicode full stops
 * (`。`) to dots.
 */
export const normaliseHost = (text: string): string => lowerName(asciiName(text) ?? text);

/** Lower case, no trailing dot: the key of a name whose text needs nothing else made equal. */
export const lowerName = (name: string): string => name.toLowerCase().replace(/\.$/, '');

/** Names compare without case and without a trailing dot. */
export const sameName = (a: string, b: string): boolean => lowerName(a) === lowerName(b);

/**
 * `name` is a name below `zone`, label by label: `notexample.com` is not below `example.com`,
 * nor is `x\.example.com` (one label `x.example`, below `com`), though their text ends so. An
 * attack found both name servers answering such names as their own. No text is made per call
 * (a plan asks it of every record).
 */
export function below(name: string, zone: string): boolean {
  const dot = name.length - zone.length - 1;
  if (dot < 0 || name.charCodeAt(dot) !== 46 || !name.endsWith(zone)) return false;
  // The dot before `zone` ends a label unless an odd number of backslashes escapes it.
  let slashes = 0;
  for (let i = dot - 1; i >= 0 && name.charCodeAt(i) === 92; i--) slashes++;
  return slashes % 2 === 0;
}

/** `name` is `zone` or a name below it, label by label (see below). */
export const atOrBelow = (name: string, zone: string): boolean => name === zone || below(name, zone);

const HOST_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * A host the agent may update: two labels or more, lower case letters, digits and inner hyphens, a top label not all
 * digits.
 */
export function isHostName(name: string): boolean {
  const labels = name.split('.');
  return (
    name.length <= 253 && labels.length >= 2 && labels.every((l) => HOST_LABEL.test(l)) && !/^\d+$/.test(labels.at(-1)!)
  );
}

/** A name of a master file, against the current origin: `@`, relative, or absolute with a dot. */
export function absoluteName(text: string, origin: string): string {
  if (text === '@') return origin;
  if (text.endsWith('.')) return text;
  return `${text}.${origin}`;
}

/** The owner as written in an exported file: `@`, or relative to the zone. */
export function relativeName(name: string, zone: string): string {
  if (name === zone) return '@';
  if (below(name, zone)) return name.slice(0, -zone.length - 1);
  return `${name}.`;
}
