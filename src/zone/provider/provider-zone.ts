// The zone as the provider keeps it, through the SDK: every page of service/dnslist (with the
// proof that it is all of them), the entries at a few names (its `filter`), and the four writes
// a plan needs. Nothing else in zone/ knows the API's parameter names.
import type { ApiClient } from '../../api/client.js';
import type { QueryInfo } from '../../api/endpoints/types.js';
import { service, type DnsEntry } from '../../api/endpoints/service.js';
import { fromProvider, toProvider, type ProviderFields } from './provider-mapping.js';
import type { LiveRecord, ZoneRecord } from '../record.js';
import { IncompleteListingError, listAll } from './zone-listing.js';
import { readKnownEntry, type KnownRecords } from './known-records.js';

export interface ZoneProvider {
  /**
   * Every entry, with the reason when the listing is not known to be complete (a plan may still be shown). An entry
   * equal to one of the `known` records holds that record's strings (known-records.ts).
   */
  listing(options?: { known?: KnownRecords }): Promise<ZoneListing>;
  /** Every entry of a listing known to be complete; otherwise an IncompleteListingError (exit 4). */
  list(): Promise<LiveRecord[]>;
  /**
   * Every entry at exactly these names (full names, as LiveRecord names them), read afresh, one
   * filtered listing per name, each proved complete as list() proves the zone's; otherwise an
   * IncompleteListingError. With `allowance`, the pages the listings may take in all: a name
   * whose filter matches more than is left (its first page tells its total) ends the reading
   * with a BroadFilterError, and the caller reads the whole zone instead.
   */
  listNames(names: Iterable<string>, allowance?: PageAllowance): Promise<LiveRecord[]>;
  create(record: ZoneRecord): Promise<void>;
  update(entityID: string, record: ZoneRecord): Promise<void>;
  delete(entityID: string): Promise<void>;
  /** service/dnssetzone: the whole zone in one call. */
  setZone(records: ProviderFields[]): Promise<void>;
}

/**
 * Pages the filtered listings of one reading may take; each name's first page tells how many it needs, and those are
 * taken from `left`.
 */
interface PageAllowance {
  left: number;
}

/**
 * A name's filtered listing would take more pages than its reading was allowed (the filter matches much of the zone).
 */
export class BroadFilterError extends Error {
  constructor(
    readonly filter: string,
    readonly pages: number,
  ) {
    super(`service/dnslist (filter ${filter}) matches ${pages} pages of entries`);
  }
}

/** Filtered listings read at once: the provider's limit of simultaneous connections. */
const LIST_CONNECTIONS = 3;

export interface ZoneListing {
  records: LiveRecord[];
  /**
   * The records whose name or value is not canonical as the provider lists it (provider-mapping.ts); the others need
   * no second reading by the unwritable check. Unset: not known, every record is read again.
   */
  notAsListed?: ReadonlySet<LiveRecord>;
  incomplete?: string;
  /** service/dnslist calls made. */
  pages: number;
}

/** A page's entries as records, sharing the strings of the known records they equal. */
const entryReader = (zone: string, known: KnownRecords | undefined, notAsListed: Set<LiveRecord>) =>
  known
    ? (entry: DnsEntry) => readKnownEntry(entry, zone, known, notAsListed)
    : (entry: DnsEntry) => fromProvider(entry, zone, notAsListed);

export function providerZone(client: ApiClient, serviceName: string): ZoneProvider {
  const listing = async (filter?: string, allowance?: PageAllowance, known?: KnownRecords): Promise<ZoneListing> => {
    // Our own paging, not the SDK's: a zone needs proof that the listing is whole (zone-listing.ts).
    // Each page is mapped as it comes: the provider's entries are left young, and the garbage
    // collector never carries 100,000 of them into the old generation beside the records.
    const notAsListed = new Set<LiveRecord>();
    const read = entryReader(serviceName, known, notAsListed);
    const fetchPage = async (page: number, pageLength: number) => {
      const data = await client.call('service', service.dnsList, {
        serviceName,
        page,
        pageLength,
        ...(filter === undefined ? {} : { filter }),
      });
      const total = (data.queryInfo as Partial<QueryInfo> | undefined)?.total;
      if (page === 1 && allowance && filter !== undefined) {
        // The first page was paid for already; the rest must fit what is left, else nothing more is read.
        const pages = typeof total === 'number' && total > 0 ? Math.ceil(total / pageLength) : 1;
        if (pages - 1 > allowance.left) throw new BroadFilterError(filter, pages);
        allowance.left -= pages - 1;
      }
      return { items: (data.dns ?? []).map(read), total };
    };
    const { items, incomplete, pages } = await listAll<LiveRecord>(
      fetchPage,
      (r) => r.entityID,
      filter === undefined ? 'service/dnslist' : `service/dnslist (filter ${filter})`,
    );
    return { records: items, notAsListed, incomplete, pages };
  };
  return {
    listing: (options) => listing(undefined, undefined, options?.known),
    async list() {
      const { records, incomplete } = await listing();
      if (incomplete) throw new IncompleteListingError(incomplete);
      return records;
    },
    async listNames(names, allowance) {
      const queue = [...new Set(names)];
      const byName = new Map<string, LiveRecord[]>();
      // The spec gives `filter` no more meaning than a filter on the name; the sandbox (and the
      // provider, as far as is known) matches entries whose name contains it. Only entries at
      // exactly the name count, so a filter that matches more (xwww for www, or every name for
      // the apex) or one the provider ignores costs calls, never a wrong answer.
      const readOne = async (name: string) => {
        if (allowance && allowance.left <= 0) throw new BroadFilterError(name, 1);
        if (allowance) allowance.left--;
        const { records: listed, incomplete } = await listing(name, allowance);
        if (incomplete) throw new IncompleteListingError(incomplete);
        byName.set(
          name,
          listed.filter((r) => r.name === name),
        );
      };
      // As many at once as the provider allows connections (3); the first failure ends the reading.
      const workers = Array.from({ length: Math.min(LIST_CONNECTIONS, queue.length) }, async () => {
        try {
          for (let name = queue.shift(); name !== undefined; name = queue.shift()) await readOne(name);
        } catch (error) {
          queue.length = 0;
          throw error;
        }
      });
      await Promise.all(workers);
      return [...byName.values()].flat();
    },
    async create(record) {
      await client.call('service', service.dnsCreate, { serviceName, ...toProvider(record) });
    },
    async update(entityID, record) {
      const { value, ttl, priority } = toProvider(record);
      await client.call('service', service.dnsUpdate, {
        serviceName,
        entityID,
        value,
        ...(ttl !== undefined ? { ttl } : {}),
        ...(priority !== undefined ? { priority } : {}),
      });
    },
    async delete(entityID) {
      await client.call('service', service.dnsDelete, { serviceName, entityID });
    },
    async setZone(records) {
      await client.call('service', service.dnsSetZone, { serviceName, records });
    },
  };
}
