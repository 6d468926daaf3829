// Who may hold a TCP connection to a DNS server, and for how long (RFC 7766 section 6; an
// attack of 70 connections dripping a byte every 3 s starved every real query). A connection must
// bring a whole message within a short deadline of its first byte, and another within the idle
// time after each answer. When the server, or one client address, holds as many connections as
// it may, a newcomer is still let in: the connection that has been longest without progress
// (no message completed, nothing being answered) is closed for it. A real query, which completes
// at once, therefore always gets through; only when every connection is busy answering is a
// newcomer turned away.
import type { Socket } from 'node:net';

export interface TcpLimits {
  /** Connections held at once, over all clients. */
  maxConnections: number;
  /** Connections held at once by one client address. */
  maxPerAddress: number;
  /** From a message's first byte (or the connection's start) until the whole message is in. */
  messageMs: number;
  /** Between an answer and the next message's first byte. */
  idleMs: number;
}

export const DEFAULT_TCP_LIMITS: TcpLimits = {
  maxConnections: 256,
  maxPerAddress: 32,
  messageMs: 3_000,
  idleMs: 10_000,
};

export interface Tracked {
  socket: Socket;
  address: string;
  /** When the connection last made progress: its start, or its last complete message. */
  progressAt: number;
  /**
   * Messages whose answers are being made (an update waits for the provider). Not those whose
   * answers wait for the peer to read them: a peer that pipelines and never reads stays evictable.
   */
  busy: number;
}

export class TcpConnections {
  private readonly open = new Set<Tracked>();

  constructor(private readonly limits: TcpLimits) {}

  get size(): number {
    return this.open.size;
  }

  /** Makes room for a connection from `address`; false when none can be made (every candidate is busy). */
  admit(address: string): boolean {
    const mine = [...this.open].filter((c) => c.address === address);
    if (mine.length >= this.limits.maxPerAddress && !this.evictFrom(mine)) return false;
    if (this.open.size >= this.limits.maxConnections && !this.evictFrom([...this.open])) return false;
    return true;
  }

  add(socket: Socket, address: string, now: number): Tracked {
    const tracked: Tracked = { socket, address, progressAt: now, busy: 0 };
    this.open.add(tracked);
    socket.once('close', () => this.open.delete(tracked));
    return tracked;
  }

  closeAll(): void {
    for (const c of this.open) c.socket.destroy();
    this.open.clear();
  }

  /** Closes the connection without progress for longest among `candidates` that are not busy. */
  private evictFrom(candidates: Tracked[]): boolean {
    let oldest: Tracked | undefined;
    for (const c of candidates) if (!c.busy && (!oldest || c.progressAt < oldest.progressAt)) oldest = c;
    if (!oldest) return false;
    this.open.delete(oldest);
    oldest.socket.destroy();
    return true;
  }
}
