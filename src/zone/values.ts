// What each type allows as a value, and its one canonical form in the provider's terms.
// Files and the provider's answers both pass through here, so "10 mail.Example.COM." and
// "10 mail.example.com" compare equal, and a value the type cannot hold is refused with a reason.
import { canonicalAddress, familyOfAddress } from '../lib/address.js';
import { canonicalHexIPv6 } from './ipv6-text.js';
import { canonicalName } from '../lib/names.js';
import type { ZoneType } from './record.js';
import { shown } from './zone-file-error.js';

/**
 * A value a type cannot hold; the message says why. Built without a stack trace: a file of a
 * million bad lines makes a million of them, and only the message is ever shown.
 */
export class ValueError extends Error {
  constructor(message: string) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
  }
}

/** The dotted quads ip/address.ts accepts: no leading zeros, each part at most 255. */
const IPV4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

const u16 = (text: string, what: string): number => {
  if (!/^\d+$/.test(text) || Number(text) > 65535)
    throw new ValueError(`${what} ${shown(text)} is not a number from 0 to 65535`);
  return Number(text);
};

/** A target host name; "." (RFC 7505 null MX, RFC 2782 "no service") stays ".". */
function canonicalTarget(text: string, what = 'host name'): string {
  if (text === '.') return '.';
  const name = canonicalName(text);
  if (!name || name.includes('*')) throw new ValueError(`${shown(text)} is not a ${what}`);
  return name;
}

/** The value in the provider's form; throws ValueError naming what is wrong. */
export function canonicalValue(type: ZoneType, value: string): string {
  switch (type) {
    case 'A':
      // The dotted quad is its own canonical form; tested without building its number.
      if (IPV4.test(value)) return value;
      throw new ValueError(`${shown(value)} is not an IPv4 address (an A record holds one)`);
    case 'AAAA': {
      const fast = canonicalHexIPv6(value);
      if (fast !== undefined) return fast;
      if (familyOfAddress(value) !== 6)
        throw new ValueError(`${shown(value)} is not an IPv6 address (a AAAA record holds one)`);
      return canonicalAddress(value);
    }
    case 'CNAME':
    case 'NS':
    case 'MX':
      return canonicalTarget(value);
    case 'SRV': {
      const parts = value.trim().split(/\s+/);
      if (parts.length !== 3) throw new ValueError(`SRV value ${shown(value)} is not "weight port target"`);
      return (
        `${u16(parts[0]!, 'SRV weight')} ${u16(parts[1]!, 'SRV port')} ` + `${canonicalTarget(parts[2]!, 'SRV target')}`
      );
    }
    case 'CAA': {
      const caa = parseCaa(value);
      return formatCaa(caa.flag, caa.tag, caa.value);
    }
    case 'TXT':
      return value;
  }
}

export interface Caa {
  flag: number;
  tag: string;
  value: string;
}

/** `flag tag "value"` (the provider's form) or `flag tag value`. */
export function parseCaa(text: string): Caa {
  const match = /^\s*(\d+)\s+([A-Za-z0-9]+)\s+(.*?)\s*$/s.exec(text);
  if (!match) throw new ValueError(`CAA value ${shown(text)} is not 'flag tag "value"'`);
  const flag = Number(match[1]);
  if (flag > 255) throw new ValueError(`CAA flag ${match[1]} is not a number from 0 to 255`);
  let value = match[3]!;
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"'))
    value = value.slice(1, -1).replace(/\\(["\\])/g, '$1');
  return { flag, tag: match[2]!.toLowerCase(), value };
}

export const formatCaa = (flag: number, tag: string, value: string): string =>
  `${flag} ${tag.toLowerCase()} "${value.replace(/["\\]/g, '\\$&')}"`;

export function checkPriority(type: ZoneType, priority: number | undefined): void {
  if (priority !== undefined && (!Number.isInteger(priority) || priority < 0 || priority > 65535))
    throw new ValueError(`${type} priority ${priority} is not a number from 0 to 65535`);
}
