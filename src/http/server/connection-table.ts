// Which connection gives way when a door is full: the accounting behind the connection guard,
// on the caller's clock, with no socket in sight. A newcomer is let in whenever some open
// connection can give way for it; one gives way when it is not being answered: it is waiting
// (connected, or kept alive after an answer, or still sending its headers) or still sending
// its request's body. Only a request that has fully arrived is work in progress and never cut.
// - Every connection counts against its source's share (an IPv4 address, an IPv6 /64), busy or
//   not: a source at its share pays for a newcomer with its own oldest connection that can
//   give way, or the newcomer is refused.
// - Past the total, the connection that gives way is one of an unknown source before one of
//   a known source (a client answered after authenticating, by its source), from the source
//   holding the most connections, the one waiting longest. So a crowd of slow or idle
//   connections, from any number of addresses, pays for every newcomer before a known router
//   pays, and a probe, which sends its request as soon as it connects and is answered at
//   once, is never the one that gives way before the crowd has.
// Bounded: at most `total` connections are tracked, and at most `knownSources` sources are
// remembered as known (the one known longest ago is forgotten first, and each for `knownForMs`).
import type { Clock } from '../../lib/clock.js';
import { sourceOf } from '../../lib/client-source.js';

export interface ConnectionLimits {
  /** Open connections in all; file descriptors and memory are cheap at this size. */
  total: number;
  /** Open connections from one source (an IPv4 address, an IPv6 /64), whatever they are doing. */
  perSource: number;
  /** Sources remembered as known clients. */
  knownSources: number;
  /** How long a source stays known after its last authenticated answer. */
  knownForMs: number;
}

/** A request under way on a connection. */
export interface RequestProgress {
  /** Whether all of it (headers and body) has arrived. */
  received(): boolean;
}

interface Entry {
  source: string;
  /** When it began to wait: connected, or its last answer finished. */
  since: number;
  requests: Set<RequestProgress>;
}

export class ConnectionTable<C> {
  /** In the order they began to wait (a connection moves to the end when an answer finishes). */
  private readonly open = new Map<C, Entry>();
  private readonly bySource = new Map<string, number>();
  /** Known sources, by when they were last known; the first is the one known longest ago. */
  private readonly known = new Map<string, number>();

  constructor(
    private readonly limits: ConnectionLimits,
    private readonly clock: Clock,
  ) {}

  /** Connections open. */
  get size(): number {
    return this.open.size;
  }

  /**
   * Takes `connection` from `address` in: the connections to close to make room for it (already
   * forgotten here), or undefined when it must be refused (none of those it may replace can give way).
   */
  admit(connection: C, address: string): C[] | undefined {
    const source = sourceOf(address);
    const closed: C[] = [];
    if ((this.bySource.get(source) ?? 0) >= this.limits.perSource) {
      const own = this.givingWay((entry) => entry.source === source);
      if (own === undefined) return undefined;
      closed.push(own);
    } else if (this.open.size >= this.limits.total) {
      const any = this.givingWay(() => true);
      if (any === undefined) return undefined;
      closed.push(any);
    }
    for (const c of closed) this.forget(c);
    this.open.set(connection, { source, since: this.clock.now(), requests: new Set() });
    this.bySource.set(source, (this.bySource.get(source) ?? 0) + 1);
    return closed;
  }

  /** The connection is closed (harmless when it was never admitted, or already forgotten). */
  forget(connection: C): void {
    const entry = this.open.get(connection);
    if (!entry) return;
    this.open.delete(connection);
    const left = (this.bySource.get(entry.source) ?? 1) - 1;
    if (left > 0) this.bySource.set(entry.source, left);
    else this.bySource.delete(entry.source);
  }

  /** A request's headers arrived on `connection`. */
  requestStarted(connection: C, request: RequestProgress): void {
    this.open.get(connection)?.requests.add(request);
  }

  /** The request's answer is finished: a kept-alive connection begins to wait again, as the newest. */
  requestAnswered(connection: C, request: RequestProgress): void {
    const entry = this.open.get(connection);
    if (!entry?.requests.delete(request) || entry.requests.size > 0) return;
    entry.since = this.clock.now();
    this.open.delete(connection);
    this.open.set(connection, entry);
  }

  /** The client at `address` authenticated: its source is known from now on, for knownForMs. */
  knownClient(address: string): void {
    const source = sourceOf(address);
    this.known.delete(source);
    this.known.set(source, this.clock.now());
    while (this.known.size > this.limits.knownSources) this.known.delete(this.known.keys().next().value!);
  }

  /** Whether the client at `address` is known. */
  isKnown(address: string): boolean {
    return this.isKnownSource(sourceOf(address), this.clock.now());
  }

  private isKnownSource(source: string, now: number): boolean {
    const at = this.known.get(source);
    if (at === undefined) return false;
    if (now - at < this.limits.knownForMs) return true;
    this.known.delete(source);
    return false;
  }

  /**
   * The connection that gives way among those `from` accepts: not being answered; of an unknown source before a
   * known one, then of the source holding the most, then the one waiting longest. Undefined when none can. One pass,
   * allocating only for a better choice: it runs for every newcomer while the server is full.
   */
  private givingWay(from: (entry: Entry) => boolean): C | undefined {
    const now = this.clock.now();
    let chosen: { connection: C; known: boolean; held: number; since: number } | undefined;
    for (const [connection, entry] of this.open) {
      if (!from(entry) || answering(entry)) continue;
      const known = this.isKnownSource(entry.source, now);
      const held = this.bySource.get(entry.source) ?? 0;
      if (chosen && !before(known, held, entry.since, chosen)) continue;
      chosen = { connection, known, held, since: entry.since };
    }
    return chosen?.connection;
  }
}

/** A request has fully arrived and is not answered yet: work in progress, never cut. */
function answering(entry: Entry): boolean {
  for (const request of entry.requests) if (request.received()) return true;
  return false;
}

/** Whether a connection (known, held, since) gives way before `b` (equal ones: the first found, waiting longest). */
function before(
  known: boolean,
  held: number,
  since: number,
  b: { known: boolean; held: number; since: number },
): boolean {
  if (known !== b.known) return !known;
  if (held !== b.held) return held > b.held;
  return since < b.since;
}
