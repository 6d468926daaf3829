// A successful answer about another host or another address than the request's ("updated",
// but other.example.org at 6.6.6.6) is not a success: believed, it would be cached for
// --max-age and the record never corrected. Exit 4, not 7: the provider refused nothing (7
// is "look at the message", with a backoff that holds the record for hours); the answer
// simply does not match the request, which the contract treats as a malformed answer, a
// transient failure the next cycle retries (a cache or balancer in front of the provider
// answering for another client heals; a server that always lies is bounded by the budget).
import { DdedgeError, ExitCode } from '../lib/errors.js';
import { canonicalAddress } from '../lib/address.js';
import { lowerName } from '../lib/names.js';
import { outsideText } from '../lib/outside-text.js';
import type { DyndnsResult } from './result.js';

class DyndnsContradiction extends DdedgeError {
  constructor(message: string) {
    super(message, ExitCode.transient);
  }
}

/** Throws when the answer names another host, or another address than the one sent (`ip` empty: the provider chose). */
export function checkAnswerMatches(result: DyndnsResult, host: string, ip: string): void {
  const otherHost = result.host !== undefined && !sameHost(result.host, host);
  const otherAddress =
    ip !== '' && result.address !== undefined && canonicalAddress(result.address) !== canonicalAddress(ip);
  if (!otherHost && !otherAddress) return;
  const named = [result.host === undefined ? undefined : outsideText(result.host, 260), result.address]
    .filter(Boolean)
    .join(' at ');
  throw new DyndnsContradiction(
    `the dynamic DNS answer names ${named} but the request was ${host}${ip ? ` at ${ip}` : ''}; not trusted, ` +
      `nothing cached (sent again next cycle)`,
  );
}

/**
 * The answer's name is the request's, or the request's relative to its zone (`home` for
 * home.example.com): the spec calls it "the entry updated" without saying which form, and
 * a relative name can only be an entry of the zone the request named.
 */
function sameHost(answered: string, requested: string): boolean {
  const a = hostKey(answered);
  const r = hostKey(requested);
  return a === r || (a !== '' && r.startsWith(`${a}.`));
}

/** Names compare without case, without a trailing dot, and as punycode (an IDN in either spelling). */
function hostKey(name: string): string {
  const bare = lowerName(name.trim());
  try {
    return new URL(`http://${bare}/`).hostname;
  } catch {
    return bare;
  }
}
