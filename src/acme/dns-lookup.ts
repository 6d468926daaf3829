// The propagation check's questions, sent with the DNS client (src/dns/): the zone's
// authoritative servers found through its NS records, and the TXT values each one holds.
import { findAuthoritativeServers, queryDns, rcodeName, RCODE, type DnsServer } from '../dns/client/index.js';
import { sameName } from '../lib/names.js';
import { DnsError } from '../dns/wire/errors.js';
import type { TxtLookup } from './propagation.js';

export interface DiscoveryOptions {
  /** Resolvers asked for the zone's NS records (default: the system's). */
  resolvers?: DnsServer[];
  /** The port the authoritative servers are asked on (default 53; tests use a local server). */
  port?: number;
}

export function createDnsTxtLookup(discovery: DiscoveryOptions = {}): TxtLookup {
  return {
    authoritativeServers: (zone, timeoutMs, signal) =>
      findAuthoritativeServers(zone, { ...discovery, timeoutMs, signal }),

    async txtValues(server, name, timeoutMs, signal) {
      // An authoritative server is asked for its own data; a server given with --dns-server
      // may be the resolver of a split horizon, so it is allowed to recurse.
      const answer = await queryDns(server, name, 'TXT', {
        timeoutMs,
        signal,
        recursionDesired: server.name === undefined,
      });
      if (answer.rcode !== RCODE.NOERROR && answer.rcode !== RCODE.NXDOMAIN)
        throw new DnsError('lookup', `answers ${rcodeName(answer.rcode)}`);
      if (answer.truncated) throw new DnsError('malformed', 'answers truncated, also over TCP');
      return answer.answers.flatMap((r) => (r.type === 'TXT' && sameName(r.name, name) ? [r.value.join('')] : []));
    },
  };
}
