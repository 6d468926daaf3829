// The daemon's HTTP endpoint (--listen): probes for orchestrators, a scrape target for
// Prometheus. It runs in the daemon's event loop, so every request is bounded in size, time
// and number: a slow or huge request is cut off and can never hold up a cycle.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '../config/config.js';
import type { Logger } from '../lib/log.js';
import { guardConnections } from './connection-guard.js';
import { answer, type Answer } from './routes.js';
import type { PageSource } from './page-handler.js';
import { formatListenAddress, listenError, reachableHost, type ListenAddress } from '../lib/listen-address.js';

export const ENDPOINT_LIMITS = {
  /** Request line and headers together; a probe or a scrape needs a few hundred bytes. */
  headerBytes: 8 * 1024,
  /** From the first byte to the end of the headers. */
  headersTimeoutMs: 5_000,
  requestTimeoutMs: 10_000,
  /** An idle keep-alive connection is closed after this long. */
  idleMs: 5_000,
  /**
   * Open connections, in all and per remote address. Past either, the oldest idle connection
   * is closed rather than the newcomer refused (connection-guard.ts): a probe always gets in.
   */
  connections: { total: 256, perAddress: 64 },
};

/** Node's own bounds on a request's headers and time, as ENDPOINT_LIMITS gives them (http and https servers alike). */
export function serverOptions(limits: typeof ENDPOINT_LIMITS = ENDPOINT_LIMITS): http.ServerOptions {
  return {
    maxHeaderSize: limits.headerBytes,
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.idleMs,
    // How often the timeouts above are enforced (Node's default is 30 s).
    connectionsCheckingInterval: 1_000,
  };
}

/** The connection bounds every ddedge HTTP server keeps: the oldest idle closed first, silent ones cut, bad requests answered and closed. */
export function boundConnections(server: http.Server, limits: typeof ENDPOINT_LIMITS = ENDPOINT_LIMITS): void {
  // Not server.maxConnections: it refuses newcomers, so idle sockets could lock probes out.
  guardConnections(server, limits.connections);
  server.maxRequestsPerSocket = 100;
  // A connection that sends nothing at all is closed too.
  server.setTimeout(limits.requestTimeoutMs, (socket) => socket.destroy());
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    // Oversized headers, slow requests, malformed ones: answer if possible, then close.
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : '400 Bad Request';
    if (socket.writable) socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    socket.destroy();
  });
}

export interface EndpointOptions {
  listen: ListenAddress;
  /** The configuration in force: the daemon re-reads it before each cycle. */
  config?: () => Config;
  /** What to answer instead of the daemon's routes (the gateway's, src/gateway/operations.ts). */
  answer?: (path: string) => Answer;
  /** The daemon's "update now" (the status page's button): asks for a cycle. */
  updateNow?: () => void;
  /** The status page of a caller with its own view (the gateway's); the daemon's is the agent's page. */
  page?: PageSource;
  logger: Logger;
}

export interface Endpoint {
  /** http://ADDR:PORT with the port actually bound. */
  url: string;
  close(): Promise<void>;
}

export async function startEndpoint(options: EndpointOptions): Promise<Endpoint> {
  const { listen, logger } = options;
  const limits = ENDPOINT_LIMITS;
  const server = http.createServer(serverOptions(limits), (req, res) => serve(req, res, options));
  boundConnections(server, limits);

  const shown = formatListenAddress(listen);
  const { port, close } = await listenHttp(server, listen, '--listen', (error) => logger.warn(`the HTTP endpoint failed: ${error.message}`));
  const bound = formatListenAddress({ host: listen.host, port });
  const url = `http://${bound}`;
  if (!listen.loopback) {
    logger.warn(`--listen ${shown}: serving /healthz, /metrics and /status beyond this machine; whoever reaches ${bound} sees the host names, addresses and health (never a secret)`);
  }
  if (!listen.loopback && (options.page ? !options.page.token() : !options.answer && !options.config?.().listenToken)) logger.warn(`--listen ${shown}: the status page (/) answers this machine only until --listen-token is set`);
  // The URL logged is one a person can open; the note says it is not the only one.
  const reachable = reachableHost(listen.host);
  const openable = `http://${formatListenAddress({ host: reachable.host, port })}`;
  const everywhere = reachable.everyAddress ? `; it listens on every address of this machine (${bound})` : '';
  if (options.page || !options.answer) logger.info(`the status page for people: ${openable}/ (this machine, or with --listen-token${everywhere})`);
  logger.info(`serving /healthz, /metrics and /status at ${openable}/${everywhere ? ` (${everywhere.slice(2)})` : ''}`);
  return {
    url,
    close,
  };
}

/**
 * Binds an HTTP(S) server to `listen` (a failure names `flag`, the setting to change), and hands
 * its later errors to `onError`; returns the port bound and a close that ends every connection.
 */
export async function listenHttp(server: http.Server, listen: ListenAddress, flag: string, onError: (error: Error) => void): Promise<{ port: number; close: () => Promise<void> }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(listenError(flag, formatListenAddress(listen), error)));
    server.listen({ host: listen.host, port: listen.port, exclusive: true }, () => resolve());
  });
  server.on('error', onError);
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function serve(req: IncomingMessage, res: ServerResponse, options: EndpointOptions): void {
  const reply = (status: number, contentType: string, body: string | Buffer, extra: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...extra });
    res.end(body);
  };
  const url = new URL(req.url ?? '/', 'http://endpoint');
  if ((options.page || (!options.answer && options.config)) && (url.pathname === '/' || url.pathname === '/update-now')) {
    // Loaded with the first visit: probes and scrapes never parse the page's code.
    void import('./page-handler.js')
      .then(({ servePage, agentPage }) => servePage(req, url, options.page ?? agentPage(options.config!, options.updateNow), options.logger, reply))
      .catch((error: Error) => {
        options.logger.error(`the HTTP endpoint could not answer ${url.pathname}: ${error.message}`);
        if (!res.headersSent) reply(500, 'text/plain', 'internal error\n');
      });
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') return reply(405, 'text/plain', 'only GET and HEAD\n', { allow: 'GET, HEAD', connection: 'close' });
  // A request body is never read: it is refused and the connection closed.
  if (req.headers['transfer-encoding'] || Number(req.headers['content-length'] ?? 0) > 0) {
    return reply(413, 'text/plain', 'a request body is not accepted\n', { connection: 'close' });
  }
  try {
    const path = url.pathname;
    const { status, contentType, body } = options.answer ? options.answer(path) : answer(path, options.config!());
    reply(status, contentType, body);
  } catch (error) {
    options.logger.error(`the HTTP endpoint could not answer ${req.url}: ${(error as Error).message}`);
    reply(500, 'text/plain', 'internal error\n');
  }
}
