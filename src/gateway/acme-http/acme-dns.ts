// acme-dns (joohoi/acme-dns's API, as goacmedns sends it for lego, Traefik and cert-manager, and
// acme.sh's `dns_acmedns` for OPNsense and Proxmox): `POST /update` with `X-Api-User` and
// `X-Api-Key` and `{"subdomain", "txt"}` (any case: goacmedns has sent `SubDomain`/`Txt`). An
// account here is a key of the keys file and a domain: its `subdomain` is the domain itself
// (`ddedge gateway acme-dns-account` prints it so), and the TXT is written at the domain's own
// `_acme-challenge` name, so no CNAME delegation is needed; `_acme-challenge.DOMAIN` as the
// subdomain names the same. The value is checked as acme-dns checks it (43 characters: a SHA-256
// in base64url), with its error words (`bad_subdomain`, `bad_txt`). Pure.
import { canonicalName } from '../../lib/names.js';
import { jsonFields } from './json-body.js';

const CHALLENGE_LABEL = '_acme-challenge';

/** The TXT owner of an account's domain: `_acme-challenge.DOMAIN`, or undefined when DOMAIN is no full host name. */
export function challengeNameOf(domain: string): string | undefined {
  const bare = canonicalName(domain.replace(/^\*\./, ''));
  if (!bare?.includes('.') || bare.includes('*')) return undefined;
  const name = bare.startsWith(`${CHALLENGE_LABEL}.`) ? bare : `${CHALLENGE_LABEL}.${bare}`;
  return name.length <= 253 ? name : undefined;
}

/**
 * An account's `subdomain` that names no domain: most likely one acme-dns itself registered (a
 * UUID under its own zone), which a client still holds after moving here.
 */
const NOT_A_DOMAIN =
  '"subdomain" names no domain (bad_subdomain): an account here names the domain itself, not an ' +
  "acme-dns server's UUID; print the accounts with ddedge gateway acme-dns-account";

/** The update a body asks for, or acme-dns's error word for it (400) and, for the log, why when it needs saying. */
export function readAcmeDnsUpdate(body: string): { name: string; value: string } | { error: string; why?: string } {
  const fields = jsonFields(body);
  if (typeof fields === 'string') return { error: 'malformed_json_payload' };
  const subdomain = fields.get('subdomain') ?? '';
  const name = challengeNameOf(subdomain);
  if (!name) return { error: 'bad_subdomain', ...(subdomain.includes('.') ? {} : { why: NOT_A_DOMAIN }) };
  const value = fields.get('txt') ?? '';
  if (!/^[A-Za-z0-9_-]{43}$/.test(value)) return { error: 'bad_txt' };
  return { name, value };
}
