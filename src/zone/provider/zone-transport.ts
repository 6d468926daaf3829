// How the zone commands reach the API. A plan of a small zone makes one call: loading undici
// for it (its chunk and the dozen Node modules it needs) cost more than the rest of the run.
// The first calls go over the agent's own wire transport (a connection each, node:tls only);
// from the fifth on, a run that has shown it makes many (a large zone's pages, an apply's
// writes) goes through a keep-alive pool of at most 3 connections: Node's own http(s) agents,
// which cost less CPU than undici's pool did (http/node-pool-transport.ts).
import type { Transport } from '../../http/transport.js';
import { wireTransport } from '../../http/wire-transport.js';

/** Calls made on connections of their own before the pool is loaded. */
const CALLS_BEFORE_POOL = 4;

export function zoneTransport(): Transport {
  let calls = 0;
  let pool: Promise<Transport> | undefined;
  const pooled = () => (pool ??= import('../../http/node-pool-transport.js').then((m) => m.nodePoolTransport()));
  return {
    async send(request) {
      return (++calls <= CALLS_BEFORE_POOL ? wireTransport : await pooled()).send(request);
    },
    async close() {
      if (pool) await (await pool).close?.();
    },
  };
}
