// Where the Docker Engine API is: its unix socket (Docker's or podman's), or plain HTTP to a
// socket proxy that only a private network reaches. The engine's answers decide which names get
// records, so plain HTTP is taken only where no stranger is on the path: loopback, a private
// address, or a one-label name (a service on a container network). Anything else is refused
// before a connection is made.
import { familyOfAddress, nonPublicReason } from '../../lib/address.js';
import { ConfigError } from '../../lib/errors.js';
import { redactUrl } from '../../lib/redact.js';

export interface EngineEndpoint {
  /** The base every request's path is added to (http://localhost for a socket). */
  readonly base: string;
  /** The unix socket carrying the requests, if any. */
  readonly socketPath?: string;
  /** The URL as the user gave it, secrets masked: for messages. */
  readonly shown: string;
}

const EXPECTED =
  'expected unix:///path/to/docker.sock or http://HOST:PORT (loopback, a private address or a socket proxy)';

/** The endpoint of an engine URL, or a ConfigError naming `setting` and saying what is accepted. */
export function parseEngineUrl(text: string, setting = '--containers'): EngineEndpoint {
  const shown = redactUrl(text);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    const hint = text.startsWith('/') ? `; for a socket write unix://${text}` : '';
    throw new ConfigError(`${setting}: "${shown}" is not a URL; ${EXPECTED}${hint}`);
  }
  if (url.protocol === 'unix:')
    return { base: 'http://localhost', socketPath: socketPathOf(url, shown, setting), shown };
  if (url.protocol === 'http:') {
    checkPlainHttpHost(url, setting);
    if (url.search || url.hash) throw new ConfigError(`${setting}: "${shown}" has a query or fragment; ${EXPECTED}`);
    const path = url.pathname.replace(/\/+$/, '');
    return {
      base: `${url.protocol}//${url.username ? `${url.username}:${url.password}@` : ''}${url.host}${path}`,
      shown,
    };
  }
  throw new ConfigError(`${setting}: unsupported scheme "${url.protocol}"; ${EXPECTED}${schemeHint(url)}`);
}

function schemeHint(url: URL): string {
  if (url.protocol === 'tcp:') return `; Docker's tcp://${url.host} is written http://${url.host} here`;
  if (url.protocol === 'https:') {
    return '; TLS to an engine (client certificates) is not supported: mount the socket or use a socket proxy';
  }
  return '';
}

function socketPathOf(url: URL, shown: string, setting: string): string {
  // unix:///run/x.sock parses with an empty host; unix://run/x.sock would make "run" the host.
  const path = decodeURIComponent(url.pathname);
  if (url.host || !path.startsWith('/') || path === '/' || url.search || url.hash || path.includes('\0')) {
    throw new ConfigError(`${setting}: "${shown}" does not name a socket by its absolute path; ${EXPECTED}`);
  }
  return path;
}

/** Loopback, a private or other non-public address, or a one-label name (a container network's service). */
function checkPlainHttpHost(url: URL, setting: string): void {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const literal = familyOfAddress(host) !== undefined;
  const near = literal
    ? nonPublicReason(host) !== undefined
    : !host.includes('.') || host.endsWith('.localhost') || host.endsWith('.internal');
  if (near) return;
  throw new ConfigError(
    `${setting}: plain http:// to ${url.host} would carry the engine's answers across a network anyone may be on; ` +
      'allowed only to loopback, a private address or a one-label name on a container network (a socket proxy)',
  );
}
