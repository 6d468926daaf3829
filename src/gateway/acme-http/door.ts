// The ACME protocols on the gateway's HTTP door (one listener with dyndns2, dyndns2/listener.ts):
// - httpreq / acmeproxy: POST /present, POST /cleanup (httpreq.ts), HTTP basic auth;
// - acme-dns: POST /update with an X-Api-User header (without one, /update is dyndns2's),
//   GET /health (200), POST /register (403: accounts come from the keys file);
// both with a key's name and secret from the keys file, and the key's TXT grant at the name.
// The endpoint a client is given may end in a slash or carry a path (`ENDPOINT/present`), so
// the last part of the path decides. Credentials are judged before a body is read; a body is at
// most MAX_BODY_BYTES. Answers are JSON: httpreq echoes what it was sent, acme-dns says
// `{"txt"}` or `{"error"}` with acme-dns's own words. Refusals are logged with their reason, with
// every secret (and the password given) replaced by `***`; no value or body is ever logged.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from '../../http/server/read-body.js';
import type { Logger } from '../../lib/log.js';
import type { GuessLimit } from '../limits/guess-limit.js';
import type { RefusalLog } from '../limits/refusal-log.js';
import { readAcmeDnsUpdate } from './acme-dns.js';
import { AcmeDnsValues } from './acme-dns-values.js';
import { basicCredentials, type Credentials } from '../keys/credentials.js';
import { authenticate, scrubber } from './auth.js';
import { readHttpreq } from './httpreq.js';
import { changeTxt, txtZone, type TxtDeps, type TxtResult, unavailable } from './txt-change.js';

/** A body's limit: a client's JSON is about 150 bytes. */
const MAX_BODY_BYTES = 8 * 1024;

export interface AcmeHttpDeps extends TxtDeps {
  refusals: RefusalLog;
  logger: Logger;
  /** Answers given, by `PROTOCOL STATUS` (for /metrics). */
  counts?: Map<string, number>;
}

/** The request as the door gives it (dyndns2/listener.ts's DoorRequest). */
interface DoorRequest {
  path: string;
  client: string;
  guesses: GuessLimit;
  authenticated: () => void;
}

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Made after the request's body was read: the connection may be kept. */
  bodyRead?: boolean;
}

/** The door's handler for the ACME protocols: false for a request that is not theirs. */
export function acmeHttpProtocols(
  deps: AcmeHttpDeps,
): (req: IncomingMessage, res: ServerResponse, request: DoorRequest) => Promise<void> | undefined | false {
  const values = new AcmeDnsValues(deps.stateDir);
  return (req, res, request) => {
    const last = request.path.replace(/\/+$/, '').split('/').at(-1);
    // A body left unread (an answer made before it, a refusal) is not read on: the connection is
    // closed after the answer.
    const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    const sendAs = (protocol: string) => (answer: Answer) => {
      const key = `${protocol} ${answer.status}`;
      deps.counts?.set(key, (deps.counts.get(key) ?? 0) + 1);
      const close: Record<string, string> = hasBody && !answer.bodyRead ? { connection: 'close' } : {};
      return reply(res, { ...answer, headers: { ...answer.headers, ...close } });
    };
    if (last === 'present' || last === 'cleanup') {
      const send = sendAs('httpreq');
      if (req.method !== 'POST') return send(notPost());
      return serve(req, basicCredentials(req.headers.authorization), 'httpreq', request, deps, send, (key, body) =>
        httpreq(last, key, body, request.client, deps),
      );
    }
    const send = sendAs('acme-dns');
    if (last === 'health' && request.path.length <= '/health/'.length) return send({ status: 200, body: undefined });
    if (last === 'register' && request.path.length <= '/register/'.length)
      return send({
        status: 403,
        body: { error: 'forbidden', detail: 'accounts come from the keys file: ddedge gateway acme-dns-account' },
      });
    const user = req.headers['x-api-user'];
    if (last !== 'update' || typeof user !== 'string') return false;
    if (req.method !== 'POST') return send(notPost());
    const key = req.headers['x-api-key'];
    const credentials = { user, password: typeof key === 'string' ? key : '' };
    return serve(req, credentials, 'acme-dns', request, deps, send, (k, body) =>
      acmeDns(k, body, request.client, deps, values),
    );
  };
}

const notPost = (): Answer => ({ status: 405, body: { error: 'method_not_allowed' }, headers: { allow: 'POST' } });

/**
 * A request a browser sent for a web page: it carries Origin (every cross-site POST does) or
 * Sec-Fetch-Site other than `none` (a URL typed by hand). No ACME client sends either; a page on
 * another site could otherwise have a browser that holds basic credentials for the door write
 * with them, as a form posting text/plain needs no preflight.
 */
const fromWebPage = (req: IncomingMessage): boolean => {
  const site = req.headers['sec-fetch-site'];
  return req.headers.origin !== undefined || (site !== undefined && site !== 'none');
};

const CREDENTIAL_HEADERS = new Set(['authorization', 'x-api-user', 'x-api-key']);

/**
 * A credentials header given more than once, by its name. Node keeps the first Authorization and
 * joins repeated X-Api-* ones; a proxy before the door may judge another: such a request is refused
 * whole, and counted as no wrong try. (Node bounds the headers a request may have.)
 */
function repeatedCredentials(rawHeaders: string[]): string | undefined {
  const seen = new Set<string>();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    if (!CREDENTIAL_HEADERS.has(name)) continue;
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return undefined;
}

/** Judges the credentials, reads the body and answers with what `answer` makes of it. */
function serve(
  req: IncomingMessage,
  credentials: Credentials | undefined,
  protocol: 'httpreq' | 'acme-dns',
  request: DoorRequest,
  deps: AcmeHttpDeps,
  send: (answer: Answer) => undefined,
  answer: (key: { name: string; scrub: (t: string) => string }, body: string) => Answer | Promise<Answer>,
): Promise<void> | undefined {
  if (fromWebPage(req)) {
    deps.refusals.refused(
      '403',
      { client: request.client, kind: 'request', keyless: 'from a web page' },
      `${protocol}: a request a browser sent for a web page (Origin or Sec-Fetch-Site; credentials not looked at)`,
    );
    return send({ status: 403, body: { error: 'requests from web pages are not answered' } });
  }
  const twice = repeatedCredentials(req.rawHeaders);
  if (twice) {
    deps.refusals.refused(
      '400',
      { client: request.client, kind: 'request', keyless: 'with credentials given twice' },
      `${protocol}: two ${twice} headers (neither looked at)`,
    );
    return send({ status: 400, body: { error: `give one ${twice} header` }, headers: { connection: 'close' } });
  }
  const keys = deps.keys();
  const auth = authenticate(credentials, { ...request, protocol, keys, refusals: deps.refusals });
  if (!('key' in auth)) {
    const headers: Record<string, string> = auth.close ? { connection: 'close' } : {};
    if (auth.status === 401 && protocol === 'httpreq')
      headers['www-authenticate'] = 'Basic realm="ddedge", charset="UTF-8"';
    if (auth.status === 429) headers['retry-after'] = '60';
    const error = protocol === 'acme-dns' ? 'forbidden' : auth.status === 429 ? 'too_many_tries' : 'unauthorized';
    return send({ status: auth.status, body: { error }, headers });
  }
  request.authenticated();
  const key = { name: auth.key, scrub: scrubber(credentials, keys) };
  return readBody(req, MAX_BODY_BYTES).then(async (body) => {
    if (body === undefined)
      return void send({
        status: 413,
        body: { error: `a body of more than ${MAX_BODY_BYTES} bytes is not accepted` },
        headers: { connection: 'close' },
      });
    send({ ...(await answer(key, body)), bodyRead: true });
  });
}

/** /present or /cleanup: the value added beside the others at the name, or that value removed. */
async function httpreq(
  action: 'present' | 'cleanup',
  key: { name: string; scrub: (t: string) => string },
  body: string,
  client: string,
  deps: AcmeHttpDeps,
): Promise<Answer> {
  const change = readHttpreq(body);
  const refuse = (status: number, why: string): Answer => {
    deps.refusals.refused(String(status), { key: key.name, verified: true, client }, `httpreq: ${key.scrub(why)}`);
    return { status, body: { error: why } };
  };
  if (typeof change === 'string') return refuse(400, change);
  const found = txtZone(change.name, key.name, deps);
  if ('why' in found) return refuse(found.status, found.why);
  const wanted = action === 'present' ? { add: [change.value], remove: [] } : { add: [], remove: [change.value] };
  const done = await changeTxt(found.zone, change.name, wanted, key.name, client, deps);
  if (!done.ok) return refuse(done.status, done.why);
  deps.logger.debug(`gateway: httpreq: ${action} ${change.name} TXT by key ${key.name}`);
  return { status: 200, body: change.echo };
}

/** /update: the value becomes the newest at the name; values past the two newest are removed. */
async function acmeDns(
  key: { name: string; scrub: (t: string) => string },
  body: string,
  client: string,
  deps: AcmeHttpDeps,
  values: AcmeDnsValues,
): Promise<Answer> {
  const update = readAcmeDnsUpdate(body);
  const refuse = (status: number, error: string, why: string): Answer => {
    deps.refusals.refused(String(status), { key: key.name, verified: true, client }, `acme-dns: ${key.scrub(why)}`);
    return { status, body: { error } };
  };
  if ('error' in update)
    return refuse(400, update.error, update.why ?? `the request is not an update (${update.error})`);
  const found = txtZone(update.name, key.name, deps);
  if ('why' in found) return refuse(found.status, 'forbidden', found.why);
  // Refused before the memory of values is read or changed: a client retrying meanwhile costs no write to disk.
  const unable = unavailable(deps);
  if (unable) return refuse(unable.status, 'update_failed', unable.why);
  const removed = values.write(update.name, update.value);
  const done: TxtResult = await changeTxt(
    found.zone,
    update.name,
    { add: [update.value], remove: removed },
    key.name,
    client,
    deps,
  );
  if (!done.ok) {
    // A failure that passes (429 the budget, 502 the provider, 503 stopping) gives back the values
    // to remove, and a 502 may have written this one; a refusal (403: grants, quotas, records
    // others keep) would be refused again, so what it would have removed is let go, as before.
    if (done.status !== 403) values.failed(update.name, update.value, removed, done.status === 502);
    return refuse(done.status, done.status === 403 ? 'forbidden' : 'update_failed', done.why);
  }
  deps.logger.debug(`gateway: acme-dns: update ${update.name} TXT by key ${key.name}`);
  return { status: 200, body: { txt: update.value } };
}

/**
 * Writes the answer. A source becomes known to the connection guard by authenticating (serve),
 * never by a 200 alone: `/health` answers anyone.
 */
function reply(res: ServerResponse, answer: Answer): undefined {
  const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...answer.headers,
  });
  res.end(text);
  return undefined;
}
