// A machine behind the router keeps its interface identifier while the delegated prefix
// changes: its public IPv6 address is the prefix's bits followed by the identifier's.
import { canonicalAddress, familyOfAddress, toBigInt } from './address.js';

/** Delegations are /48 to /64; 128 means "the detected address as it is" (no host part). */
export const PREFIX_LENGTHS = 'a whole number from 48 to 64, or 128';
export const DEFAULT_PREFIX_LENGTH = 64;

export function isAllowedPrefixLength(length: number): boolean {
  return Number.isInteger(length) && ((length >= 48 && length <= 64) || length === 128);
}

const ALL = (1n << 128n) - 1n;
const hostMask = (prefixLength: number): bigint => (1n << BigInt(128 - prefixLength)) - 1n;

function toText(value: bigint): string {
  const groups = Array.from({ length: 8 }, (_, i) => ((value >> BigInt(112 - i * 16)) & 0xffffn).toString(16));
  return canonicalAddress(groups.join(':'));
}

/**
 * Why `text` cannot be the identifier of a host under a /`prefixLength`, or undefined when it
 * can. It must be IPv6 text, non-zero, and have no bit inside the prefix (else the prefix
 * would be overwritten, or silently dropped).
 */
export function identifierProblem(text: string, prefixLength: number): string | undefined {
  if (familyOfAddress(text) !== 6)
    return `"${text}" is not an IPv6 interface identifier (write it as an IPv6 address, e.g. ::1e2:3ff:fe4a:5b6c)`;
  const value = toBigInt(text)!;
  if (value === 0n) return `"${text}" is the all-zero identifier (the subnet-router anycast address), not a host`;
  if (prefixLength === 128)
    return (
      `"${text}": --ip6-prefix-length 128 leaves no host part for an identifier; use the delegated prefix ` +
      `length (48 to 64)`
    );
  if ((value & (ALL ^ hostMask(prefixLength))) !== 0n) {
    return (
      `"${text}" overlaps the /${prefixLength} prefix: an identifier may use only the last ` +
      `${128 - prefixLength} bits (e.g. ${toText(value & hostMask(prefixLength))})`
    );
  }
  return undefined;
}

/** The identifier in canonical text (the caller has checked it with identifierProblem). */
export const canonicalIdentifier = (text: string): string => toText(toBigInt(text)!);

/** The prefix of an address, as CIDR text: 2a00:1450:4003:12::/64. */
export function prefixOf(address: string, prefixLength: number): string {
  const value = toBigInt(address)! & (ALL ^ hostMask(prefixLength));
  return `${toText(value)}/${prefixLength}`;
}

/** The address of a host behind the router: the prefix of `address` joined with `identifier`. */
export function joinIdentifier(
  address: string,
  prefixLength: number,
  identifier: string,
): { address: string; prefix: string } {
  const mask = hostMask(prefixLength);
  const value = (toBigInt(address)! & (ALL ^ mask)) | (toBigInt(identifier)! & mask);
  return { address: toText(value), prefix: prefixOf(address, prefixLength) };
}
