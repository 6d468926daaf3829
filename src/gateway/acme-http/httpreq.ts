// httpreq / acmeproxy (lego's `httpreq`, acme.sh's `dns_acmeproxy`, Caddy's libdns `acmeproxy`,
// the Home Assistant add-on), read from what each sends: `POST /present` or `/cleanup` with
// - `{"fqdn": "_acme-challenge.NAME.", "value": "…"}` (the default mode; acme.sh and Caddy send the
//   trailing dot, lego sends the effective FQDN it found), or
// - `{"domain": "NAME", "token": "…", "keyAuth": "…"}` (lego's RAW mode): the TXT is at
//   `_acme-challenge.NAME`, its value the base64url SHA-256 of keyAuth (RFC 8555 section 8.4).
// The answer echoes `{"fqdn", "value"}` exactly as received: Caddy's module compares both, acme.sh
// looks for the quoted value in the body, lego reads only the status. Pure.
import { createHash } from 'node:crypto';
import { canonicalName } from '../../lib/names.js';
import { isChallengeValue, jsonFields } from './json-body.js';

export interface HttpreqChange {
  /** The TXT owner as a name key (lower case, no trailing dot). */
  name: string;
  value: string;
  /** The answer's body. */
  echo: { fqdn: string; value: string };
}

/** keyAuth is `token.thumbprint`: a few hundred characters at most. */
const MAX_KEY_AUTH = 1024;

/** The change a body asks for, or why it asks for none (400). */
export function readHttpreq(body: string): HttpreqChange | string {
  const fields = jsonFields(body);
  if (typeof fields === 'string') return fields;
  if (fields.has('fqdn') || fields.has('value')) return defaultMode(fields.get('fqdn'), fields.get('value'));
  if (fields.has('domain') || fields.has('keyauth')) return rawMode(fields.get('domain'), fields.get('keyauth'));
  return 'give {"fqdn", "value"}, or in RAW mode {"domain", "token", "keyAuth"}';
}

function defaultMode(fqdn: string | undefined, value: string | undefined): HttpreqChange | string {
  if (fqdn === undefined || value === undefined) return 'give both "fqdn" and "value" (strings)';
  const name = canonicalName(fqdn);
  if (!name?.includes('.') || name.includes('*')) return '"fqdn" is not a full host name';
  if (!isChallengeValue(value)) return '"value" is not an ACME challenge value (base64url, at most 255 characters)';
  return { name, value, echo: { fqdn, value } };
}

function rawMode(domain: string | undefined, keyAuth: string | undefined): HttpreqChange | string {
  if (domain === undefined || keyAuth === undefined) return 'give "domain" and "keyAuth" (strings)';
  // A wildcard's challenge is at the name below it (RFC 8555 section 8.4): lego sends that name, others may not.
  const name = canonicalName(`_acme-challenge.${domain.replace(/^\*\./, '')}`);
  if (!name || name.split('.').length < 3 || name.includes('*')) return '"domain" is not a full host name';
  if (!keyAuth || keyAuth.length > MAX_KEY_AUTH || !/^[\x21-\x7e]+$/.test(keyAuth))
    return '"keyAuth" is not a key authorization (token.thumbprint)';
  const value = createHash('sha256').update(keyAuth).digest('base64url');
  return { name, value, echo: { fqdn: `${name}.`, value } };
}
