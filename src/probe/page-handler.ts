// The status page's two doors on the daemon's endpoint: GET / (the page) and POST /update-now
// (the button: a cycle now, as SIGUSR1 asks). Both check access (page-access.ts); the page
// goes out under a strict Content-Security-Policy whose nonce is new for every answer, so the
// one inline style and script run and nothing else can.
import type { IncomingMessage } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { Logger } from '../lib/log.js';
import type { ActionLimit } from './action-limit.js';
import { bearer, checkAccess, formValue, newNonce, sameOrigin, sameSecret } from './page-access.js';
import { utcText, type PageContext } from './page-frame.js';

/** The button's form is two short fields. */
const FORM_BYTES = 2048;

/** A status page: what it shows, and who may see it. */
export interface PageSource {
  /** The --listen-token in force (re-read: the daemon reloads its configuration). */
  token(): string | undefined;
  render(url: URL, context: PageContext): string | Promise<string>;
  /** The "update now" button's action; without it the page has no button's door. */
  updateNow?: () => void;
  /** What the action is called in answers ("update now", "read the zones again now"). */
  actionName?: string;
}

/** What serves a page besides the request: its source, the log, the one turn its action shares, its listener. */
interface PageDoor {
  source: PageSource;
  logger: Logger;
  limit: ActionLimit;
  /** The endpoint listens on loopback only (who needs the token follows it), and over TLS (the page's origin). */
  listener: { loopback: boolean; tls: boolean };
}

type Reply = (status: number, contentType: string, body: string | Buffer, extra?: Record<string, string>) => void;

export async function servePage(req: IncomingMessage, url: URL, door: PageDoor, reply: Reply): Promise<void> {
  const { source, listener } = door;
  if (url.pathname === '/update-now') return updateNow(req, url, door, reply);
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return reply(405, 'text/plain', 'only GET and HEAD\n', { allow: 'GET, HEAD', connection: 'close' });
  if (req.headers['transfer-encoding'] || Number(req.headers['content-length'] ?? 0) > 0)
    return reply(413, 'text/plain', 'a request body is not accepted\n', { connection: 'close' });
  const given = bearer(req) ?? url.searchParams.get('token') ?? undefined;
  const access = checkAccess(req, given, source.token(), listener.loopback);
  if (!access.allowed)
    return reply(
      access.status,
      'text/plain; charset=utf-8',
      access.message,
      access.status === 401 ? { 'www-authenticate': 'Bearer realm="ddedge"' } : {},
    );
  const nonce = newNonce();
  // The token goes into links and the form only when the visitor typed it into the URL.
  const token = url.searchParams.get('token') && access.token ? access.token : undefined;
  const html = await source.render(url, { nonce, csrf: formValue(), token, asked: url.searchParams.has('asked') });
  // Compressed when the browser takes it: a page of 50 hosts and its history is ~30 KB of
  // repetitive markup, a fifth of that gzipped, which matters to a phone on a slow link.
  if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? '')) && Buffer.byteLength(html) > 1024) {
    return reply(200, 'text/html; charset=utf-8', gzipSync(html), {
      ...pageHeaders(nonce),
      'content-encoding': 'gzip',
      vary: 'Accept-Encoding',
    });
  }
  reply(200, 'text/html; charset=utf-8', html, { ...pageHeaders(nonce), vary: 'Accept-Encoding' });
}

async function updateNow(req: IncomingMessage, url: URL, door: PageDoor, reply: Reply): Promise<void> {
  const { source, logger, listener } = door;
  if (req.method !== 'POST') return reply(405, 'text/plain', 'only POST\n', { allow: 'POST', connection: 'close' });
  const form = await readForm(req);
  if (form === undefined)
    return reply(413, 'text/plain', `a form of at most ${FORM_BYTES} bytes (application/x-www-form-urlencoded)\n`, {
      connection: 'close',
    });
  const given = bearer(req) ?? form.get('token') ?? url.searchParams.get('token') ?? undefined;
  const access = checkAccess(req, given, source.token(), listener.loopback);
  if (!access.allowed) return reply(access.status, 'text/plain; charset=utf-8', access.message);
  // Cross-site forms are refused twice over: by the browser's Origin, and by the form value only this page holds.
  if (!sameOrigin(req, listener.tls) || !sameSecret(form.get('csrf'), formValue()))
    return reply(
      403,
      'text/plain; charset=utf-8',
      'refused: "update now" works from the status page of this server only\n',
    );
  if (!source.updateNow) return reply(404, 'text/plain', 'not found\n');
  const turn = door.limit.take();
  if (!turn.ran) return reply(429, 'text/plain; charset=utf-8', ...notRun(source, turn, door.limit));
  logger.info(`update now: asked from the status page by ${req.socket.remoteAddress}`);
  source.updateNow();
  const tokenGiven = url.searchParams.get('token') || form.get('token');
  const back = `/?asked=1${tokenGiven ? `&token=${encodeURIComponent(access.token ?? '')}` : ''}`;
  reply(303, 'text/plain', 'a cycle was asked for\n', { location: back });
}

/** The answer to an action asked for within its 30 s: when it last ran, and when it can run again. */
function notRun(
  source: PageSource,
  turn: { lastAt: number; nextAt: number },
  limit: ActionLimit,
): [string, Record<string, string>] {
  const seconds = Math.max(1, Math.ceil((turn.nextAt - limit.now()) / 1000));
  const utc = (ms: number) => `${utcText(new Date(ms).toISOString())} UTC`;
  const body =
    `not run: "${source.actionName ?? 'update now'}" last ran at ${utc(turn.lastAt)} and runs at most once every ` +
    `${Math.round(limit.everyMs / 1000)} s; it can run again at ${utc(turn.nextAt)} (in ${seconds} s)\n`;
  return [body, { 'retry-after': String(seconds) }];
}

/** The form's fields, or undefined when it is too large or not a form. */
function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded' || Number(req.headers['content-length'] ?? 0) > FORM_BYTES) {
    req.resume();
    return Promise.resolve(undefined);
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > FORM_BYTES) {
        req.destroy();
        resolve(undefined);
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', () => resolve(undefined));
  });
}

function pageHeaders(nonce: string): Record<string, string> {
  return {
    'content-security-policy':
      `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; ` +
      `img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
    'x-frame-options': 'DENY',
    // Not no-referrer: under it browsers send "Origin: null" with the button's POST, and the same-origin check could
    // not tell.
    'referrer-policy': 'same-origin',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  };
}
