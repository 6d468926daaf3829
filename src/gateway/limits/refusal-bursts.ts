// When refusals are worth telling someone: one refused update is a typo or a client retrying,
// many from the same key in a few minutes is a broken client or someone guessing. Refusals are
// counted per key (unsigned ones together); `threshold` of them within `windowMs` make one
// "refused" notification, and that key is not told of again for `quietMs`.
import type { NotifyEvent } from '../../notify/message.js';
import type { Refusal } from './refusal-log.js';

export const REFUSAL_BURST = { threshold: 5, windowMs: 5 * 60_000, quietMs: 60 * 60_000, keys: 1000 };

export class RefusalBursts {
  /** Per key: the times of its refusals inside the window (at most `threshold`), and when it was last told. */
  private readonly seen = new Map<string, { times: number[]; toldAt?: number }>();

  constructor(
    private readonly limits = REFUSAL_BURST,
    private readonly now: () => number = Date.now,
  ) {}

  /** The notification this refusal completes, if it completes a burst. */
  note(key: string | undefined, zone: string | undefined, refusal: Refusal): NotifyEvent | undefined {
    const now = this.now();
    const name = key ?? 'unsigned';
    let entry = this.seen.get(name);
    if (!entry) {
      // Bounded: keys named by clients (unknown ones included) cannot grow this without end.
      if (this.seen.size >= this.limits.keys) this.seen.delete(this.seen.keys().next().value!);
      entry = { times: [] };
      this.seen.set(name, entry);
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
      ...(zone ? { host: zone } : {}),
      key: name,
      message:
        `${this.limits.threshold} refused within ${minutes} min, the last: ${refusal.what}: ` +
        `${refusal.rcode}: ${refusal.why} (no more of these for this key for ` +
        `${Math.round(this.limits.quietMs / 60_000)} min)`,
    };
  }
}
