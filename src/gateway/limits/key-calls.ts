// Each key's share of the gateway's hourly call budget. The budget is one pool (call-budget.ts):
// an attack had one key toggle its one TXT record until the pool was spent, and every other key
// was answered SERVFAIL for the rest of the hour. So where the keys file holds several keys, a
// key may spend at most half of the hour's budget unless the keys file says otherwise
// (`quota "KEY" calls N;`); a lone key may spend all of it. Two keys at their share
// still leave the refreshes some, and no single key takes all of it. A key is charged what its
// updates cost: its writes (and what undoing them would take, while they are being made) and
// its part of the batch's reading. Counted in memory per minute over the last hour: a restart
// forgets the shares, never the pool, which is counted on disk.
import { CALL_WINDOW_MINUTES } from '../../state/budget.js';
import type { GatewayKeys } from '../keys/keys-file.js';

const MINUTE_MS = 60_000;

export class KeyCalls {
  /** key → minute → calls charged. */
  private readonly charged = new Map<string, Map<number, number>>();

  constructor(
    /** The gateway's calls an hour (--max-calls-per-hour). */
    private readonly budget: number,
    private readonly keys: () => GatewayKeys,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** The calls a key may make in an hour. */
  share(key: string): number {
    const keys = this.keys();
    // A keys file of one key has no other key to hold up: that key may spend the whole budget.
    return keys.quotas.get(key)?.calls ?? (keys.keys.size > 1 ? Math.floor(this.budget / 2) : this.budget);
  }

  /** Calls the key was charged in the last hour. */
  used(key: string): number {
    const minutes = this.charged.get(key);
    if (!minutes) return 0;
    // The pool's window (state/budget.ts): a charge of minute m counts until the end of minute m + 60.
    const oldest = this.minute() - CALL_WINDOW_MINUTES + 1;
    let used = 0;
    for (const [minute, calls] of minutes) {
      if (minute < oldest) minutes.delete(minute);
      else used += calls;
    }
    if (!minutes.size) this.charged.delete(key);
    return used;
  }

  /** Why `calls` more do not fit the key's share now; undefined when they do. */
  afford(key: string, calls: number): string | undefined {
    const share = this.share(key);
    const used = this.used(key);
    if (used + calls <= share) return undefined;
    return (
      `the key ${key} has spent its share of the provider calls ` +
      `(${used} of the ${share} it may make an hour; this update may take ${calls}); ` +
      'other keys are not held up by it (quota "KEY" calls N; in the keys file)'
    );
  }

  charge(key: string, calls: number): void {
    if (calls <= 0) return;
    const minutes = this.charged.get(key) ?? this.charged.set(key, new Map()).get(key)!;
    const minute = this.minute();
    minutes.set(minute, (minutes.get(minute) ?? 0) + calls);
  }

  private minute(): number {
    return Math.floor(this.now() / MINUTE_MS);
  }
}
