// The bounds a ddedge HTTP server keeps on every request and connection, and the values the
// doors that face the network (the --listen endpoint, the dyndns2 door) keep. A door runs in
// the process's one event loop, so a slow or huge request is cut off and never holds it up.
import type { ConnectionLimits } from './connection-table.js';

export interface HttpServerLimits {
  /** Request line and headers together. */
  headerBytes: number;
  /** From the first byte to the end of the headers. */
  headersTimeoutMs: number;
  /** From the first byte to the end of the request, body included (checked every second). */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this long. */
  idleMs: number;
  /** A connection on which nothing moves (no request, no answer) this long is closed; 0: never. */
  silenceMs: number;
  /** Requests one connection carries before the server closes it; 0: any number. */
  requestsPerConnection: number;
  /**
   * Open connections, in all and per source (an IPv4 address, an IPv6 /64), and the known
   * clients remembered. Past either bound, a connection that is idle or still sending its
   * request is closed rather than the newcomer refused (connection-table.ts): a probe and a
   * known router always get in.
   */
  connections: ConnectionLimits;
}

/** The doors that face the network: a probe, a scrape, a router's update need a few hundred bytes. */
export const DOOR_LIMITS: HttpServerLimits = {
  headerBytes: 8 * 1024,
  headersTimeoutMs: 5_000,
  requestTimeoutMs: 10_000,
  idleMs: 5_000,
  silenceMs: 10_000,
  requestsPerConnection: 100,
  connections: { total: 256, perSource: 64, knownSources: 1024, knownForMs: 30 * 24 * 3_600_000 },
};
