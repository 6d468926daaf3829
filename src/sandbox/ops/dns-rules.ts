// What the provider refuses in a DNS zone, as a name server would: values the type cannot
// hold (105), a CNAME beside other data at its name (4004, RFC 1034 §3.6.2), and names that
// are not host names. Names are kept as the DNS knows them: lower case, IDN in punycode.
import type { DnsEntry } from '../../api/endpoints/service.js';
import { familyOfAddress } from '../../lib/address.js';
import { atOrBelow, canonicalName, lowerName } from '../../lib/names.js';
import { fail } from './common.js';

const LABEL = /^(?!-)[a-z0-9_-]{1,63}$/;
const HOST = (text: string) =>
  text === '.' ||
  text
    .replace(/\.$/, '')
    .split('.')
    .every((l, i) => LABEL.test(l.toLowerCase()) || (i === 0 && l === '*'));

/** The full host name of an entry: "@" and "" are the zone, relative names are joined to it. */
export function dnsEntryName(zone: string, name: string): string {
  const written = lowerName(name);
  if (written === '@' || written === '') return zone;
  const canonical = canonicalName(name);
  const full = canonical === undefined || atOrBelow(canonical, zone) ? canonical : `${canonical}.${zone}`;
  if (full === undefined || full.length > 253)
    return fail(105, 'Syntax error: invalid parameter', `name "${name}" is not a host name`);
  return full;
}

const u16 = (text: string | undefined) => text !== undefined && /^\d+$/.test(text) && Number(text) <= 65535;

/** Values in the forms of the spec's table 2.6; anything else is refused as the provider does. */
export function checkDnsEntryValue(type: string, value: string): void {
  const invalid = () =>
    fail(105, 'Syntax error: invalid parameter', `value "${value}" is not valid for a ${type} entry`);
  switch (type) {
    case 'A':
    case 'AAAA':
      if (familyOfAddress(value) !== (type === 'A' ? 4 : 6)) invalid();
      return;
    case 'CNAME':
    case 'NS':
    case 'MX':
      if (!value || !HOST(value)) invalid();
      return;
    case 'SRV': {
      const parts = value.trim().split(/\s+/);
      if (parts.length !== 3 || !u16(parts[0]) || !u16(parts[1]) || !HOST(parts[2]!)) invalid();
      return;
    }
    case 'CAA':
      if (!/^\d{1,3} [A-Za-z0-9]+ ".*"$/s.test(value) || Number(value.split(' ')[0]) > 255) invalid();
      return;
    case 'TXT':
      return;
    default:
      fail(
        105,
        'Syntax error: invalid parameter',
        `type "${type}" is not one of A, AAAA, CNAME, MX, SRV, TXT, NS, CAA`,
      );
  }
}

/** A CNAME must have its name to itself. */
export function checkCnameAlone(zone: DnsEntry[], entry: Pick<DnsEntry, 'name' | 'type' | 'entityID'>): void {
  const others = zone.filter((e) => e.name === entry.name && e.entityID !== entry.entityID);
  if (others.length && (entry.type === 'CNAME' || others.some((e) => e.type === 'CNAME'))) {
    fail(4004, 'Entity create error', `${entry.name} would have a CNAME beside other data`);
  }
}
