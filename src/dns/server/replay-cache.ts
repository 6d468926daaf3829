// Signed requests already answered, so the same bytes sent again are not acted on twice (a
// replayed UPDATE would otherwise redo a change its owner has since undone). A TSIG is
// accepted only within its fudge of the time it was signed (RFC 8945 5.2.3), so an entry is
// kept until that window closes and no longer: after it, the replay is BADTIME anyway. The
// entry holds the first answer, which a retransmission (the client lost the answer; nsupdate
// and dnspython resend the same bytes over UDP) gets again: it learns what happened.
//
// Bounded: at most `maxEntries`, each a key name, a MAC (at most 64 bytes) and a promise of a
// short answer. When it is full of windows still open, `remember` says so and the caller
// refuses the request (to forget an open window would let its message be replayed).

export class ReplayCache<T> {
  private readonly entries = new Map<string, { until: number; value: T }>();

  constructor(private readonly maxEntries: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** The answer remembered for `id`, if its window is still open at `now` (seconds). */
  get(id: string, now: number): T | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    if (entry.until < now) {
      this.entries.delete(id);
      return undefined;
    }
    return entry.value;
  }

  /** Remembers `value` for `id` until `until` (seconds); false when the cache is full of open windows. */
  remember(id: string, until: number, value: T, now: number): boolean {
    if (this.entries.size >= this.maxEntries) this.sweep(now);
    if (this.entries.size >= this.maxEntries) return false;
    this.entries.set(id, { until, value });
    return true;
  }

  /** The entries whose window is still open at `now`: id and end of window (to keep them across a restart). */
  *open(now: number): Iterable<[string, number]> {
    for (const [id, entry] of this.entries) if (entry.until >= now) yield [id, entry.until];
  }

  /** Drops every entry whose window has closed: O(entries), run only when the cache is full. */
  private sweep(now: number): void {
    for (const [id, entry] of this.entries) if (entry.until < now) this.entries.delete(id);
  }
}
