// The zone as the provider keeps it, through the SDK: every page of service/dnslist, and the
// four writes a plan needs. Nothing else in zone/ knows the API's parameter names.
import type { ApiClient } from '../api/client.js';
import { PagingError } from '../api/errors.js';
import { service, type DnsEntry } from '../api/endpoints/service.js';
import { fromProvider, toProvider, type ProviderFields } from './provider-mapping.js';
import type { LiveRecord, ZoneRecord } from './record.js';

export interface ZoneProvider {
  list(): Promise<LiveRecord[]>;
  create(record: ZoneRecord): Promise<void>;
  update(entityID: string, record: ZoneRecord): Promise<void>;
  delete(entityID: string): Promise<void>;
  /** service/dnssetzone: the whole zone in one call. */
  setZone(records: ProviderFields[]): Promise<void>;
}

export function providerZone(client: ApiClient, serviceName: string): ZoneProvider {
  return {
    async list() {
      const records: LiveRecord[] = [];
      const seen = new Set<string>();
      for await (const entry of client.items<DnsEntry>('service', service.dnsList, { serviceName })) {
        const record = fromProvider(entry, serviceName);
        // Pages that overlap (the zone changed while it was listed) show an entry twice; a plan
        // from that list deletes, by its entity ID, a record the file keeps. Nothing is decided.
        if (seen.has(record.entityID)) throw new PagingError(`service/dnslist listed entity ${record.entityID} twice (${record.name} ${record.type}): the zone changed while it was read; nothing was changed, run it again`);
        seen.add(record.entityID);
        records.push(record);
      }
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
