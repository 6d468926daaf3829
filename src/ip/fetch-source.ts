// Asks one source for the address of one family. Returns the address as the source gave it;
// the public-address rules are applied by the caller, so refusals are logged in one place.
import { networkInterfaces } from 'node:os';
import { TransportError } from '../http/errors.js';
import { expectSuccessStatus, httpRequest } from '../http/request.js';
import { moduleOf } from '../lazy-import.js';
import { familyOfAddress, nonPublicReason, type Family } from './address.js';
import type { SourceSpec } from './sources.js';

/** Echo answers are a few bytes; anything bigger is not an echo service. */
const SOURCE_MAX_BYTES = 64 * 1024;

export class SourceError extends Error {}

export async function fetchSourceAddress(spec: SourceSpec, family: Family, timeoutMs: number): Promise<string> {
  switch (spec.kind) {
    case 'url': {
      const response = expectSuccessStatus(await httpRequest({ url: spec.url, family, timeoutMs, maxBytes: SOURCE_MAX_BYTES, setting: '--ip-source' }), 'check the source URL');
      const text = spec.field ? (new RegExp(`^${spec.field}=(.*)$`, 'm').exec(response.body)?.[1] ?? '') : response.body;
      const found = firstAddress(text, family);
      if (!found) throw new TransportError('malformed', `no IPv${family} address in the answer of ${response.shownUrl}`, response.shownUrl);
      return found;
    }
    case 'iface':
      return interfaceAddress(spec.iface, family);
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
  const entries = networkInterfaces()[name];
  if (!entries) throw new SourceError(`no network interface named "${name}" (have: ${Object.keys(networkInterfaces()).join(', ')})`);
  const addresses = entries.filter((e) => e.family === `IPv${family}`).map((e) => e.address);
  if (!addresses.length) throw new SourceError(`interface "${name}" has no IPv${family} address`);
  // Prefer a public one: an interface usually also holds link-local addresses.
  return addresses.find((a) => !nonPublicReason(a)) ?? addresses[0]!;
}

async function dnsAddress(spec: Extract<SourceSpec, { kind: 'dns' }>, family: Family, timeoutMs: number): Promise<string> {
  const { Resolver } = await moduleOf(import('node:dns/promises'));
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  resolver.setServers([spec.server]);
  try {
    if (spec.rrtype === 'TXT') {
      const records = (await resolver.resolveTxt(spec.query)).map((parts) => parts.join(''));
      const found = records.map((r) => firstAddress(r, family)).find(Boolean);
      if (!found) throw new SourceError(`no IPv${family} address in the TXT answer for ${spec.query}`);
      return found;
    }
    const [address] = family === 4 ? await resolver.resolve4(spec.query) : await resolver.resolve6(spec.query);
    if (!address) throw new SourceError(`empty answer for ${spec.query}`);
    return address;
  } catch (error) {
    if (error instanceof SourceError) throw error;
    throw new SourceError(`DNS query ${spec.query} at ${spec.server} failed: ${(error as { code?: string }).code ?? (error as Error).message}`);
  } finally {
    resolver.cancel();
  }
}
