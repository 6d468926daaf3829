// The propagation check's questions, sent with the DNS client (src/dns/): the zone's
// authoritative servers found through its NS records, and the TXT values each one holds.
import { findAuthoritativeServers, queryDns, rcodeName, RCODE, type DnsServer } from '../dns/client/index.js';
import { sameName } from '../lib/names.js';
import { DnsError } from '../dns/wire/errors.js';
import type { DnsRecord } from '../dns/wire/types.js';
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
      return txtAtEndOfChain(answer.answers, name);
    },
  };
}

/** CNAME hops followed in one answer, as the authoritative engine bounds its own (dns/server/authority.ts). */
const MAX_CNAME_HOPS = 8;

/**
 * The TXT values a CA reads at `name`: a CNAME there (a challenge delegated to another name in the
 * zone) is followed through the chain the server put in its answer, as a resolver follows it.
 */
function txtAtEndOfChain(answers: readonly DnsRecord[], name: string): string[] {
  let owner = name;
  for (let hop = 0; hop < MAX_CNAME_HOPS; hop++) {
    const cname = answers.find((r) => r.type === 'CNAME' && sameName(r.name, owner));
    if (!cname) break;
    owner = cname.value as string;
  }
  return answers.flatMap((r) => (r.type === 'TXT' && sameName(r.name, owner) ? [r.value.join('')] : []));
}
