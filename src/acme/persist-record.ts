// The DNS-PERSIST-01 record (draft-ietf-acme-dns-persist, as Let's Encrypt's boulder reads it):
// a TXT at _validation-persist.DOMAIN whose text is an RFC 8659 issue-value,
//   issuer-domain-name; accounturi=URI[; policy=wildcard][; persistUntil=UNIX-SECONDS]
// Read exactly as a CA reads it, so that what ddedge says of a record is what the CA will say:
// the issuer compared lower case, punycode, without a trailing dot; tags without case; space and
// tab around every part ignored; an unknown tag ignored (its duplicates too); a known tag twice,
// a parameter without "=", an empty tag or accounturi, a value with a space, a control, a ";" or
// a byte beyond ASCII, a persistUntil that is no base-10 64-bit integer, or a trailing ";" make
// the record malformed. Written one way, the draft's: `issuer; accounturi=…; policy=wildcard;
// persistUntil=…`.
import { asciiName } from '../lib/names.js';
import { escapeControls } from '../lib/outside-text.js';

export const PERSIST_LABEL = '_validation-persist';

export interface PersistParams {
  accountUri: string;
  /** As written (a CA compares it without case); only `wildcard` means anything. */
  policy?: string;
  /** Seconds since the epoch (UTC, no leap seconds). */
  persistUntil?: number;
}

export interface ParsedPersistRecord {
  /** The issuer-domain-name as a CA compares it; absent when there is none to read. */
  issuer?: string;
  params?: PersistParams;
  /** Why the record is malformed (then `params` is absent). */
  error?: string;
}

/** RFC 5234 WSP, as RFC 8659 allows around the parts. */
const trimWsp = (text: string): string => text.replace(/^[ \t]+|[ \t]+$/g, '');

/** A value: printable ASCII without space and without ";" (RFC 8659 `value`). */
const VALUE = /^[\x21-\x3a\x3c-\x7e]*$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * An issuer-domain-name in the form a CA compares (lower case, NFC, punycode, no trailing dot,
 * at most 253 octets); undefined when it cannot be one.
 */
export function normalizeIssuer(text: string): string | undefined {
  const folded = text.toLowerCase().normalize('NFC');
  if (!folded || /[\x00-\x20\x7f;=]/.test(folded)) return undefined;
  const ascii = /^[\x21-\x7e]*$/.test(folded) ? folded : asciiName(folded);
  if (!ascii) return undefined;
  const name = ascii.replace(/\.$/, '');
  return name && name.length <= 253 ? name : undefined;
}

/** Longest piece of a record quoted in a reason: the record comes from a name server, which may send 64 KB. */
const QUOTED_CHARS = 200;

/**
 * A piece of a record (or of the question), quoted for a reason shown on a terminal, in a log or in JSON: cut to
 * QUOTED_CHARS, and with no control, line separator or bidi control left as it is (JSON quoting escapes only C0).
 */
export function quoted(text: string): string {
  const cut = text.length > QUOTED_CHARS ? `${text.slice(0, QUOTED_CHARS)}…` : text;
  return escapeControls(JSON.stringify(cut));
}

/** Reads one TXT text (its strings joined) as a CA does. */
export function parsePersistRecord(text: string): ParsedPersistRecord {
  const [first = '', ...rest] = text.split(';');
  const rawIssuer = trimWsp(first);
  if (!rawIssuer) return { error: 'empty issuer-domain-name' };
  const issuer = normalizeIssuer(rawIssuer);
  if (!issuer) return { error: `malformed issuer-domain-name ${quoted(rawIssuer)}` };
  const found: Partial<PersistParams> = {};
  const seen = new Set<string>();
  for (const part of rest) {
    const problem = readParameter(trimWsp(part), found, seen);
    if (problem) return { issuer, error: problem };
  }
  if (!found.accountUri) return { issuer, error: 'missing mandatory accounturi parameter' };
  return { issuer, params: found as PersistParams };
}

/** One `tag=value` into `found`; returns why it makes the record malformed. */
function readParameter(param: string, found: Partial<PersistParams>, seen: Set<string>): string | undefined {
  if (!param) return 'empty parameter or trailing semicolon';
  const equals = param.indexOf('=');
  if (equals < 0) return `malformed parameter ${quoted(param)}: not tag=value`;
  const tag = trimWsp(param.slice(0, equals));
  const value = trimWsp(param.slice(equals + 1));
  if (!tag) return `malformed parameter ${quoted(param)}: empty tag`;
  if (!VALUE.test(value)) return `malformed value ${quoted(value)} for tag ${quoted(tag)}`;
  const known = tag.toLowerCase();
  if (known !== 'accounturi' && known !== 'policy' && known !== 'persistuntil') return undefined;
  if (seen.has(known)) return `duplicate parameter ${quoted(tag)}`;
  seen.add(known);
  if (known === 'accounturi') {
    if (!value) return 'empty value for the mandatory accounturi';
    found.accountUri = value;
  } else if (known === 'policy') found.policy = value;
  else {
    const seconds = unixSeconds(value);
    if (seconds === undefined) return `malformed persistUntil timestamp ${quoted(value)}`;
    found.persistUntil = seconds;
  }
  return undefined;
}

/** A base-10 64-bit integer, sign allowed (Go's strconv.ParseInt, which boulder uses). */
function unixSeconds(text: string): number | undefined {
  if (!/^[+-]?\d{1,20}$/.test(text)) return undefined;
  const big = BigInt(text);
  return big < INT64_MIN || big > INT64_MAX ? undefined : Number(big);
}

/** `policy=wildcard` in any case: the one value the draft defines. */
export const isWildcardPolicy = (policy: string | undefined): boolean => policy?.toLowerCase() === 'wildcard';

export interface PersistRecordFields {
  /** Normalized (normalizeIssuer). */
  issuer: string;
  accountUri: string;
  wildcard: boolean;
  persistUntil?: number;
}

/** The record's text as the draft's examples write it. */
export function formatPersistRecord(fields: PersistRecordFields): string {
  return [
    fields.issuer,
    `accounturi=${fields.accountUri}`,
    ...(fields.wildcard ? ['policy=wildcard'] : []),
    ...(fields.persistUntil === undefined ? [] : [`persistUntil=${fields.persistUntil}`]),
  ].join('; ');
}

/** A Unix time as people read it (2027-01-01T00:00:00Z); the raw number when no date can show it. */
export function persistUntilText(seconds: number): string {
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? `${seconds} (Unix time)` : date.toISOString().replace(/\.000Z$/, 'Z');
}
