// What a challenge is about, as the provider and the DNS know it: the TXT record's name (lower
// case, punycode, no trailing dot), its value, and the hosting service whose zone holds it.
import { asciiName, atOrBelow } from '../lib/names.js';
import { registeredDomain } from '../lib/registered-domain.js';
import { ConfigError } from '../lib/errors.js';

// Challenge names carry underscores (`_acme-challenge`), which host names may not.
const LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/;
const CHALLENGE_PREFIX = '_acme-challenge';

export interface Challenge {
  name: string;
  value: string;
  service: string;
}

/** A record name as given by a client (`_acme-challenge.Example.com.`, IDN) in the form the provider stores. */
export function challengeRecordName(input: string): string {
  const trimmed = input.trim().replace(/\.$/, '');
  const ascii = trimmed && !/[\x00-\x20\x7f]/.test(trimmed) ? (asciiName(trimmed) ?? '').toLowerCase() : '';
  const labels = ascii.split('.');
  if (
    !ascii ||
    ascii.length > 253 ||
    labels.length < 2 ||
    !labels.every((l) => LABEL.test(l)) ||
    /^\d+$/.test(labels.at(-1)!)
  ) {
    throw new ConfigError(
      `${JSON.stringify(input)} is not a DNS name for a challenge record (e.g. _acme-challenge.example.com)`,
    );
  }
  return ascii;
}

/**
 * Refuses a record name that is not a challenge name: `acme present example.com <value>` (the
 * prefix forgotten) would otherwise put a TXT at the apex beside SPF and verification records.
 * `anyName` is for a name reached through a CNAME (a challenge delegated to another zone).
 */
export function checkChallengePrefix(input: string, anyName: boolean): void {
  if (anyName) return;
  const name = challengeRecordName(input);
  if (name.split('.')[0] === CHALLENGE_PREFIX) return;
  throw new ConfigError(
    `${JSON.stringify(input)} does not start with ${CHALLENGE_PREFIX}.: ACME clients ask for ` +
      `${CHALLENGE_PREFIX}.${name}; a TXT record elsewhere is not a challenge (--any-name sets it at the name as ` +
      `given, e.g. a CNAME's target)`,
  );
}

/** The name certbot's CERTBOT_DOMAIN stands for: the same record for a name and its wildcard. */
export function certbotRecordName(domain: string): string {
  return challengeRecordName(`${CHALLENGE_PREFIX}.${domain.trim().replace(/^\*\./, '')}`);
}

/** Challenge values are short printable text (RFC 8555: 43 base64url characters). */
function checkChallengeValue(value: string): string {
  if (!value || value.length > 255 || !/^[\x21-\x7e]+$/.test(value)) {
    throw new ConfigError('the challenge value must be 1 to 255 printable characters without spaces');
  }
  return value;
}

/** The hosting service whose zone holds `name`: --service, else the name's registered domain. */
export function serviceOfChallenge(name: string, service: string | undefined): string {
  const zone = service ?? registeredDomain(name);
  if (!atOrBelow(name, zone)) throw new ConfigError(`${name} is not inside the service ${zone} (--service)`);
  return zone;
}

export function describeChallenge(name: string, value: string, service: string | undefined): Challenge {
  const recordName = challengeRecordName(name);
  return { name: recordName, value: checkChallengeValue(value), service: serviceOfChallenge(recordName, service) };
}
