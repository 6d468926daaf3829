// undici for the registrar API: a keep-alive pool of at most 3 connections per origin (the
// provider's limit), and a dispatcher that SDK users and tests (MockAgent) can inject.
import { Agent, type Dispatcher } from 'undici';
import { API_CONNECTION_LIMIT, type Transport, type WireRequest, type WireResponse } from './transport.js';

/**
 * Re-exported for the bundler, not for a reader: without it esbuild moves its runtime helpers
 * into a chunk of their own that every cycle then loads (one more file at each start; the code
 * cache test counts them).
 * @public
 */
export { API_CONNECTION_LIMIT };

export function undiciTransport(dispatcher?: Dispatcher): Transport {
  const owned = dispatcher ? undefined : new Agent({ connections: API_CONNECTION_LIMIT });
  const target = dispatcher ?? owned!;
  return {
    async send(request: WireRequest): Promise<WireResponse> {
      try {
        const res = await target.request({
          origin: request.url.origin,
          path: request.url.pathname + request.url.search,
          method: request.method,
          headers: request.headers,
          body: request.body,
          signal: request.signal,
        });
        return { status: res.statusCode, headers: res.headers, body: res.body };
      } catch (error) {
        // undici refuses a 101 nobody asked for as a socket error; report the status itself,
        // as the node transport does, so both say "answered HTTP 101" (transient).
        if ((error as { code?: string }).code === 'UND_ERR_SOCKET' && (error as Error).message === 'bad upgrade') {
          return { status: 101, headers: {}, body: Object.assign((async function* () {})(), { destroy() {} }) };
        }
        throw error;
      }
    },
    async close() {
      await owned?.close();
    },
  };
}
