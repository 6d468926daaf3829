// Which addresses may be published. The ranges are the IANA IPv4 and IPv6 Special-Purpose
// Address Registries (RFC 6890 and successors), plus multicast and the IPv6 space outside
// 2000::/3 that is not allocated for global unicast. Anycast service addresses that the
// registry marks "globally reachable" (AS112, TURN, PCP, AMT) are still refused: they can
// never be the address of the machine running ddedge.

export type Family = 4 | 6;
export type RecordType = 'A' | 'AAAA';

export const recordTypeOf = (family: Family): RecordType => (family === 4 ? 'A' : 'AAAA');

interface Range {
  prefix: bigint;
  bits: number;
  reason: string;
}

function range(cidr: string, reason: string): Range {
  const [address, bits] = cidr.split('/') as [string, string];
  return { prefix: toBigInt(address)!, bits: Number(bits), reason };
}

// Built on first use: a cycle with --ip never classifies an address, and parsing these
// tables at start-up cost several milliseconds.
const v4Ranges = (): Range[] =>
  [
    range('0.0.0.0/8', '"this network" (RFC 791)'),
    range('10.0.0.0/8', 'private (RFC 1918)'),
    range('100.64.0.0/10', 'shared address space, carrier-grade NAT (RFC 6598)'),
    range('127.0.0.0/8', 'loopback (RFC 1122)'),
    range('169.254.0.0/16', 'link-local (RFC 3927)'),
    range('172.16.0.0/12', 'private (RFC 1918)'),
    range('192.0.0.0/24', 'IETF protocol assignments (RFC 6890)'),
    range('192.0.2.0/24', 'documentation, TEST-NET-1 (RFC 5737)'),
    range('192.31.196.0/24', 'AS112 anycast (RFC 7535)'),
    range('192.52.193.0/24', 'AMT anycast (RFC 7450)'),
    range('192.88.99.0/24', 'deprecated 6to4 relay anycast (RFC 7526)'),
    range('192.168.0.0/16', 'private (RFC 1918)'),
    range('192.175.48.0/24', 'AS112 direct delegation (RFC 7534)'),
    range('198.18.0.0/15', 'benchmarking (RFC 2544)'),
    range('198.51.100.0/24', 'documentation, TEST-NET-2 (RFC 5737)'),
    range('203.0.113.0/24', 'documentation, TEST-NET-3 (RFC 5737)'),
    range('224.0.0.0/4', 'multicast (RFC 5771)'),
    range('240.0.0.0/4', 'reserved (RFC 1112)'),
    range('255.255.255.255/32', 'limited broadcast (RFC 919)'),
  ].map((r) => ({ ...r, bits: r.bits + 96 }));

const v6Ranges = (): Range[] => [
  range('::/128', 'unspecified (RFC 4291)'),
  range('::1/128', 'loopback (RFC 4291)'),
  range('::ffff:0:0/96', 'IPv4-mapped (RFC 4291)'),
  range('64:ff9b::/96', 'IPv4/IPv6 translation (RFC 6052)'),
  range('64:ff9b:1::/48', 'local-use IPv4/IPv6 translation (RFC 8215)'),
  range('100::/64', 'discard-only (RFC 6666)'),
  range('2001::/23', 'IETF protocol assignments, incl. Teredo and ORCHID (RFC 2928)'),
  range('2001:db8::/32', 'documentation (RFC 3849)'),
  range('2002::/16', '6to4 (RFC 3056)'),
  range('2620:4f:8000::/48', 'AS112 direct delegation (RFC 7534)'),
  range('3fff::/20', 'documentation (RFC 9637)'),
  range('5f00::/16', 'segment routing SIDs (RFC 9602)'),
  range('fc00::/7', 'unique local (RFC 4193)'),
  range('fe80::/10', 'link-local (RFC 4291)'),
  range('fec0::/10', 'deprecated site-local (RFC 3879)'),
  range('ff00::/8', 'multicast (RFC 4291)'),
  range('2000::/3', 'global unicast'),
];
let tables: { v4: Range[]; v6: Range[]; globalUnicast: Range } | undefined;
function rangeTables() {
  if (!tables) {
    const v6 = v6Ranges();
    tables = { v4: v4Ranges(), v6: v6.slice(0, -1), globalUnicast: v6.at(-1)! };
  }
  return tables;
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/;

/** The four bytes of a dotted-quad address, without a BigInt (the name server writes every A record with it). */
export function ipv4Bytes(text: string): Buffer | undefined {
  return IPV4.test(text) ? Buffer.from(text.split('.').map(Number)) : undefined;
}

function parseIPv4(text: string): bigint | undefined {
  if (!IPV4.test(text)) return undefined;
  return text.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

/**
 * IPv6 text to a 128-bit integer, or undefined when it is not one (zone ids included).
 * Written out rather than using node:net's isIPv6, whose pattern costs milliseconds to
 * compile on first use, on the start path of every cycle.
 */
function parseIPv6(text: string): bigint | undefined {
  if (!text.includes(':') || text.length > 45) return undefined;
  let body = text;
  // An embedded IPv4 tail (::ffff:1.2.3.4) becomes its two hex groups.
  const lastColon = body.lastIndexOf(':');
  if (body.slice(lastColon + 1).includes('.')) {
    const v4 = parseIPv4(body.slice(lastColon + 1));
    if (v4 === undefined) return undefined;
    body = `${body.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const halves = body.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (part: string | undefined): bigint[] | undefined => {
    if (!part) return [];
    const groups = part.split(':');
    return groups.every((g) => HEX_GROUP.test(g)) ? groups.map((g) => BigInt(parseInt(g, 16))) : undefined;
  };
  const head = groupsOf(halves[0]);
  const rest = groupsOf(halves[1]);
  if (!head || !rest) return undefined;
  const given = head.length + rest.length;
  if (halves.length === 1 ? given !== 8 : given > 7) return undefined;
  const groups = [...head, ...Array<bigint>(8 - given).fill(0n), ...rest];
  return groups.reduce((acc, g) => (acc << 16n) | g, 0n);
}

/** Parses an address to a 128-bit integer (IPv4 in the low 32 bits). */
export function toBigInt(address: string): bigint | undefined {
  return parseIPv4(address) ?? parseIPv6(address);
}

function inRange(value: bigint, r: Range): boolean {
  const shift = BigInt(128 - r.bits);
  return value >> shift === r.prefix >> shift;
}

export function familyOfAddress(address: string): Family | undefined {
  // The IPv4 test without its BigInt: the name server checks every A record of a zone with it.
  return IPV4.test(address) ? 4 : parseIPv6(address) !== undefined ? 6 : undefined;
}

/** Why an address may not be published, or undefined when it is public unicast. */
export function nonPublicReason(address: string): string | undefined {
  const family = familyOfAddress(address);
  if (!family) return 'not an IP address';
  const value = toBigInt(address)!;
  const { v4, v6, globalUnicast } = rangeTables();
  if (family === 4) return v4.find((r) => inRange(value, r))?.reason;
  const hit = v6.find((r) => inRange(value, r));
  if (hit) return hit.reason;
  return inRange(value, globalUnicast) ? undefined : 'reserved by IETF (outside 2000::/3 global unicast)';
}

/** Canonical text form, so that caches and comparisons do not see `2001:DB8::1` and `2001:db8:0::1` as different. */
export function canonicalAddress(address: string): string {
  const family = familyOfAddress(address);
  if (family !== 6) return address;
  const value = toBigInt(address)!;
  const groups = Array.from({ length: 8 }, (_, i) => Number((value >> BigInt(112 - i * 16)) & 0xffffn));
  // RFC 5952: compress the longest run (length >= 2) of zero groups.
  let best = { start: -1, length: 0 };
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > best.length && j - i >= 2) best = { start: i, length: j - i };
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best.start < 0) return hex.join(':');
  return `${hex.slice(0, best.start).join(':')}::${hex.slice(best.start + best.length).join(':')}`;
}

/** Loopback hosts, the only ones allowed over plain http. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const family = familyOfAddress(host);
  if (family === 4) return host.startsWith('127.');
  return family === 6 && toBigInt(host) === 1n;
}
