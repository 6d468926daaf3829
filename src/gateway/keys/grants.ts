// What a key may change: BIND's update-policy words, read by keys-file.ts. A change is allowed
// when one of the key's grants covers its owner name and type; nothing is allowed otherwise.
import { atOrBelow, below } from '../../lib/names.js';
import type { GatewayKeys, Grant } from './keys-file.js';

/** Whether `grant` covers a record of `type` at `owner` (a name key) in the served zone `zone`. */
export function grantCovers(grant: Grant, zone: string, owner: string, type: string): boolean {
  if (grant.types.length && !(grant.types as string[]).includes(type)) return false;
  switch (grant.rule) {
    case 'zonesub':
      return atOrBelow(owner, zone);
    case 'subdomain':
      return atOrBelow(owner, grant.name!);
    case 'name':
      return owner === grant.name;
    case 'wildcard':
      return below(owner, grant.name!);
  }
}

/** The grants of `key` that allow a change of `type` at `owner` in `zone` (empty: refused). */
export function grantsFor(keys: GatewayKeys, key: string, zone: string, owner: string, type: string): Grant[] {
  return keys.grants.filter((g) => g.key === key && grantCovers(g, zone, owner, type));
}

/**
 * Whether `key` may change anything at all in `zone`: a grant for the whole zone, or for a name at
 * or below it, or for every name below one above it. A key with none is refused before the zone is
 * read, so that its updates (empty, prerequisite-only, from a transfer key) never spend the call budget.
 */
export function mayChangeIn(keys: GatewayKeys, key: string, zone: string): boolean {
  return keys.grants.some(
    (g) =>
      g.key === key &&
      (g.rule === 'zonesub' || atOrBelow(g.name!, zone) || (g.rule !== 'name' && atOrBelow(zone, g.name!))),
  );
}
