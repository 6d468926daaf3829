// The gateway's HTTP door (--http-listen, over TLS with --http-cert/--http-key; by their older
// names --dyndns2-*): one listener for every HTTP protocol. The ACME ones (httpreq, acme-dns) are
// given each request first (OtherProtocols, acme-http/, wired by the gateway's root); what is not
// theirs is dyndns2's, whose side this is:
// bounded as the gateway's --listen endpoint is (src/http/server/: header size, the whole
// request within its deadline, connections per source with those idle or still sending their
// request giving way to newcomers), plus a small cap on a POST body. `GET` or `POST` on
// /nic/update or /update; anything else is answered at once without looking at credentials.
// A body is read only where it may matter: a GET's is never read (the answer closes the
// connection), and a POST's credentials given outside its body (basic auth, the query) are
// checked before its body is read. A client answered 200 has authenticated: the connection
// guard knows its source from then on, and its connections give way last. The answer is
// `text/plain`, as every client expects.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import { boundConnections, serverOptions } from '../../http/server/bounds.js';
import type { ConnectionGuard } from '../../http/server/connection-guard.js';
import { listenHttp } from '../../http/server/listen.js';
import { readBody } from '../../http/server/read-body.js';
import { formatListenAddress, type ListenAddress } from '../../lib/listen-address.js';
import type { Logger } from '../../lib/log.js';
import type { GuessLimit } from '../limits/guess-limit.js';
import { answerRequest, credentialsRefusal, type DoorAnswer, type DoorDeps } from './door.js';
import { readParameters, readRequest } from './request.js';

/** A form body's limit: a router's update is a few hundred bytes. */
const MAX_BODY_BYTES = 8 * 1024;
/** Seconds a TLS handshake may take; a connection that never finishes one is closed. */
const HANDSHAKE_MS = 5_000;
const PATHS = new Set(['/nic/update', '/update', '/nic/update/', '/update/']);
const TEXT = 'text/plain; charset=utf-8';
const ANSWERED = 'dyndns2 at /nic/update and /update, httpreq at /present and /cleanup, acme-dns at /update';

/** A request as the door's other protocols (httpreq, acme-dns: acme-http/) are given it. */
export interface DoorRequest {
  /** The path, without the query. */
  path: string;
  client: string;
  /** The door's one memory of wrong passwords: a source guessing through one protocol is refused by all. */
  guesses: GuessLimit;
  /** The client authenticated: the connection guard lets its connections give way last. */
  authenticated: () => void;
}

/** Answers a request that is another protocol's (then a promise, or undefined once answered); false when it is not. */
export type OtherProtocols = (
  req: IncomingMessage,
  res: ServerResponse,
  request: DoorRequest,
) => Promise<void> | undefined | false;

export interface Dyndns2Listener {
  /** http(s)://ADDR:PORT with the port bound. */
  url: string;
  close(): Promise<void>;
}

export async function startDyndns2Listener(
  listen: ListenAddress,
  tls: { cert: string; key: string } | undefined,
  deps: DoorDeps & { logger: Logger; otherProtocols?: OtherProtocols },
  flag = '--http-listen',
): Promise<Dyndns2Listener> {
  const failed = (res: ServerResponse) => (error: unknown) => {
    deps.logger.error(`gateway: dyndns2: ${(error as Error).stack ?? String(error)}`);
    if (!res.headersSent) reply(res, 500, '911\n');
  };
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    try {
      const served = serve(req, res, deps, guard);
      if (served) served.catch(failed(res));
    } catch (error) {
      failed(res)(error);
    }
  };
  const options = serverOptions();
  const server = tls
    ? https.createServer({ ...options, cert: tls.cert, key: tls.key, handshakeTimeout: HANDSHAKE_MS }, handler)
    : http.createServer(options, handler);
  const guard = boundConnections(server as http.Server);
  const { port, close } = await listenHttp(server as http.Server, listen, flag, (error) =>
    deps.logger.warn(`gateway: the HTTP door's listener failed: ${error.message}`),
  );
  return { url: `${tls ? 'https' : 'http'}://${formatListenAddress({ host: listen.host, port })}`, close };
}

/**
 * Answers one request; a promise only when it must wait (a POST body, an update queued). A router's `nochg` is answered
 * in the request's own turn of the event loop, so the answer goes out in one write, as a minimal server's does.
 */
function serve(
  req: IncomingMessage,
  res: ServerResponse,
  deps: DoorDeps & { otherProtocols?: OtherProtocols },
  guard: ConnectionGuard,
): Promise<void> | undefined {
  const target = req.url ?? '/';
  const question = target.indexOf('?');
  const path = question < 0 ? target : target.slice(0, question);
  const client = req.socket.remoteAddress ?? '';
  if (deps.otherProtocols) {
    const authenticated = () => guard.knownClient(client);
    const other = deps.otherProtocols(req, res, { path, client, guesses: deps.guesses, authenticated });
    if (other !== false) return other;
  }
  if (!PATHS.has(path)) return reply(res, 404, `not found; this door answers ${ANSWERED}\n`);
  if (req.method !== 'GET' && req.method !== 'POST')
    return reply(res, 405, 'only GET and POST\n', { allow: 'GET, POST', connection: 'close' });
  const query = question < 0 ? '' : target.slice(question + 1);
  const sent = (answer: DoorAnswer, bodyUnread: boolean) => {
    // Authenticated: the guard lets this source's connections give way last.
    if (answer.status === 200) guard.knownClient(client);
    return send(res, bodyUnread ? { ...answer, close: true } : answer);
  };
  const answer = (text: string, bodyUnread: boolean): Promise<void> | undefined => {
    const answered = answerRequest(readRequest(readParameters(text), req.headers.authorization), client, deps);
    if (!(answered instanceof Promise)) return sent(answered, bodyUnread);
    return answered.then((a) => sent(a, bodyUnread));
  };
  const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (req.method !== 'POST') return answer(query, hasBody);
  if (credentialsOutsideBody(query, req.headers.authorization)) {
    const refused = credentialsRefusal(readRequest(readParameters(query), req.headers.authorization), client, deps);
    if (refused) return sent(refused, hasBody);
  }
  return readBody(req, MAX_BODY_BYTES).then((body) => {
    if (body === undefined)
      return reply(res, 413, `a request body of more than ${MAX_BODY_BYTES} bytes is not accepted\n`, {
        connection: 'close',
      });
    return answer([query, body].filter(Boolean).join('&'), false);
  });
}

function send(res: ServerResponse, { status, body, close }: DoorAnswer): undefined {
  const extra: Record<string, string> = {};
  // A browser or router that met 401 retries with basic credentials.
  if (status === 401) extra['www-authenticate'] = 'Basic realm="ddedge dyndns2", charset="UTF-8"';
  if (status === 429) extra['retry-after'] = '60';
  if (close) extra.connection = 'close';
  return reply(res, status, body, extra);
}

/** Credentials given whole outside a POST's body: basic auth, or a password in the query. */
function credentialsOutsideBody(query: string, authorization: string | undefined): boolean {
  if (authorization !== undefined) return true;
  const parameters = readParameters(query);
  return parameters.has('password') || parameters.has('pass');
}

function reply(res: ServerResponse, status: number, body: string, extra: Record<string, string> = {}): undefined {
  res.writeHead(status, {
    'content-type': TEXT,
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...extra,
  });
  res.end(body);
  return undefined;
}
