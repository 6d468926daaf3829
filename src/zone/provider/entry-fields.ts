// The provider's form of a DNS entry's fields, read one way by everything that reads an entry
// (the zone engine, the name servers, the agent's API path, the ACME challenges): the provider
// names an entry by its full host name (or relative to the zone), keeps TTL and priority as
// strings with "-" for its default, and holds an empty TXT as the two characters "". Apart from
// provider-mapping.ts so that the agent's and the ACME paths read an entry without loading the
// zone engine's value rules.
import { txtBytesOfValue } from '../../dns/wire/txt-strings.js';
import { lowerName } from '../../lib/names.js';

/**
 * The API requires a value, so an empty TXT record is sent as the two characters "" (what a
 * zone file holds for it) and read back as empty.
 */
export const EMPTY_TXT = '""';

/** The provider's MX and SRV priority when none is sent (spec: default 10). */
export const DEFAULT_PRIORITY = 10;

/** The TTL a name server gives an entry whose ttl is `-` (the provider's default). */
export const DEFAULT_TTL = 300;

/** A TTL or priority as the provider writes it: digits, or `-` (its default) read as none. */
export const countOf = (field: unknown): number | undefined =>
  field === '-' || field === undefined ? undefined : /^\d+$/.test(String(field)) ? Number(field) : undefined;

/** The text a TXT entry holds: its value, the two characters "" read as the empty text. */
export const txtOfValue = (value: string): string => (value === EMPTY_TXT ? '' : value);

/**
 * Whether a TXT text written as the provider's value is read back as the same text. Two forms are the provider's own
 * and so are not: the two characters "" (an empty TXT) and a quoted \DDD string of bytes that are not UTF-8.
 */
export const txtReadBackSame = (text: string): boolean => text !== EMPTY_TXT && txtBytesOfValue(text) === undefined;

/**
 * The text of a TXT entry some zones show quoted (`"abc"` for abc): for finding a value ddedge
 * wrote, which never holds a quote (a challenge's token); a zone's own text is read by
 * txtOfValue, since a TXT text may begin and end with a quote.
 */
export const unquotedTxt = (value: string): string => (/^".*"$/s.test(value) ? value.slice(1, -1) : value);

/** The entry's name as the provider writes it (full host name, per the field notes) or relative to the zone. */
export function entryMatchesHost(entryName: string, host: string, zone: string): boolean {
  const name = lowerName(entryName);
  if (name === host) return true;
  if (name === '@' || name === '') return host === zone;
  return `${name}.${zone}` === host;
}
