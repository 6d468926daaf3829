// `zone export --complete`: the lines that make an export a whole zone for other tools, so that
// BIND's named-checkzone (NSD, Knot) loads it as it is: `$TTL`, the SOA and the apex NS records.
// The provider keeps those itself and service/dnslist does not show them all; they are asked of
// the zone's authoritative name servers (or the servers named with --dns-server).
//
// ddedge's own reading of such a file means what the export meant: the SOA and apex NS are left
// to the provider (the reader notes them), and `$TTL` carries a comment that marks it as the
// provider's default, which records written without a TTL keep; so `zone plan` of the file
// reports no change. Remove the comment and `$TTL` is an ordinary default for the records.
// A name server inside the zone needs its address in the file (BIND refuses the zone without
// it); when the zone has no record for it, the servers' glue is written, marked the same way.
import { DnsError } from '../../dns/wire/errors.js';
import {
  findAuthoritativeServers,
  queryDns,
  RCODE,
  rcodeName,
  showServer,
  type DnsAnswer,
  type DnsRecord,
  type DnsServer,
  type SoaValue,
} from '../../dns/client/index.js';
import { rdataOf } from './master-writer.js';
import type { LiveRecord } from '../record.js';
import { atOrBelow, lowerName, relativeName, sameName } from '../../lib/names.js';
import { PROVIDER_DEFAULT_TTL, PROVIDER_GLUE } from './provider-lines.js';

export interface ApexOptions {
  /** --dns-server: asked instead of the zone's authoritative servers (recursion allowed). */
  servers: DnsServer[];
  timeoutMs: number;
  /** Resolvers that find the zone's servers when none are given (default: /etc/resolv.conf). */
  resolvers?: DnsServer[];
}

/** `$TTL`, SOA and NS lines for the top of the export, asked of the name servers. */
export async function completeLines(
  zone: string,
  live: readonly LiveRecord[],
  options: ApexOptions,
): Promise<string[]> {
  const given = options.servers.length > 0;
  const servers = given
    ? options.servers
    : await findAuthoritativeServers(zone, { timeoutMs: options.timeoutMs, resolvers: options.resolvers }).catch(
        (error: unknown) => {
          // The zone's servers are found through the system's resolver: on a split horizon, a private
          // zone or the sandbox that fails, and the fix is to name the server that serves the zone.
          if (error instanceof DnsError)
            throw new DnsError(
              error.kind,
              `${error.message}; name a server that answers for ${zone} with --dns-server ADDR[:PORT]`,
              error.server,
            );
          throw error;
        },
      );
  const ask = (type: 'SOA' | 'NS' | 'A' | 'AAAA' | 'TXT' | 'MX', name = zone) =>
    askFirst(servers, name, type, { timeoutMs: options.timeoutMs, recursionDesired: given });
  const soaAnswer = await ask('SOA');
  const soa = soaAnswer.answers.find((r) => r.type === 'SOA' && sameName(r.name, zone));
  if (!soa)
    throw new DnsError(
      'lookup',
      `${servers.map(showServer).join(', ')} gave no SOA for ${zone}: is it the zone's name server?`,
    );
  const nsAnswer = await ask('NS');
  const listedNs = new Set(live.filter((r) => r.type === 'NS' && r.name === zone).map((r) => r.value));
  const ns = nsAnswer.answers.filter(
    (r): r is DnsRecord & { value: string } =>
      r.type === 'NS' && sameName(r.name, zone) && !listedNs.has(lowerName(String(r.value))),
  );
  const defaultTtl = await providerDefaultTtl(live, ask, soa.ttl);
  const value = soa.value as SoaValue;
  const dotted = (name: string) => `${name.replace(/\.$/, '')}.`;
  return [
    `$TTL ${defaultTtl} ; ${PROVIDER_DEFAULT_TTL}`,
    `@ ${soa.ttl} IN SOA ${dotted(value.mname)} ${dotted(value.rname)} ${value.serial} ${value.refresh} ` +
      `${value.retry} ${value.expire} ${value.minimum}`,
    ...ns.map((r) => `@ ${r.ttl} IN NS ${rdataOf({ name: zone, type: 'NS', value: lowerName(r.value) })}`),
    ...(await glueLines(zone, live, ns, nsAnswer, ask)),
  ];
}

/** Addresses of the name servers inside the zone that the zone has no record for. */
async function glueLines(
  zone: string,
  live: readonly LiveRecord[],
  ns: (DnsRecord & { value: string })[],
  nsAnswer: DnsAnswer,
  ask: (type: 'A' | 'AAAA', name: string) => Promise<DnsAnswer>,
): Promise<string[]> {
  const addressed = new Set(live.filter((r) => r.type === 'A' || r.type === 'AAAA').map((r) => r.name));
  const names = [...new Set(ns.map((r) => lowerName(r.value)))].filter(
    (name) => atOrBelow(name, zone) && !addressed.has(name),
  );
  const lines: string[] = [];
  for (const name of names) {
    let glue = nsAnswer.additional.filter((r) => (r.type === 'A' || r.type === 'AAAA') && sameName(r.name, name));
    if (!glue.length)
      glue = (
        await Promise.all(
          (['A', 'AAAA'] as const).map((type) =>
            ask(type, name).then(
              (a) => a.answers,
              () => [],
            ),
          ),
        )
      )
        .flat()
        .filter((r) => (r.type === 'A' || r.type === 'AAAA') && sameName(r.name, name));
    for (const r of glue)
      lines.push(`${relativeName(name, zone)} ${r.ttl} IN ${r.type} ${String(r.value)} ; ${PROVIDER_GLUE}`);
  }
  return lines;
}

/**
 * The TTL the servers give a record the provider keeps at its default: asked for one such
 * record of a plain type; the SOA's own TTL when the zone has none.
 */
async function providerDefaultTtl(
  live: readonly LiveRecord[],
  ask: (type: 'A' | 'AAAA' | 'TXT' | 'MX', name: string) => Promise<DnsAnswer>,
  fallback: number,
): Promise<number> {
  const sample = live.find(
    (r): r is LiveRecord & { type: 'A' | 'AAAA' | 'TXT' | 'MX' } =>
      r.ttl === undefined && ['A', 'AAAA', 'TXT', 'MX'].includes(r.type) && !r.name.startsWith('*'),
  );
  if (!sample) return fallback;
  const answer = await ask(sample.type, sample.name);
  return answer.answers.find((r) => r.type === sample.type && sameName(r.name, sample.name))?.ttl ?? fallback;
}

async function askFirst(
  servers: DnsServer[],
  name: string,
  type: 'SOA' | 'NS' | 'A' | 'AAAA' | 'TXT' | 'MX',
  options: { timeoutMs: number; recursionDesired: boolean },
): Promise<DnsAnswer> {
  let last: unknown;
  for (const server of servers) {
    try {
      const answer = await queryDns(server, name, type, options);
      if (answer.rcode === RCODE.NOERROR) return answer;
      last = new DnsError('lookup', `${showServer(server)} answered ${rcodeName(answer.rcode)} for ${name} ${type}`);
    } catch (error) {
      if (!(error instanceof DnsError)) throw error;
      last = error;
    }
  }
  throw last ?? new DnsError('lookup', `no name server to ask for ${name} ${type}`);
}
