// What a CA decides from the TXT records at _validation-persist.DOMAIN, in boulder's order:
// records for other issuers (well-formed or not) are ignored; the first record for this issuer
// that names the account, allows a wildcard when one is asked for, and whose persistUntil has
// not passed validates. Otherwise the answer is "malformed" when a record for the issuer could
// not be read, else "unauthorized" with each record's reason, else "no record for the issuer".
import {
  isWildcardPolicy,
  parsePersistRecord,
  persistUntilText,
  quoted,
  type PersistParams,
} from './persist-record.js';

export interface PersistQuestion {
  /** Normalized. */
  issuer: string;
  /** The account the CA is asked for; undefined: any account (then the verdict names the record's). */
  accountUri?: string;
  /** A certificate for *.DOMAIN (or a name below DOMAIN): needs policy=wildcard. */
  wildcard: boolean;
  /** Seconds since the epoch. */
  now: number;
}

export type PersistVerdict =
  | { valid: true; record: string; params: PersistParams; wildcard: boolean; others: number }
  | { valid: false; problem: 'no-record' | 'malformed' | 'unauthorized'; reasons: string[]; others: number };

export function judgePersistRecords(texts: string[], question: PersistQuestion): PersistVerdict {
  const malformed: string[] = [];
  const unauthorized: string[] = [];
  const parsedAll = texts.map((text) => ({ text, parsed: parsePersistRecord(text) }));
  const others = parsedAll.filter(({ parsed }) => parsed.issuer !== question.issuer).length;
  for (const { text, parsed } of parsedAll) {
    if (parsed.issuer !== question.issuer) continue;
    if (!parsed.params) {
      malformed.push(`a record for ${question.issuer} is malformed: ${parsed.error}`);
      continue;
    }
    const refusal = refusalOf(parsed.params, question);
    if (refusal) {
      unauthorized.push(refusal);
      continue;
    }
    return {
      valid: true,
      record: text,
      params: parsed.params,
      wildcard: isWildcardPolicy(parsed.params.policy),
      others,
    };
  }
  if (malformed.length)
    return { valid: false, problem: 'malformed', reasons: firstReasons([...malformed, ...unauthorized]), others };
  if (unauthorized.length)
    return { valid: false, problem: 'unauthorized', reasons: firstReasons(unauthorized), others };
  const reason = texts.length
    ? `no record for the issuer ${question.issuer} (${texts.length} TXT record(s) for others)`
    : 'no TXT record';
  return { valid: false, problem: 'no-record', reasons: [reason], others };
}

/** A name server may answer hundreds of records for the issuer: the first few reasons say enough. */
const MAX_REASONS = 5;
const firstReasons = (reasons: string[]): string[] =>
  reasons.length <= MAX_REASONS
    ? reasons
    : [...reasons.slice(0, MAX_REASONS), `${reasons.length - MAX_REASONS} more record(s) for the issuer not valid`];

function refusalOf(params: PersistParams, question: PersistQuestion): string | undefined {
  // Simple string comparison (RFC 3986 6.2.1): no case folding, no normalization.
  if (question.accountUri !== undefined && params.accountUri !== question.accountUri)
    return `accounturi ${quoted(params.accountUri)} is not the account ${quoted(question.accountUri)}`;
  if (question.wildcard && !isWildcardPolicy(params.policy))
    return params.policy === undefined
      ? 'no policy=wildcard: the record is not valid for a wildcard or a name below the domain'
      : `policy=${quoted(params.policy)} is not wildcard: the record is not valid for a wildcard or a name below ` +
          'the domain';
  if (params.persistUntil !== undefined && question.now > params.persistUntil)
    return `persistUntil ${persistUntilText(params.persistUntil)} has passed`;
  return undefined;
}
