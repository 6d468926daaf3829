// Setting one record through the registrar API: find the entry by name in the service's
// zone (service/dnslist), change it (dnsupdate), or create it when it is missing
// (dnscreate) — the one thing the dynamic DNS interface cannot do. The entry written is named
// in the answer, and the caller may remember it: a change then updates that entry in one call,
// without the list; an entry the provider no longer has (deleted outside) is refused, and the
// zone is listed as without one, once. A write whose answer is lost (a timeout, a reset
// connection, a 5xx) may have been made: the entry is read again, and what is reported is what
// the provider holds.
import type { ApiClient } from '../api/client.js';
import { service, type DnsEntry } from '../api/endpoints/service.js';
import { tool } from '../api/endpoints/tool.js';
import { ApiError } from '../api/errors.js';
import { TransportError } from '../http/errors.js';
import type { RecordType } from '../lib/address.js';
import type { Logger } from '../lib/log.js';
import { atOrBelow } from '../lib/names.js';
import { ConfigError } from '../lib/errors.js';
import { countOf, entryMatchesHost } from '../zone/provider/entry-fields.js';

// What a cycle needs to build its client (config/api-client.ts, and undici's pool for the
// gate to count), reached through this file: the API path then stays the few chunks it was.
export { apiClientFrom } from '../config/api-client.js';
export { undiciTransport } from '../http/undici-transport.js';

/** The provider's entry of a record: the zone it is in and its entity ID. */
export interface RememberedEntry {
  zone: string;
  id: string;
}

export interface ApiUpdate {
  changed: boolean;
  created: boolean;
  /** The entry that holds the record now, when the provider named it. */
  entity?: RememberedEntry;
}

/** The provider's refusal of an entity ID it no longer has (4002), or can no longer update (4005). */
const isGoneEntity = (error: unknown): boolean =>
  error instanceof ApiError && (error.kind === 'not-found' || error.errorCode === 4005);

export async function updateRecordViaApi(
  client: ApiClient,
  zone: string,
  host: string,
  type: RecordType,
  address: string,
  logger: Logger,
  ttl?: number,
  /** The entry the record was last written to: updated without listing the zone when it is in `zone`. */
  remembered?: RememberedEntry,
): Promise<ApiUpdate> {
  if (remembered?.zone === zone && atOrBelow(host, zone)) {
    const done = await updateRemembered(client, zone, host, type, address, logger, ttl, remembered.id);
    if (done) return done;
  }
  const matches = await entriesOf(client, zone, host, type);
  // Checked after the read, which says first when the service itself is unknown (error 4001). The
  // API names an entry relative to the service's zone: a host outside it would be created as
  // <host>.<zone>, a record nobody asked for, and reported as updated.
  if (!atOrBelow(host, zone))
    throw new ConfigError(
      `${host} is not in the zone of ${zone} (--service / DDEDGE_SERVICE): the API writes only that zone's records`,
    );
  const [entry, ...others] = matches;
  if (others.length)
    logger.warn(`${host} has ${matches.length} ${type} entries in ${zone}; updating entity ${entry!.entityID} only`);
  // Without --ttl the entry keeps whatever TTL it has; with it, a TTL alone is a change.
  const withTtl = ttl === undefined ? {} : { ttl };
  if (entry && holds(entry, address, ttl))
    return { changed: false, created: false, entity: { zone, id: String(entry.entityID) } };
  const write = entry
    ? () =>
        client.call('service', service.dnsUpdate, {
          serviceName: zone,
          entityID: entry.entityID,
          value: address,
          ...withTtl,
        })
    : () =>
        client.call('service', service.dnsCreate, { serviceName: zone, name: host, type, value: address, ...withTtl });
  if (!entry) logger.info(`${host} has no ${type} entry in ${zone}; creating it`);
  try {
    const id = (await write()).dns?.[0]?.entityID ?? entry?.entityID;
    return { changed: true, created: !entry, ...(id ? { entity: { zone, id: String(id) } } : {}) };
  } catch (error) {
    if (!(error instanceof TransportError)) throw error;
    // Not answered: read again. A create is never sent twice (it would make a second entry).
    let now: DnsEntry[];
    try {
      now = await entriesOf(client, zone, host, type);
    } catch {
      throw error;
    }
    const held = now.find((e) => holds(e, address, ttl));
    const made = held !== undefined;
    logger.warn(
      `the answer to ${entry ? 'updating' : 'creating'} the ${type} entry of ${host} in ${zone} was lost ` +
        `(${error.message}); read again, the provider ` +
        `${made ? `holds ${address}: it was made` : `does not hold ${address}: it was not made`}`,
    );
    if (!held) throw error;
    return { changed: true, created: !entry, entity: { zone, id: String(held.entityID) } };
  }
}

/**
 * The remembered entry set to `address` in one call; undefined when the provider no longer has it or the answer was
 * lost (the caller then lists the zone and sets the record as without one: no second try of this entry).
 */
async function updateRemembered(
  client: ApiClient,
  zone: string,
  host: string,
  type: RecordType,
  address: string,
  logger: Logger,
  ttl: number | undefined,
  id: string,
): Promise<ApiUpdate | undefined> {
  let written: DnsEntry | undefined;
  try {
    const answer = await client.call('service', service.dnsUpdate, {
      serviceName: zone,
      entityID: id,
      value: address,
      ...(ttl === undefined ? {} : { ttl }),
    });
    written = answer.dns?.[0];
  } catch (error) {
    if (!isGoneEntity(error) && !(error instanceof TransportError)) throw error;
    logger.info(
      `${host} ${type}: ${
        error instanceof TransportError
          ? `the answer to updating entry ${id} was lost (${error.message})`
          : `the provider no longer has entry ${id} in ${zone}`
      }; reading the zone`,
    );
    return undefined;
  }
  if (written && !(written.type === type && entryMatchesHost(written.name, host, zone))) {
    logger.error(
      `${host} ${type}: entry ${id} of ${zone} holds ${written.name} ${written.type} now, and was set to ${address}; ` +
        `reading the zone to set ${host}`,
    );
    return undefined;
  }
  return { changed: true, created: false, entity: { zone, id } };
}

/** Whether the entry holds `address` (and `ttl`, when one is asked for). */
const holds = (entry: DnsEntry, address: string, ttl: number | undefined): boolean =>
  entry.value === address && (ttl === undefined || countOf(entry.ttl) === ttl);

/** The zone's entries of `type` at `host` (service/dnslist, filtered by type). */
async function entriesOf(client: ApiClient, zone: string, host: string, type: RecordType): Promise<DnsEntry[]> {
  const matches: DnsEntry[] = [];
  for await (const page of client.pages<DnsEntry>('service', service.dnsList, {
    serviceName: zone,
    filterType: type,
  })) {
    matches.push(...page.items.filter((e) => e.type === type && entryMatchesHost(e.name, host, zone)));
  }
  return matches;
}

/** The address the API sees this machine calling from: the `server` source on the API path. */
export async function callerAddress(client: ApiClient): Promise<string> {
  return (await client.call('tool', tool.hello)).ip;
}
