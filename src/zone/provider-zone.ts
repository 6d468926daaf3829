// The zone as the provider keeps it, through the SDK: every page of service/dnslist (with the
// proof that it is all of them), and the four writes a plan needs. Nothing else in zone/ knows
// the API's parameter names.
import type { ApiClient } from '../api/client.js';
import type { QueryInfo } from '../api/endpoints/types.js';
import { service, type DnsEntry } from '../api/endpoints/service.js';
import { fromProvider, toProvider, type ProviderFields } from './provider-mapping.js';
import type { LiveRecord, ZoneRecord } from './record.js';
import { IncompleteListingError, listAll } from './zone-listing.js';

export interface ZoneProvider {
  /** Every entry, with the reason when the listing is not known to be complete (a plan may still be shown). */
  listing(): Promise<ZoneListing>;
  /** Every entry of a listing known to be complete; otherwise an IncompleteListingError (exit 4). */
  list(): Promise<LiveRecord[]>;
  create(record: ZoneRecord): Promise<void>;
  update(entityID: string, record: ZoneRecord): Promise<void>;
  delete(entityID: string): Promise<void>;
  /** service/dnssetzone: the whole zone in one call. */
  setZone(records: ProviderFields[]): Promise<void>;
}

export interface ZoneListing {
  records: LiveRecord[];
  incomplete?: string;
  /** service/dnslist calls made. */
  pages: number;
}

export function providerZone(client: ApiClient, serviceName: string): ZoneProvider {
  const listing = async (): Promise<ZoneListing> => {
    // Our own paging, not the SDK's: a zone needs proof that the listing is whole (zone-listing.ts).
    // Each page is mapped as it comes: the provider's entries are left young, and the garbage
    // collector never carries 100,000 of them into the old generation beside the records.
    const fetchPage = async (page: number, pageLength: number) => {
      const data = await client.call('service', service.dnsList, { serviceName, page, pageLength });
      return { items: (data.dns ?? []).map((entry: DnsEntry) => fromProvider(entry, serviceName)), total: (data.queryInfo as Partial<QueryInfo> | undefined)?.total };
    };
    const { items, incomplete, pages } = await listAll<LiveRecord>(fetchPage, (r) => r.entityID, `service/dnslist`);
    return { records: items, incomplete, pages };
  };
  return {
    listing,
    async list() {
      const { records, incomplete } = await listing();
      if (incomplete) throw new IncompleteListingError(incomplete);
      return records;
    },
    async create(record) {
      await client.call('service', service.dnsCreate, { serviceName, ...toProvider(record) });
    },
    async update(entityID, record) {
      const { value, ttl, priority } = toProvider(record);
      await client.call('service', service.dnsUpdate, { serviceName, entityID, value, ...(ttl !== undefined ? { ttl } : {}), ...(priority !== undefined ? { priority } : {}) });
    },
    async delete(entityID) {
      await client.call('service', service.dnsDelete, { serviceName, entityID });
    },
    async setZone(records) {
      await client.call('service', service.dnsSetZone, { serviceName, records });
    },
  };
}
