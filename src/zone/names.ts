// Host names as the provider keeps them: lower case, ASCII (IDN labels in punycode), without
// the trailing dot. Master files add relative names, `@` and absolute names with a dot.
import { domainToASCII } from 'node:url';

const LABEL = /^(?!-)[a-z0-9_-]{1,63}$/;

/** Lower case, punycode for Unicode labels, no trailing dot; undefined when not a host name. */
/** A name already in the canonical form (lower case, plain labels): most names, returned as they are. */
const PLAIN_CANONICAL = /^(?:\*|(?!-)[a-z0-9_-]{1,63})(?:\.(?!-)[a-z0-9_-]{1,63})*$/;

export function canonicalName(name: string): string | undefined {
  if (name.length <= 253 && PLAIN_CANONICAL.test(name)) return name;
  const trimmed = name.replace(/\.$/, '');
  if (trimmed === '') return undefined;
  const labels = trimmed.split('.').map((label) => {
    if (/^[\x00-\x7f]*$/.test(label)) return label.toLowerCase();
    // domainToASCII would drop a tab or line break inside the label and name another host.
    if (/[\t\n\r]/.test(label)) return undefined;
    // domainToASCII works on whole names; a label alone is a name of one label.
    return domainToASCII(label) || undefined;
  });
  if (labels.some((l) => l === undefined)) return undefined;
  const ascii = labels as string[];
  // A wildcard is a whole first label.
  const valid = ascii.every((l, i) => LABEL.test(l) || (i === 0 && l === '*'));
  const full = ascii.join('.');
  return valid && full.length <= 253 ? full : undefined;
}

/** `name` is `zone` or below it; no text made per call (a plan asks it of every record). */
export const isInZone = (name: string, zone: string): boolean =>
  name === zone || (name.length > zone.length && name.endsWith(zone) && name.charCodeAt(name.length - zone.length - 1) === 46);

/** A name of a master file, against the current origin: `@`, relative, or absolute with a dot. */
export function absoluteName(text: string, origin: string): string {
  if (text === '@') return origin;
  if (text.endsWith('.')) return text;
  return `${text}.${origin}`;
}

/** The owner as written in an exported file: `@`, or relative to the zone. */
export function relativeName(name: string, zone: string): string {
  if (name === zone) return '@';
  if (name.endsWith(`.${zone}`)) return name.slice(0, -zone.length - 1);
  return `${name}.`;
}
