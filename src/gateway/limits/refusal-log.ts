// Why an update was not made, in the gateway's own log. The client learns it from an Extended
// DNS Error only when it sends EDNS, and nsupdate, knsupdate and certbot do not on updates: a
// trial found REFUSED and BADKEY left no trace anywhere but a metric. Each refusal is one warn
// line naming the client, the key and the reason; a flood (a client retrying in a loop, an
// attacker) is cut at a bound per minute, with one line saying how many were not logged.
import { counted } from '../../lib/counted.js';
import { outsideText } from '../../lib/outside-text.js';
import type { Logger } from '../../lib/log.js';

/** Lines per minute: enough for every refusal a misconfigured client makes, too few to fill a disk. */
export const REFUSALS_LOGGED_PER_MINUTE = 30;

/**
 * What was refused. `keyless` says what stands for the missing key ("unsigned" is DNS's word; the dyndns2 door's is
 * about credentials).
 */
export interface RefusedWhat {
  zone?: string;
  key?: string;
  client: string;
  kind?: 'update' | 'request' | 'transfer';
  keyless?: string;
  /**
   * The key's signature (or its dyndns2 password) verified. A key name a client merely claimed is logged, but counts
   * for the notifications only under the client's source.
   */
  verified?: boolean;
}

/** Who a refusal came from, as the notifications count it: `key` only when its signature verified. */
export interface RefusalOrigin {
  key?: string;
  zone?: string;
  client: string;
}

/** A refusal as the status page lists it. */
export interface Refusal {
  time: string;
  rcode: string;
  what: string;
  why: string;
}

/** Refusals the status page shows, newest last. */
const RECENT = 20;

export class RefusalLog {
  /** The last refusals, logged or not (bounded): what the status page shows. */
  readonly recent: Refusal[] = [];
  private windowStart = 0;
  private logged = 0;
  private dropped = 0;

  constructor(
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
    /** Told of every refusal, logged or not (the notifications' burst counter). */
    private readonly observer?: (origin: RefusalOrigin, refusal: Refusal) => void,
  ) {}

  /** `what` names the update (zone, key, client); `why` is the reason the client was given. */
  refused(rcode: string, what: RefusedWhat, why: string): void {
    const now = this.now();
    const refusal = { time: new Date(now).toISOString(), rcode, what: describe(what), why: outsideText(why, 300) };
    this.recent.push(refusal);
    this.observer?.(
      {
        ...(what.verified && what.key !== undefined ? { key: outsideText(what.key, 255) } : {}),
        ...(what.zone === undefined ? {} : { zone: outsideText(what.zone, 255) }),
        client: what.client,
      },
      refusal,
    );
    if (this.recent.length > RECENT) this.recent.shift();
    if (now - this.windowStart >= 60_000) {
      if (this.dropped)
        this.logger.warn(
          `gateway: ${counted(this.dropped, 'more refused update or transfer', 'more refused updates or transfers')}` +
            ` in the last minute ${this.dropped === 1 ? 'was' : 'were'} not logged`,
        );
      this.windowStart = now;
      this.logged = 0;
      this.dropped = 0;
    }
    if (this.logged >= REFUSALS_LOGGED_PER_MINUTE) {
      this.dropped++;
      return;
    }
    this.logged++;
    // Names and key names come from the client: escaped and bounded like any outside text.
    this.logger.warn(`gateway: ${describe(what)}: ${rcode}: ${outsideText(why)}`);
  }
}

function describe(what: RefusedWhat): string {
  const parts = [
    what.zone ? `zone ${outsideText(what.zone, 255)}` : undefined,
    what.key ? `key ${outsideText(what.key, 255)}` : (what.keyless ?? 'unsigned'),
    `from ${what.client}`,
  ].filter(Boolean);
  return `${what.kind ?? 'update'} ${parts.join(', ')}`;
}
