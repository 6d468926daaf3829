// The provider's side of a challenge: the TXT entries at one name of a service's zone, and
// adding or removing one value among them. Other values at the same name (a name and its
// wildcard, another client's challenge, a verification token) are never touched.
import type { ApiClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { service, type DnsEntry } from '../api/endpoints/service.js';
import { entryMatchesHost, unquotedTxt } from '../zone/provider/entry-fields.js';
import type { Challenge } from './challenge-name.js';

/** Every TXT entry at the challenge's name (one list call for a zone of up to 1000 entries). */
export async function txtEntriesAt(client: ApiClient, challenge: Challenge): Promise<DnsEntry[]> {
  const found: DnsEntry[] = [];
  for await (const page of client.pages<DnsEntry>('service', service.dnsList, {
    serviceName: challenge.service,
    filterType: 'TXT',
  })) {
    found.push(
      ...page.items.filter((e) => e.type === 'TXT' && entryMatchesHost(e.name, challenge.name, challenge.service)),
    );
  }
  return found;
}

/** The entries holding `value`, quoted or not (some zones show a TXT entry quoted). */
export const entriesWithValue = (entries: DnsEntry[], value: string): DnsEntry[] =>
  entries.filter((e) => unquotedTxt(e.value) === value);

/** Creates the entry; returns the provider's id for it. dnscreate is never retried (it would duplicate). */
export async function createTxtEntry(client: ApiClient, challenge: Challenge): Promise<string> {
  const result = await client.call('service', service.dnsCreate, {
    serviceName: challenge.service,
    name: challenge.name,
    type: 'TXT',
    value: challenge.value,
  });
  return result.dns?.find((e) => e.type === 'TXT')?.entityID ?? result.dns?.[0]?.entityID ?? '';
}

/** Deletes one entry; an entry already gone (removed by hand, or by a previous cleanup) is not an error. */
export async function deleteTxtEntry(client: ApiClient, challenge: Challenge, entityID: string): Promise<boolean> {
  try {
    await client.call('service', service.dnsDelete, { serviceName: challenge.service, entityID });
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.kind === 'not-found' && error.errorCode === 4002) return false;
    throw error;
  }
}
