// A keep-alive pool over Node's own http and https modules, at most 3 connections per origin
// (the provider's limit), for runs that make many calls: a large zone's pages, an apply's
// writes. For 100 pages of 100 kB it costs about 120 ms less CPU than undici's pool (its
// module and its per-request work; bench/zone-plan-cpu.mjs), with the same trust (Node's roots
// and NODE_EXTRA_CA_CERTS) and the same errors (node:net and node:tls codes, as the wire
// transport's). Loaded only when a run makes that many calls, and by the gateway for all of its
// calls (it never loads undici, whose chunk and WebAssembly parser cost it tens of MiB).
import type { Agent as HttpAgent, IncomingMessage } from 'node:http';
import { API_CONNECTION_LIMIT, type Transport, type WireRequest, type WireResponse } from './transport.js';

export interface NodePoolOptions {
  /**
   * A connection idle this long is closed (a long-running process calls in bursts, minutes apart:
   * an idle TLS connection holds its buffers, and the server may close it under the next call).
   * Shorter when the server's Keep-Alive header asks for less. Default: kept until the server closes it.
   */
  idleMs?: number;
}

export function nodePoolTransport(options: NodePoolOptions = {}): Transport {
  const http = process.getBuiltinModule('node:http') as typeof import('node:http');
  const https = process.getBuiltinModule('node:https') as typeof import('node:https');
  const pool = {
    keepAlive: true,
    maxSockets: API_CONNECTION_LIMIT,
    ...(options.idleMs ? { timeout: options.idleMs } : {}),
  };
  const agents: Record<string, HttpAgent> = {
    'http:': new http.Agent(pool),
    'https:': new https.Agent(pool),
  };
  return {
    send(request: WireRequest): Promise<WireResponse> {
      const secure = request.url.protocol === 'https:';
      return new Promise((resolve, reject) => {
        const options = {
          method: request.method,
          headers: request.headers,
          agent: agents[request.url.protocol],
          signal: request.signal,
          ...(request.family ? { family: request.family } : {}),
        };
        const answered = (res: IncomingMessage) =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res });
        const req = secure
          ? https.request(request.url, options, answered)
          : http.request(request.url, options, answered);
        req.on('error', reject);
        // A 101 nobody asked for: its status, as the other transports give it (transient).
        req.on('upgrade', (res: IncomingMessage, socket: { destroy(): void }) => {
          socket.destroy();
          resolve({
            status: 101,
            headers: res.headers,
            body: Object.assign((async function* () {})(), { destroy() {} }),
          });
        });
        req.end(request.body);
      });
    },
    async close() {
      for (const agent of Object.values(agents)) agent.destroy();
    },
  };
}
