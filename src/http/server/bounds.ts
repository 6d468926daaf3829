// Every ddedge HTTP server (http and https alike) is bounded in size, time and number: Node's
// own bounds on a request's headers and time (the whole request, body included, within
// requestTimeoutMs), and the connection bounds that keep a probe and a known router able to
// get in however many idle or slow connections are open.
import type http from 'node:http';
import type { Clock } from '../../lib/clock.js';
import { guardConnections, type ConnectionGuard } from './connection-guard.js';
import { DOOR_LIMITS, type HttpServerLimits } from './server-limits.js';

/** Node's own bounds on a request's headers and time, as `limits` gives them. */
export function serverOptions(limits: HttpServerLimits = DOOR_LIMITS): http.ServerOptions {
  return {
    maxHeaderSize: limits.headerBytes,
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.idleMs,
    // How often the timeouts above are enforced (Node's default is 30 s).
    connectionsCheckingInterval: 1_000,
  };
}

/**
 * The connection bounds: a connection that is idle or still sending its request gives way to a newcomer (connection-
 * guard.ts), silent ones are cut, bad requests answered and closed. The guard returned is told of known clients.
 */
export function boundConnections(
  server: http.Server,
  limits: HttpServerLimits = DOOR_LIMITS,
  clock?: Clock,
): ConnectionGuard {
  // Not server.maxConnections: it refuses newcomers, so idle sockets could lock probes out.
  const guard = guardConnections(server, limits.connections, clock);
  server.maxRequestsPerSocket = limits.requestsPerConnection;
  // A connection that sends nothing at all is closed too.
  if (limits.silenceMs > 0) server.setTimeout(limits.silenceMs, (socket) => socket.destroy());
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    // Oversized headers, slow requests, malformed ones: answer if possible, then close.
    const status = clientErrorStatus(error.code);
    if (socket.writable) socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    socket.destroy();
  });
  return guard;
}

function clientErrorStatus(code: string | undefined): string {
  if (code === 'HPE_HEADER_OVERFLOW') return '431 Request Header Fields Too Large';
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return '408 Request Timeout';
  return '400 Bad Request';
}
