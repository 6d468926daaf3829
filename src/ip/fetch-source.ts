// Asks one source for the address of one family. Returns the address as the source gave it;
// the public-address rules are applied by the caller, so refusals are logged in one place.
import { TransportError } from '../http/errors.js';
import { expectSuccessStatus, httpRequest } from '../http/request.js';
import type { Logger } from '../lib/log.js';
import { familyOfAddress, nonPublicReason, type Family } from '../lib/address.js';
import type { SourceSpec } from './sources.js';

/** Echo answers are a few bytes; anything bigger is not an echo service. */
const SOURCE_MAX_BYTES = 64 * 1024;

class SourceError extends Error {}

/** What a source may need beyond its spec: where to log why, the interface table (tests). */
export interface SourceContext {
  logger?: Logger;
  interfaceTable?: string;
}

export async function fetchSourceAddress(
  spec: SourceSpec,
  family: Family,
  timeoutMs: number,
  context: SourceContext = {},
): Promise<string> {
  switch (spec.kind) {
    case 'url': {
      const response = expectSuccessStatus(
        await httpRequest({ url: spec.url, family, timeoutMs, maxBytes: SOURCE_MAX_BYTES, setting: '--ip-source' }),
        'check the source URL',
      );
      const text = spec.field
        ? (new RegExp(`^${spec.field}=(.*)$`, 'm').exec(response.body)?.[1] ?? '')
        : response.body;
      const found = firstAddress(text, family);
      if (!found)
        throw new TransportError(
          'malformed',
          `no IPv${family} address in the answer of ${response.shownUrl}`,
          response.shownUrl,
        );
      return found;
    }
    case 'iface':
      if (family === 6)
        return (await import('./interface-address6.js')).interfaceAddress6(spec.iface, {
          table: context.interfaceTable,
          logger: context.logger,
        });
      return interfaceAddress(spec.iface, family);
    case 'file': {
      const { readAddressFile, noAddressIn } = await import('./file-source.js');
      const found = firstAddress(await readAddressFile(spec.path), family);
      if (!found) throw noAddressIn(spec.path, family);
      return found;
    }
    case 'dns':
      return dnsAddress(spec, family, timeoutMs);
    case 'server':
      throw new SourceError('the "server" source is answered by the provider, not asked');
  }
}

/** The first address of the wanted family anywhere in a text (plain echo, `ip=` lines, HTML). */
export function firstAddress(text: string, family: Family): string | undefined {
  for (const token of text.split(/[^0-9a-fA-F:.]+/)) {
    const candidate = token.replace(/^[:.]+|[.]+$/g, '');
    if (candidate && familyOfAddress(candidate) === family) return candidate;
  }
  return undefined;
}

function interfaceAddress(name: string, family: Family): string {
  // node:os only when an interface is asked: a cycle from HTTPS sources does not load it.
  const { networkInterfaces } = process.getBuiltinModule('node:os');
  const entries = networkInterfaces()[name];
  if (!entries)
    throw new SourceError(
      `no network interface named "${name}" (have: ${Object.keys(networkInterfaces()).join(', ')})`,
    );
  const addresses = entries.filter((e) => e.family === `IPv${family}`).map((e) => e.address);
  if (!addresses.length) throw new SourceError(`interface "${name}" has no IPv${family} address`);
  // Prefer a public one: an interface usually also holds link-local addresses.
  return addresses.find((a) => !nonPublicReason(a)) ?? addresses[0]!;
}

async function dnsAddress(
  spec: Extract<SourceSpec, { kind: 'dns' }>,
  family: Family,
  timeoutMs: number,
): Promise<string> {
  // The DNS client is loaded only by a DNS source: `update` with HTTP sources never parses it.
  const { DnsError, parseDnsServer, queryDns, rcodeName } = await import('../dns/client/index.js');
  const type = spec.rrtype === 'TXT' ? 'TXT' : family === 4 ? 'A' : 'AAAA';
  let answer: Awaited<ReturnType<typeof queryDns>>;
  try {
    answer = await queryDns(parseDnsServer(spec.server, '--ip-source'), spec.query, type, { timeoutMs });
  } catch (error) {
    if (error instanceof DnsError)
      throw new SourceError(`DNS query ${spec.query} at ${spec.server} failed: ${error.message}`);
    throw error;
  }
  if (answer.rcode !== 0)
    throw new SourceError(`DNS query ${spec.query} at ${spec.server} failed: ${rcodeName(answer.rcode)}`);
  if (spec.rrtype === 'TXT') {
    const texts = answer.answers.flatMap((r) => (r.type === 'TXT' ? [r.value.join('')] : []));
    const found = texts.map((t) => firstAddress(t, family)).find(Boolean);
    if (!found) throw new SourceError(`no IPv${family} address in the TXT answer for ${spec.query}`);
    return found;
  }
  // A CNAME chain may come first; the address records are what was asked.
  const address = answer.answers.find((r) => r.type === type)?.value;
  if (typeof address !== 'string') throw new SourceError(`empty answer for ${spec.query}`);
  return address;
}
