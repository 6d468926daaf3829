// A dyndns2 update request as every client dialect sends it, read into one shape: the host
// names, the addresses asked for, the FRITZ!Box's LAN prefix and the credentials.
// - ddclient, inadyn, OPNsense, MikroTik scripts: `GET /nic/update?hostname=H&myip=ADDR` with
//   HTTP basic auth, values URL-escaped.
// - FRITZ!Box and Synology DSM: the user's URL with placeholders replaced by the values as they
//   are, unescaped (`password=ab+c/d==`, `ip6lanprefix=2001:db8:1::/64`), credentials in the
//   query (`username`, `password`); a value the box does not have is left empty
//   (`myip=81.0.2.1,`), and a placeholder it does not know may stay as written (`<ip6addr>`).
// - Some send the same as a POST form body.
// So a `+` is kept as a `+` (secrets are base64: a `+` there is never a space), `%XX` is decoded
// where it is an escape and kept where it is not, and empty or `<...>` parts are no address.
// Pure: nothing here logs or knows the keys.
import { canonicalAddress, familyOfAddress } from '../../lib/address.js';
import { canonicalName } from '../../lib/names.js';
import { basicCredentials } from '../keys/credentials.js';

/** Host names one request may name: dyn.com's limit; a router names one or two. */
const MAX_HOSTNAMES = 20;
/** Parameters read from one request; more is not a client but a probe. */
const MAX_PARAMETERS = 64;
/** The longest name the DNS allows. */
const MAX_NAME = 253;

export interface HostName {
  /** As the client wrote it, for the log (the caller escapes and bounds it). */
  given: string;
  /** The name key (lower case, no trailing dot), or undefined when it is not a full host name. */
  name?: string;
}

export interface Dyndns2Request {
  /** Undefined when the request names no `hostname` at all. */
  hostnames?: HostName[];
  /** Too many host names to answer each (`numhost`). */
  tooMany: boolean;
  ipv4?: string;
  ipv6?: string;
  /** What in the addresses given cannot be used; then no host is changed. */
  addressProblem?: string;
  /** The FRITZ!Box's `ip6lanprefix`: the LAN's delegated prefix. */
  lanPrefix?: { address: string; length: number };
  lanPrefixProblem?: string;
  credentials?: { user: string; password: string };
}

/** The parameters of a query string or form body, read as the clients above send them. */
export function readParameters(text: string): Map<string, string[]> {
  const parameters = new Map<string, string[]>();
  let count = 0;
  for (const part of text.split('&')) {
    if (!part) continue;
    if (++count > MAX_PARAMETERS) break;
    const at = part.indexOf('=');
    const name = decodeLoosely(at < 0 ? part : part.slice(0, at)).toLowerCase();
    const value = at < 0 ? '' : decodeLoosely(part.slice(at + 1));
    parameters.set(name, [...(parameters.get(name) ?? []), value]);
  }
  return parameters;
}

/** `%XX` escapes decoded (as UTF-8); a `%` that starts none is kept as written. `+` stays `+`. */
function decodeLoosely(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}

export function readRequest(parameters: Map<string, string[]>, authorization: string | undefined): Dyndns2Request {
  const all = (name: string) => parameters.get(name) ?? [];
  const request: Dyndns2Request = { tooMany: false };
  if (parameters.has('hostname')) {
    const given = all('hostname')
      .flatMap((v) => v.split(','))
      .map((h) => h.trim());
    request.tooMany = given.length > MAX_HOSTNAMES;
    request.hostnames = request.tooMany ? [] : given.map((h) => ({ given: h, name: fullHostName(h) }));
  }
  readAddresses([...all('myip'), ...all('myipv6')], request);
  const prefix = all('ip6lanprefix')
    .map((v) => v.trim())
    .find((v) => v && !isPlaceholder(v));
  if (prefix !== undefined) readLanPrefix(prefix, request);
  const user = all('username')[0] ?? all('user')[0];
  const password = all('password')[0] ?? all('pass')[0];
  request.credentials =
    basicCredentials(authorization) ??
    (user !== undefined || password !== undefined ? { user: user ?? '', password: password ?? '' } : undefined);
  return request;
}

/**
 * A name key when `text` is a full host name (two labels at least, the provider's characters, no wildcard), else
 * undefined.
 */
function fullHostName(text: string): string | undefined {
  if (!text || text.length > MAX_NAME) return undefined;
  // Internationalised names in punycode, as the provider keeps them (a name already in that form, as a router sends it
  // every time, is returned as it is); checked in that form, the one the provider is sent.
  const key = canonicalName(text);
  return key?.includes('.') && !key.startsWith('*') ? key : undefined;
}

/** `<ip6addr>`, `__MYIP__`: a placeholder the client left as written, which means "no value". */
const isPlaceholder = (text: string): boolean => /^<[^<>]*>$/.test(text) || /^__[A-Z0-9_]+__$/.test(text);

function readAddresses(values: string[], request: Dyndns2Request): void {
  for (const item of values.flatMap((v) => v.split(','))) {
    const text = item.trim();
    if (!text || isPlaceholder(text)) continue;
    const family = familyOfAddress(text);
    if (!family) {
      request.addressProblem = `myip "${text}" is not an IPv4 or IPv6 address`;
      return;
    }
    const address = canonicalAddress(text);
    const slot = family === 4 ? 'ipv4' : 'ipv6';
    if (request[slot] !== undefined && request[slot] !== address) {
      request.addressProblem = `two different IPv${family} addresses given (${request[slot]} and ${address})`;
      return;
    }
    request[slot] = address;
  }
}

function readLanPrefix(text: string, request: Dyndns2Request): void {
  const slash = text.indexOf('/');
  const address = slash < 0 ? text : text.slice(0, slash);
  const lengthText = slash < 0 ? undefined : text.slice(slash + 1);
  // Decimal digits only: Number() would take "0x40", "+64", "64.0" or " 64" as 64, and a second "/64" was ignored.
  const length = lengthText === undefined ? 64 : /^\d{1,3}$/.test(lengthText) ? Number(lengthText) : NaN;
  if (familyOfAddress(address) !== 6) request.lanPrefixProblem = `ip6lanprefix "${text}" is not an IPv6 prefix`;
  else if (!Number.isInteger(length) || length < 48 || length > 64)
    request.lanPrefixProblem =
      `ip6lanprefix "${text}": the prefix length must be a whole number from 48 to 64 ` + `(decimal)`;
  else request.lanPrefix = { address: canonicalAddress(address), length };
}
