// Guessing a key's secret through the door: each wrong answer from one address makes that
// address wait longer for its next `badauth` (nothing before the first few, then doubling to
// a cap), so a router with a typo retries normally while a guesser gets a handful of tries a
// minute. The memory is bounded: past MAX_ADDRESSES the address not heard from longest is
// forgotten, and an address quiet for FORGET_MS starts afresh. Slowing the answer holds only a
// connection of the guesser's own, which the HTTP side bounds per address.

/** Wrong tries answered at once: a client that retries with the same wrong password a few times. */
const FREE_TRIES = 3;
const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;
const FORGET_MS = 15 * 60_000;
const MAX_ADDRESSES = 10_000;

interface Failures {
  count: number;
  lastMs: number;
}

export class FailureDelay {
  private readonly byAddress = new Map<string, Failures>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Records a wrong try from `address`; returns how long to wait before answering it. */
  failed(address: string): number {
    const now = this.now();
    const seen = this.byAddress.get(address);
    const count = seen && now - seen.lastMs < FORGET_MS ? seen.count + 1 : 1;
    // Re-inserted so that the map's order is the order of last failure (the first is the one to forget).
    this.byAddress.delete(address);
    this.byAddress.set(address, { count, lastMs: now });
    if (this.byAddress.size > MAX_ADDRESSES) this.byAddress.delete(this.byAddress.keys().next().value!);
    return count <= FREE_TRIES ? 0 : Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (count - FREE_TRIES - 1));
  }

  /** A right answer from `address` clears its record. */
  succeeded(address: string): void {
    this.byAddress.delete(address);
  }

  /** Addresses remembered (for tests of the bound). */
  get size(): number {
    return this.byAddress.size;
  }
}
