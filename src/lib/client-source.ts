// Where a client comes from, as every limit on clients counts it: an IPv4 address as it is (an
// IPv4-mapped IPv6 one too), an IPv6 address by its /64 (one household or host holds a whole
// /64, so a limit per full IPv6 address would bound nothing).
import { prefixOf } from './interface-id.js';

/** The source of `client` (a socket's remote address): `192.0.2.7`, `2001:db8:1:2::/64`. */
export function sourceOf(client: string): string {
  const v4 = client.replace(/^::ffff:(?=\d+\.)/i, '');
  if (!v4.includes(':')) return v4;
  try {
    return prefixOf(v4, 64);
  } catch {
    return v4;
  }
}
