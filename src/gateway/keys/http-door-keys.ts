// Which keys are shaped for the gateway's HTTP door (dyndns2; httpreq and acme-dns), so that a
// gateway started without it (no --http-listen) says in its start log, and on each reload, whom
// that leaves out. No key is for one door only: a key's grants are the same on both. A key granted only A/AAAA is a
// router's (routers speak dyndns2 alone): a warning. A key granted only TXT is an ACME client's,
// and ACME clients speak RFC 2136 as well: a plain line. A key with any other type (a DHCP
// server's DHCID, external-dns's CNAME) or with a grant of every type is a DNS client's. The line
// names the door's variable too: DDEDGE_GATEWAY_HTTP_LISTEN, the name one would guess, is --listen's.
import type { GatewayKeys } from './keys-file.js';
import { shownName } from './keys-file-reader.js';

/** The most keys a line names of each kind; the rest are counted. */
const NAMED_KEYS = 10;

/** The start log's line about the closed door, or undefined when no key is shaped for it. */
export function closedHttpDoorNotice(keys: GatewayKeys): { level: 'warn' | 'info'; text: string } | undefined {
  const router: string[] = [];
  const acme: string[] = [];
  for (const key of keys.keys.keys()) {
    const types = typesGranted(keys, key);
    if (!types?.size) continue;
    if ([...types].every((t) => t === 'A' || t === 'AAAA')) router.push(key);
    else if (types.size === 1 && types.has('TXT')) acme.push(key);
  }
  const parts = [
    router.length && `dyndns2 clients (routers, NAS boxes) with ${keyList(router)}`,
    acme.length && `httpreq and acme-dns clients with ${keyList(acme)}`,
  ].filter(Boolean);
  if (!parts.length) return undefined;
  return {
    level: router.length ? 'warn' : 'info',
    text:
      `gateway: the HTTP door is closed (no --http-listen): ${parts.join(', and ')}${parts.length > 1 ? ',' : ''} ` +
      'get "connection refused"; --http-listen ADDR:PORT (DDEDGE_GATEWAY_HTTP_DOOR_LISTEN; ' +
      'DDEDGE_GATEWAY_HTTP_LISTEN is --listen, the status page) opens it (RFC 2136 updates on the DNS door work as ' +
      'they are)',
  };
}

/** Every type `key`'s grants name; undefined when a grant names none (every type). */
function typesGranted(keys: GatewayKeys, key: string): Set<string> | undefined {
  const types = new Set<string>();
  for (const grant of keys.grants) {
    if (grant.key !== key) continue;
    if (!grant.types.length) return undefined;
    for (const type of grant.types) types.add(type);
  }
  return types;
}

function keyList(names: string[]): string {
  // Named as every message names a key: not when the name may be a secret pasted as one.
  const shown = names.slice(0, NAMED_KEYS).map(shownName).join(', ');
  const more = names.length - NAMED_KEYS;
  return `${names.length === 1 ? 'key' : 'keys'} ${shown}${more > 0 ? ` and ${more} more` : ''}`;
}
