// Which servers to ask: `--dns-server HOST[:PORT]` values, the system's resolvers from
// /etc/resolv.conf, and the authoritative servers of a zone (its NS records, then their
// addresses, glue first).
import { readFileSync } from 'node:fs';
import { systemClock, type Clock } from '../../lib/clock.js';
import { ConfigError } from '../../lib/errors.js';
import { familyOfAddress } from '../../lib/address.js';
import { DnsError } from '../wire/errors.js';
import { nameToLabels } from '../wire/names.js';
import { queryDns, showServer } from './query.js';
import { sameName } from '../../lib/names.js';
import { rcodeName, type DnsAnswer, type DnsServer } from '../wire/types.js';

const DEFAULT_PORT = 53;
/** Enough for any real zone (the root has 13); a hostile answer cannot make us ask hundreds. */
const MAX_NAME_SERVERS = 16;

/**
 * `HOST[:PORT]`: an IPv4 address, an IPv6 address in brackets (`[::1]:5353`; bare without a
 * port), or a host name; the port defaults to 53. `setting` names the flag in errors.
 */
export function parseDnsServer(text: string, setting = '--dns-server'): DnsServer {
  const value = text.trim();
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(value);
  let host: string;
  let port: string | undefined;
  if (bracketed) [, host, port] = bracketed as unknown as [string, string, string | undefined];
  else if ((value.match(/:/g) ?? []).length > 1)
    host = value; // a bare IPv6 address
  else [host, port] = value.split(':') as [string, string | undefined];
  const bad = (why: string) =>
    new ConfigError(`${setting}: "${text}" ${why}; use HOST[:PORT], IPv6 in brackets ([::1]:53)`);
  if (!host) throw bad('names no server');
  if ((bracketed || host.includes(':')) && familyOfAddress(host) !== 6) throw bad('is not an IPv6 address');
  if (!host.includes(':') && familyOfAddress(host) !== 4) {
    if (/^\d+(\.\d+)*$/.test(host)) throw bad('is not an IPv4 address');
    try {
      nameToLabels(host);
    } catch {
      throw bad('is not a host name');
    }
    if (!/^[a-z0-9.-]+$/i.test(host)) throw bad('is not a host name');
  }
  const portNumber = port === undefined ? DEFAULT_PORT : Number(port);
  if (port !== undefined && (!/^\d{1,5}$/.test(port) || portNumber < 1 || portNumber > 65535))
    throw bad('has no valid port (1-65535)');
  return { host: host.replace(/\.$/, ''), port: portNumber };
}

/** The `nameserver` lines of resolv.conf (at most 3 are used by the C library; so here). */
export function systemResolvers(path = '/etc/resolv.conf'): DnsServer[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [{ host: '127.0.0.1', port: DEFAULT_PORT }];
  }
  const found = text
    .split('\n')
    .map((line) => /^\s*nameserver\s+([0-9a-f.:]+)(%\S+)?\s*(?:[#;].*)?$/i.exec(line)?.[1])
    .filter((address): address is string => Boolean(address && familyOfAddress(address)))
    .slice(0, 3)
    .map((host) => ({ host, port: DEFAULT_PORT }));
  // resolv.conf(5): with no nameserver line, the local machine is asked.
  return found.length ? found : [{ host: '127.0.0.1', port: DEFAULT_PORT }];
}

export interface AuthoritativeOptions {
  /** Resolvers to ask for the NS records and addresses (default: /etc/resolv.conf). */
  resolvers?: DnsServer[];
  /** The deadline over the whole discovery. */
  timeoutMs: number;
  /** The port the found servers are asked on (default 53; tests point it at a local server). */
  port?: number;
  signal?: AbortSignal;
  /** The deadline runs on it (default: the system's). */
  clock?: Clock;
}

export interface AuthoritativeServer extends DnsServer {
  /** The NS name this address belongs to. */
  name: string;
}

/**
 * The addresses of a zone's authoritative servers: its NS records asked of a resolver, then each
 * server's A and AAAA, from the glue in the same answer first, else asked of the resolver.
 * Throws DnsError (`lookup`) when the zone has no NS records or no server has an address.
 */
export async function findAuthoritativeServers(
  zone: string,
  options: AuthoritativeOptions,
): Promise<AuthoritativeServer[]> {
  const resolvers = options.resolvers?.length ? options.resolvers : systemResolvers();
  const clock = options.clock ?? systemClock;
  const deadline = clock.now() + options.timeoutMs;
  const ask = async (name: string, type: 'NS' | 'A' | 'AAAA'): Promise<DnsAnswer> => {
    let last: unknown;
    for (const resolver of resolvers) {
      const timeoutMs = deadline - clock.now();
      if (timeoutMs <= 0) break;
      try {
        const answer = await queryDns(resolver, name, type, { timeoutMs, signal: options.signal, clock });
        // SERVFAIL and REFUSED say nothing about the zone: another resolver may know.
        if (answer.rcode === 2 || answer.rcode === 5) {
          last = new DnsError(
            'lookup',
            `${showServer(resolver)} answered ${rcodeName(answer.rcode)} for ${name} ${type}`,
            showServer(resolver),
          );
          continue;
        }
        return answer;
      } catch (error) {
        if (!(error instanceof DnsError)) throw error;
        last = error;
      }
    }
    throw last ?? new DnsError('timeout', `no resolver answered for ${name} ${type} within ${options.timeoutMs} ms`);
  };

  const nsAnswer = await ask(zone, 'NS');
  if (nsAnswer.rcode === 3) throw new DnsError('absent', `the zone ${zone} does not exist (NXDOMAIN)`);
  const names = [
    ...new Set(
      nsAnswer.answers
        .filter((r) => r.type === 'NS' && sameName(r.name, zone))
        .map((r) => (r.value as string).toLowerCase()),
    ),
  ].slice(0, MAX_NAME_SERVERS);
  if (!names.length) throw new DnsError('absent', `${zone} has no NS records: is it the apex of a zone?`);

  const port = options.port ?? DEFAULT_PORT;
  const glued: AuthoritativeServer[] = [];
  const unglued: string[] = [];
  for (const name of names) {
    const glue = nsAnswer.additional.filter((r) => (r.type === 'A' || r.type === 'AAAA') && sameName(r.name, name));
    if (glue.length) glued.push(...glue.map((r) => ({ host: r.value as string, port, name })));
    else unglued.push(name);
  }
  const lookedUp = await Promise.all(
    unglued.map(async (name) => {
      const answers = await Promise.all(
        (['A', 'AAAA'] as const).map((type) =>
          ask(name, type).then(
            (a) => a.answers,
            () => [],
          ),
        ),
      );
      return answers
        .flat()
        .filter((r) => r.type === 'A' || r.type === 'AAAA')
        .map((r) => ({ host: r.value as string, port, name }));
    }),
  );
  const servers = [...glued, ...lookedUp.flat()].filter(
    (s, i, all) => all.findIndex((t) => t.host === s.host && t.port === s.port) === i,
  );
  if (!servers.length)
    throw new DnsError('lookup', `no address found for the name servers of ${zone} (${names.join(', ')})`);
  return servers;
}
