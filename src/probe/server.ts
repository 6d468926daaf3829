// The HTTP endpoint of a long-running command (--listen): probes for orchestrators, a scrape
// target for Prometheus, the status page for people. What it answers and the page it shows are
// its caller's (the daemon's, the gateway's); it runs in the caller's event loop, so every
// request is bounded in size, time and number (http/server/): a slow or huge request is cut off
// and can never hold up a cycle.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import { boundConnections, serverOptions } from '../http/server/bounds.js';
import { listenHttp } from '../http/server/listen.js';
import { systemClock, type Clock } from '../lib/clock.js';
import { ConfigError } from '../lib/errors.js';
import type { Logger } from '../lib/log.js';
import { formatListenAddress, reachableHost, type ListenAddress } from '../lib/listen-address.js';
import { ActionLimit } from './action-limit.js';
import type { PageSource } from './page-handler.js';

/** One answer of the endpoint, other than the page's. */
export interface Answer {
  status: number;
  contentType: string;
  body: string;
}

export interface EndpointOptions {
  listen: ListenAddress;
  /** What /healthz, /metrics, /status (and any other path but the page's) answer. */
  answer: (path: string) => Answer;
  /** The status page (/) and its button (/update-now); without it they are paths like any other. */
  page?: PageSource;
  logger: Logger;
  /** Times the page's action (at most once every 30 s); the system's by default. */
  clock?: Clock;
  /** PEM certificate chain and key (--listen-cert, --listen-key): served over TLS. */
  tls?: { cert: string; key: string };
}

/** Seconds a TLS handshake may take; a connection that never finishes one is closed. */
const HANDSHAKE_MS = 5_000;

export interface Endpoint {
  /** http(s)://ADDR:PORT with the port actually bound. */
  url: string;
  close(): Promise<void>;
}

export async function startEndpoint(options: EndpointOptions): Promise<Endpoint> {
  const { listen, logger, tls } = options;
  const limit = new ActionLimit(options.clock ?? systemClock);
  const listener = { loopback: listen.loopback, tls: Boolean(tls) };
  const handler = (req: IncomingMessage, res: ServerResponse) => serve(req, res, options, { limit, listener });
  const server = tls ? tlsServer(tls, handler) : http.createServer(serverOptions(), handler);
  boundConnections(server);
  const failed = (error: Error) => logger.warn(`the HTTP endpoint failed: ${error.message}`);
  const { port, close } = await listenHttp(server, listen, '--listen', failed);
  const scheme = tls ? 'https' : 'http';
  logListening(options, port, scheme);
  return { url: `${scheme}://${formatListenAddress({ host: listen.host, port })}`, close };
}

/** An HTTPS server; a certificate and key that do not go together are the user's to fix (exit 2). */
function tlsServer(
  tls: { cert: string; key: string },
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): http.Server {
  try {
    const options = { ...serverOptions(), cert: tls.cert, key: tls.key, handshakeTimeout: HANDSHAKE_MS };
    return https.createServer(options, handler) as unknown as http.Server;
  } catch (error) {
    throw new ConfigError(`--listen-cert/--listen-key: ${(error as Error).message}`);
  }
}

/** What the endpoint serves and to whom, logged once it listens: the URLs logged are ones a person can open. */
function logListening(options: EndpointOptions, port: number, scheme: string): void {
  const { listen, logger, page, tls } = options;
  const shown = formatListenAddress(listen);
  const bound = formatListenAddress({ host: listen.host, port });
  if (!listen.loopback) {
    logger.warn(
      `--listen ${shown}: serving /healthz, /metrics and /status beyond this machine; whoever reaches ${bound} sees ` +
        `the host names, addresses and health (never a secret)`,
    );
  }
  if (!listen.loopback && page && !page.token())
    logger.warn(
      `--listen ${shown}: the status page (/) is off: beyond loopback every request needs --listen-token, and none ` +
        `is set`,
    );
  if (!listen.loopback && page?.token() && !tls)
    logger.warn(
      `--listen ${shown}: the status page's token crosses the network in clear text; give --listen-cert and ` +
        `--listen-key to serve it over TLS`,
    );
  const reachable = reachableHost(listen.host);
  const openable = `${scheme}://${formatListenAddress({ host: reachable.host, port })}`;
  const everywhere = reachable.everyAddress ? `; it listens on every address of this machine (${bound})` : '';
  const who = listen.loopback ? 'this machine' : 'with --listen-token, from this machine too';
  if (page && (listen.loopback || page.token()))
    logger.info(`the status page for people: ${openable}/ (${who}${everywhere})`);
  logger.info(`serving /healthz, /metrics and /status at ${openable}/${everywhere ? ` (${everywhere.slice(2)})` : ''}`);
}

function serve(
  req: IncomingMessage,
  res: ServerResponse,
  options: EndpointOptions,
  door: { limit: ActionLimit; listener: { loopback: boolean; tls: boolean } },
): void {
  const reply = (status: number, contentType: string, body: string | Buffer, extra: Record<string, string> = {}) => {
    res.writeHead(status, {
      'content-type': contentType,
      'content-length': Buffer.byteLength(body),
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      ...extra,
    });
    res.end(body);
  };
  const url = new URL(req.url ?? '/', 'http://endpoint');
  const page = options.page;
  if (page && (url.pathname === '/' || url.pathname === '/update-now')) {
    // Loaded with the first visit: probes and scrapes never parse the page's code.
    void import('./page-handler.js')
      .then(({ servePage }) => servePage(req, url, { source: page, logger: options.logger, ...door }, reply))
      .catch((error: Error) => {
        options.logger.error(`the HTTP endpoint could not answer ${url.pathname}: ${error.message}`);
        if (!res.headersSent) reply(500, 'text/plain', 'internal error\n');
      });
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    reply(405, 'text/plain', 'only GET and HEAD\n', { allow: 'GET, HEAD', connection: 'close' });
    return;
  }
  // A request body is never read: it is refused and the connection closed.
  if (req.headers['transfer-encoding'] || Number(req.headers['content-length'] ?? 0) > 0) {
    reply(413, 'text/plain', 'a request body is not accepted\n', { connection: 'close' });
    return;
  }
  try {
    const path = url.pathname;
    const { status, contentType, body } = options.answer(path);
    reply(status, contentType, body);
  } catch (error) {
    options.logger.error(`the HTTP endpoint could not answer ${req.url}: ${(error as Error).message}`);
    reply(500, 'text/plain', 'internal error\n');
  }
}
