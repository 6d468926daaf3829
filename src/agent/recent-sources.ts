// The address sources' last answers, per address family, as the last cycle of this process
// got them (which source, the address or the error, how long it took). In memory only: the
// daemon's status page is served by the process whose cycles ask the sources. Names and errors
// are outside text (a source's URL may hold a token): redacted and bounded when shown.
import type { Family } from '../lib/address.js';
import type { SourceAnswer } from '../ip/detect.js';
import { outsideText } from '../lib/outside-text.js';

export interface RecentSources {
  family: Family;
  at: string;
  answers: SourceAnswer[];
}

/** A detection asks a handful of sources; more than this is not worth a page's line each. */
const ANSWERS_KEPT = 20;
const recent = new Map<Family, RecentSources>();

export function recordSourceAnswers(family: Family, answers: readonly SourceAnswer[], now = new Date()): void {
  // Kept as given, made safe when shown: a one-shot `update` records them too, and never shows them.
  recent.set(family, { family, at: now.toISOString(), answers: answers.slice(0, ANSWERS_KEPT) });
}

/** IPv4 first, then IPv6; empty before the first detection (or when every record's address is given). */
export function recentSourceAnswers(): RecentSources[] {
  return [4, 6].flatMap((family) => {
    const kept = recent.get(family as Family);
    return kept ? [{ ...kept, answers: kept.answers.map(shown) }] : [];
  });
}

const shown = (a: SourceAnswer): SourceAnswer => ({
  source: outsideText(a.source, 200),
  ...(a.address === undefined ? {} : { address: outsideText(a.address, 64) }),
  ...(a.error === undefined ? {} : { error: outsideText(a.error, 300) }),
  ms: a.ms,
});
