// Who may see the status page and press its button follows the address listened on, never the
// client's: on a loopback listener nothing is needed, but only when the request also names a
// loopback host (a page fetched through a name that a hostile site re-pointed at 127.0.0.1, DNS
// rebinding, carries that site's name and is refused). On any other listener every request needs
// --listen-token, one from this machine included (a reverse proxy on this host is a client like
// any other); without a token set there, the page is off. The button's POST must also come from
// the page itself: the browser's Origin must be this server, and the form must carry the value
// only the page has.
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

/** The Host header's name, without the port. */
export function hostName(req: IncomingMessage): string {
  const host = req.headers.host ?? '';
  const bracketed = /^\[([^\]]+)\]/.exec(host);
  return bracketed ? bracketed[1]! : host.replace(/:\d+$/, '');
}

export type Access = { allowed: true; token?: string } | { allowed: false; status: 401 | 403; message: string };

/**
 * `given`: the token the visitor gave (Authorization: Bearer, ?token=, or the form's field); `loopbackListener`: the
 * endpoint listens on a loopback address only.
 */
export function checkAccess(
  req: IncomingMessage,
  given: string | undefined,
  configured: string | undefined,
  loopbackListener: boolean,
): Access {
  if (configured && sameSecret(given, configured)) return { allowed: true, token: given };
  if (loopbackListener && isLoopbackHost(hostName(req))) return { allowed: true };
  if (!configured)
    return {
      allowed: false,
      status: 403,
      message: loopbackListener
        ? 'the status page answers requests by a loopback address or localhost only; set --listen-token to open it ' +
          'by other names with the token\n'
        : 'the status page is off: --listen is beyond loopback, where every request needs the token, and no ' +
          '--listen-token is set\n',
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
export function sameOrigin(req: IncomingMessage, tls: boolean): boolean {
  const origin = req.headers.origin;
  if (!origin || origin === 'null') return false;
  return origin === `${tls ? 'https' : 'http'}://${req.headers.host}`;
}
