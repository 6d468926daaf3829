// The status pages' actions ("update now", "read the zones again now") spend provider calls, so
// each runs at most once every ACTION_EVERY_MS whoever asks: a token, a loopback visitor and a
// form value all share one turn. A request within that time runs nothing and learns when the
// action last ran and when it may run again. Time is the caller's clock.
import type { Clock } from '../lib/clock.js';

export const ACTION_EVERY_MS = 30_000;

export type ActionTurn = { ran: true } | { ran: false; lastAt: number; nextAt: number };

export class ActionLimit {
  private lastAt: number | undefined;

  constructor(
    private readonly clock: Clock,
    readonly everyMs = ACTION_EVERY_MS,
  ) {}

  now(): number {
    return this.clock.now();
  }

  /** Takes the turn when it is free; a refused request does not move the next turn. */
  take(): ActionTurn {
    const now = this.clock.now();
    const last = this.lastAt;
    // A last run in the future is a clock set back: it holds nothing.
    if (last !== undefined && now >= last && now - last < this.everyMs)
      return { ran: false, lastAt: last, nextAt: last + this.everyMs };
    this.lastAt = now;
    return { ran: true };
  }
}
