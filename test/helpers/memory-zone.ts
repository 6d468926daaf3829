// A zone as a provider keeps it, in memory: the ZoneProvider the gateway's batches and the zone
// engine call, with every call recorded in order and faults a test can ask for. A write may be
// refused (nothing changes, the provider's refusal of the value), failed (nothing changes, the
// provider's own trouble), not sent (nothing changes, the connection was reset before it) or
// have its answer lost (made, then a timeout): as zone/apply/apply.ts tells them apart. A read
// may fail, and reads may be held until a test lets them go.
import { ApiError } from '../../src/api/errors.js';
import { TransportError } from '../../src/http/errors.js';
import type { ProviderFields } from '../../src/zone/provider/provider-mapping.js';
import type { ZoneListing, ZoneProvider } from '../../src/zone/provider/provider-zone.js';
import type { LiveRecord, ZoneRecord } from '../../src/zone/record.js';

export type WriteFault = 'refused' | 'failed' | 'not sent' | 'answer lost';

/** One write as the provider was asked it. */
export interface WriteCall {
  call: 'create' | 'update' | 'delete';
  name: string;
  type: string;
  value: string;
}

/** The provider's refusal of a value (kind `refused`), as the API answers it. */
const refusal = (): ApiError => new ApiError(2100, 'invalid value', [], 'service/dnsadd');

export class MemoryZone implements ZoneProvider {
  /** Every call, in order: `list`, `listNames a,b`, `create NAME TYPE VALUE`, `update ID …`, `delete ID`. */
  readonly calls: string[] = [];
  /** Decides a fault for each write (none: it is made). */
  onWrite?: (write: WriteCall) => WriteFault | undefined;
  /** Why a read fails (none: it is answered). */
  onRead?: () => Error | undefined;
  /** While set, reads wait for it. */
  hold?: Promise<void>;
  private records: LiveRecord[];
  private nextId = 1;

  constructor(records: Omit<LiveRecord, 'entityID'>[] = []) {
    this.records = records.map((r) => ({ ...r, entityID: this.newId() }));
  }

  /** What the provider holds now, as `NAME TYPE VALUE` lines, sorted. */
  held(): string[] {
    return this.records.map((r) => `${r.name} ${r.type} ${r.value}`).sort();
  }

  /** The records the provider holds now. */
  get live(): LiveRecord[] {
    return this.records.map((r) => ({ ...r }));
  }

  /** The writes asked so far (reads left out). */
  writes(): string[] {
    return this.calls.filter((c) => /^(create|update|delete) /.test(c));
  }

  async listing(): Promise<ZoneListing> {
    return { records: await this.list(), pages: 1 };
  }

  async list(): Promise<LiveRecord[]> {
    await this.read('list');
    return this.live;
  }

  async listNames(names: Iterable<string>): Promise<LiveRecord[]> {
    const wanted = new Set(names);
    await this.read(`listNames ${[...wanted].join(',')}`);
    return this.live.filter((r) => wanted.has(r.name));
  }

  async create(record: ZoneRecord): Promise<void> {
    this.write(`create ${record.name} ${record.type} ${record.value}`, { call: 'create', ...record }, () => {
      this.records.push({ ...record, entityID: this.newId() });
    });
  }

  async update(entityID: string, record: ZoneRecord): Promise<void> {
    this.write(
      `update ${entityID} ${record.name} ${record.type} ${record.value}`,
      { call: 'update', ...record },
      () => {
        this.records = this.records.map((r) => (r.entityID === entityID ? { ...record, entityID } : r));
      },
    );
  }

  async delete(entityID: string): Promise<void> {
    const gone = this.records.find((r) => r.entityID === entityID);
    this.write(
      `delete ${entityID}`,
      { call: 'delete', name: gone?.name ?? '', type: gone?.type ?? '', value: gone?.value ?? '' },
      () => {
        if (!gone) throw new ApiError(4001, 'no such entry', [], 'service/dnsdelete');
        this.records = this.records.filter((r) => r.entityID !== entityID);
      },
    );
  }

  async setZone(records: ProviderFields[]): Promise<void> {
    this.calls.push(`setZone ${records.length}`);
    throw new Error('the in-memory zone does not take service/dnssetzone');
  }

  private newId(): string {
    return `e${this.nextId++}`;
  }

  private async read(call: string): Promise<void> {
    this.calls.push(call);
    await this.hold;
    const error = this.onRead?.();
    if (error) throw error;
  }

  private write(call: string, write: WriteCall, make: () => void): void {
    this.calls.push(call);
    const fault = this.onWrite?.(write);
    if (fault === 'refused') throw refusal();
    if (fault === 'failed') throw new ApiError(2003, 'service unavailable', [], 'service/dnsadd');
    if (fault === 'not sent')
      throw new TransportError('connection', 'the connection was reset', 'https://provider.invalid/');
    make();
    if (fault === 'answer lost')
      throw new TransportError('timeout', 'no answer within the timeout', 'https://provider.invalid/');
  }
}
