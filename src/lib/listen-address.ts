// --listen ADDR:PORT. The address is always written out: a bare port or ":9464" (which Go
// exporters read as "every interface") is refused, so that listening beyond loopback is
// never an accident.
import { familyOfAddress, isLoopbackHost } from './address.js';
import { ConfigError } from './errors.js';
import { hostPort } from './host-port.js';

export interface ListenAddress {
  /** An IP literal, without brackets. */
  host: string;
  /** 0 picks a free port (the one chosen is logged). */
  port: number;
  loopback: boolean;
}

/** Parses ADDR:PORT (IPv6 in brackets); returns a problem text for the loader otherwise. */
export function parseListenAddress(text: string): ListenAddress | string {
  const hint = 'give ADDR:PORT, e.g. 127.0.0.1:9464 (this machine only) or 0.0.0.0:9464 (every interface)';
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(text.trim());
  if (!match) return `"${text}" is not ADDR:PORT; ${hint}`;
  const given = match[1] ?? match[2]!;
  const port = Number(match[3]);
  if (!given) return `"${text}" names no address; ${hint}`;
  if (port > 65535) return `"${text}": port ${port} is outside 0..65535`;
  const host = given.toLowerCase() === 'localhost' ? '127.0.0.1' : given;
  const family = familyOfAddress(host);
  if (!family || (match[1] !== undefined && family !== 6)) return `"${text}": "${given}" is not an IP address; ${hint}`;
  return { host, port, loopback: isLoopbackHost(host) };
}

export const formatListenAddress = (a: { host: string; port: number }): string => hostPort(a.host, a.port);

/**
 * The address a person on this machine can open: 0.0.0.0 and :: mean "every address" to a
 * listening socket but are no destination, so loopback stands in for them.
 */
export function reachableHost(host: string): { host: string; everyAddress: boolean } {
  if (host === '0.0.0.0') return { host: '127.0.0.1', everyAddress: true };
  if (host.includes(':') && /^[0:]+$/.test(host)) return { host: '::1', everyAddress: true };
  return { host, everyAddress: false };
}

/** Why a listening socket could not be opened, as a configuration error (exit 2) naming the flag. */
export function listenError(flag: string, shown: string, error: NodeJS.ErrnoException): Error {
  switch (error.code) {
    case 'EADDRINUSE':
      return new ConfigError(
        `${flag} ${shown}: the address is already in use (another program, or another ddedge, listens there); ` +
          `choose another port`,
      );
    case 'EACCES':
      return new ConfigError(
        `${flag} ${shown}: permission denied (EACCES: ports below 1024 need root or CAP_NET_BIND_SERVICE, which ` +
          `ddedge-gateway.service gives); choose a port above 1023`,
      );
    case 'EADDRNOTAVAIL':
      return new ConfigError(`${flag} ${shown}: not an address of this machine`);
    default:
      return new ConfigError(`${flag} ${shown}: cannot listen (${error.code ?? error.message})`);
  }
}
