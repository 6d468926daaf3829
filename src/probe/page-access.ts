// Who may see the status page and press its button. Loopback needs nothing, but only when the
// request also names a loopback host: a page fetched through a name that a hostile site
// re-pointed at 127.0.0.1 (DNS rebinding) carries that site's name, and is refused. Anyone
// else needs --listen-token. The button's POST must also come from the page itself: the
// browser's Origin must be this server, and the form must carry the value only the page has.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isLoopbackHost } from '../lib/address.js';

/** Made once per process: forms from an earlier run of the daemon are refused. */
const FORM_KEY = randomBytes(32);

export const formValue = (): string => createHmac('sha256', FORM_KEY).update('update-now').digest('base64url');

export const newNonce = (): string => randomBytes(16).toString('base64');

/** Compares without telling, by its timing, how much of a guess was right. */
export function sameSecret(given: string | undefined | null, expected: string | undefined): boolean {
  if (!given || !expected) return false;
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

const fromLoopback = (req: IncomingMessage): boolean =>
  isLoopbackHost((req.socket.remoteAddress ?? '').replace(/^::ffff:/i, ''));

/** The Host header's name, without the port. */
export function hostName(req: IncomingMessage): string {
  const host = req.headers.host ?? '';
  const bracketed = /^\[([^\]]+)\]/.exec(host);
  return bracketed ? bracketed[1]! : host.replace(/:\d+$/, '');
}

export type Access = { allowed: true; token?: string } | { allowed: false; status: 401 | 403; message: string };

/** `token`: the one the visitor gave (Authorization: Bearer, ?token=, or the form's field). */
export function checkAccess(req: IncomingMessage, given: string | undefined, configured: string | undefined): Access {
  if (configured && sameSecret(given, configured)) return { allowed: true, token: given };
  if (fromLoopback(req) && isLoopbackHost(hostName(req))) return { allowed: true };
  if (!configured)
    return {
      allowed: false,
      status: 403,
      message:
        'the status page is served to this machine only (a loopback address, by its address or localhost); set ' +
        '--listen-token to allow others with the token\n',
    };
  return {
    allowed: false,
    status: 401,
    message: 'the status page needs the token of --listen-token: Authorization: Bearer TOKEN, or ?token=TOKEN\n',
  };
}

export function bearer(req: IncomingMessage): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}

/** The POST came from a page of this very server (what browsers say in Origin); anything else is refused. */
export function sameOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (!origin || origin === 'null') return false;
  return origin === `http://${req.headers.host}`;
}
