// When refusals are worth telling someone: one refused update is a typo or a client retrying,
// many in a few minutes are a broken client or someone guessing. A key counts only when its
// signature (or its dyndns2 password) verified: `threshold` of its refusals within `windowMs` make
// one "refused" notification, and that key is not told of again for `quietMs`. Everything else
// (unsigned, a key name nobody verified, bad credentials) counts under its source, and all of it
// is told in one digest (refusal-digest.ts): a name a client claims makes no notification of its
// own and is never in one.
import type { NotifyEvent } from '../../notify/message.js';
import { RefusalDigest, type DigestLimits } from './refusal-digest.js';
import type { Refusal, RefusalOrigin } from './refusal-log.js';

export const REFUSAL_BURST = {
  threshold: 5,
  windowMs: 5 * 60_000,
  quietMs: 60 * 60_000,
  /** Verified keys remembered. */
  keys: 1000,
  /** Sources of unverified refusals remembered, and named in a digest. */
  sources: 1000,
  shownSources: 5,
};

export class RefusalBursts {
  /** Per key: the times of its refusals inside the window (at most `threshold`), and when it was last told. */
  private readonly seen = new Map<string, { times: number[]; toldAt?: number }>();
  private readonly digest: RefusalDigest;

  constructor(
    private readonly limits: DigestLimits & { keys: number } = REFUSAL_BURST,
    private readonly now: () => number = Date.now,
  ) {
    this.digest = new RefusalDigest(limits, now);
  }

  /** The notification this refusal completes, if it completes a burst. */
  note(origin: RefusalOrigin, refusal: Refusal): NotifyEvent | undefined {
    if (origin.key === undefined) return this.digest.note(origin.client, refusal);
    const now = this.now();
    let entry = this.seen.get(origin.key);
    if (!entry) {
      // Bounded, though only keys of the keys file reach here.
      if (this.seen.size >= this.limits.keys) this.seen.delete(this.seen.keys().next().value!);
      entry = { times: [] };
      this.seen.set(origin.key, entry);
    }
    if (entry.toldAt !== undefined && now - entry.toldAt < this.limits.quietMs) return undefined;
    entry.times = entry.times.filter((t) => now - t < this.limits.windowMs);
    entry.times.push(now);
    if (entry.times.length < this.limits.threshold) return undefined;
    entry.times = [];
    entry.toldAt = now;
    const minutes = Math.round(this.limits.windowMs / 60_000);
    return {
      event: 'refused',
      time: new Date(now).toISOString(),
      ...(origin.zone ? { host: origin.zone } : {}),
      key: origin.key,
      message:
        `${this.limits.threshold} refused within ${minutes} min, the last: ${refusal.what}: ` +
        `${refusal.rcode}: ${refusal.why} (no more of these for this key for ` +
        `${Math.round(this.limits.quietMs / 60_000)} min)`,
    };
  }
}
