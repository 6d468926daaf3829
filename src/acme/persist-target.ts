// What `acme persist` is asked to keep, checked before anything is read or sent: the domain (the
// record goes at _validation-persist.DOMAIN; a wildcard's record is its base domain's, with
// policy=wildcard), the issuer as the CA names itself, the ACME account's URI, the policy and
// when the record stops being valid. Every problem is a ConfigError (exit 2) naming the flag.
import { parseDuration } from '../lib/duration.js';
import { ConfigError } from '../lib/errors.js';
import { isHostName } from '../lib/names.js';
import { challengeRecordName, serviceOfChallenge } from './challenge-name.js';
import { normalizeIssuer, PERSIST_LABEL } from './persist-record.js';

export interface PersistTarget {
  /** The validated domain, lower case, punycode, no trailing dot. */
  domain: string;
  /** `_validation-persist.DOMAIN`. */
  name: string;
  service: string;
  issuer: string;
  accountUri: string;
  wildcard: boolean;
  /** Seconds since the epoch. */
  persistUntil?: number;
  /** --ttl, in seconds; undefined: a new record gets the provider's, a kept one keeps its own. */
  ttl?: number;
}

/** Far longer than any CA's account URL (Let's Encrypt's are about 60 characters). */
const MAX_ACCOUNT_URI = 1024;
/** printable ASCII without space and ";" (what a CA accepts as a value), after a URI scheme. */
const ACCOUNT_URI = /^[a-z][a-z0-9+.-]*:[\x21-\x3a\x3c-\x7e]+$/i;

/** The record's name and zone for `domain` (--service, else the registered domain). */
export function persistRecordName(
  domain: string,
  service: string | undefined,
): Pick<PersistTarget, 'domain' | 'name' | 'service'> {
  const given = domain.trim().replace(/\.$/, '');
  if (given.startsWith('*.'))
    throw new ConfigError(
      `${JSON.stringify(domain)}: a wildcard's record is its base domain's: give ${given.slice(2)} with --wildcard`,
    );
  if (given.toLowerCase().startsWith(`${PERSIST_LABEL}.`))
    throw new ConfigError(
      `${JSON.stringify(domain)}: give the domain the certificate is for; the record goes at ${PERSIST_LABEL}.DOMAIN`,
    );
  const name = challengeRecordName(`${PERSIST_LABEL}.${given}`);
  const ascii = name.slice(PERSIST_LABEL.length + 1);
  if (!isHostName(ascii)) throw new ConfigError(`${JSON.stringify(domain)} is not a domain name (e.g. example.com)`);
  return { domain: ascii, name, service: serviceOfChallenge(name, service) };
}

/** --issuer: the CA's issuer domain name (Let's Encrypt: letsencrypt.org), normalized as a CA compares it. */
export function persistIssuer(text: string | undefined): string {
  if (text === undefined || !text.trim())
    throw new ConfigError("--issuer is required: the CA's issuer domain name (Let's Encrypt: letsencrypt.org)");
  const issuer = normalizeIssuer(text.trim());
  if (!issuer || !isHostName(issuer))
    throw new ConfigError(
      `--issuer ${JSON.stringify(text.slice(0, 100))} is not a domain name (the CA's, e.g. letsencrypt.org)`,
    );
  return issuer;
}

/** --account-uri: the ACME account's URL, as the CA gave it (compared byte for byte). */
export function persistAccountUri(text: string | undefined): string {
  if (text === undefined || !text)
    throw new ConfigError('--account-uri is required: the ACME account URL the CA gave when it was registered');
  if (text.length > MAX_ACCOUNT_URI)
    throw new ConfigError(`--account-uri is ${text.length} characters long; at most ${MAX_ACCOUNT_URI} are accepted`);
  if (!ACCOUNT_URI.test(text))
    throw new ConfigError(
      `--account-uri ${JSON.stringify(text.slice(0, 100))} is not a URI a CA accepts: a scheme (https:), then ` +
        'printable characters without spaces or ";"',
    );
  return text;
}

/**
 * --until: a time (2027-06-30, 2027-06-30T12:00:00Z), a duration from now (90d, 1y is not a unit: 365d), or a Unix
 * time in seconds (the record's own form). It must be in the future: a CA refuses a record whose time has passed.
 */
export function persistUntilOf(text: string | undefined, nowMs: number): number | undefined {
  if (text === undefined) return undefined;
  const given = text.trim();
  let seconds: number | undefined;
  if (/^\d{1,15}$/.test(given)) seconds = Number(given);
  else if (
    /^\d{4}-\d\d-\d\d([T ]\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?)?$/i.test(given) &&
    existsOnTheCalendar(given)
  ) {
    // A time without a zone is UTC, as every time ddedge prints.
    const iso = given.length === 10 ? `${given}T00:00:00` : given.replace(' ', 'T');
    const ms = Date.parse(/(z|[+-]\d\d:?\d\d)$/i.test(iso) ? iso : `${iso}Z`);
    if (Number.isFinite(ms)) seconds = Math.floor(ms / 1000);
  } else {
    const ms = parseDuration(given);
    if (ms !== undefined && /[a-z]$/i.test(given)) seconds = Math.floor((nowMs + ms) / 1000);
  }
  if (seconds === undefined || !Number.isSafeInteger(seconds) || seconds > 253_402_300_799)
    throw new ConfigError(
      `--until ${JSON.stringify(given.slice(0, 100))} is neither a time (2027-06-30, 2027-06-30T12:00:00Z), a ` +
        'duration from now (90d) nor a Unix time in seconds before the year 10000',
    );
  if (seconds * 1000 <= nowMs)
    throw new ConfigError(`--until ${JSON.stringify(given)} has passed: a CA would refuse the record at once`);
  return seconds;
}

/** A date (and time) as written exists: Date.parse would turn 2027-02-30 into March 2 without a word. */
function existsOnTheCalendar(given: string): boolean {
  const [, y, mo, d, h = '0', mi = '0', s = '0'] = /^(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d)(?::(\d\d))?)?/i.exec(
    given,
  )!;
  const day = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  return (
    day.getUTCMonth() === Number(mo) - 1 &&
    day.getUTCDate() === Number(d) &&
    Number(h) < 24 &&
    Number(mi) < 60 &&
    Number(s) < 60
  );
}
