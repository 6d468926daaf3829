// What ddedge remembers between runs: per host and record type, the address last sent,
// when, how, and the last error. Written atomically (temp file + rename); a file that cannot
// be read back is reported and treated as empty, never trusted in part.
import { join } from 'node:path';
import { writeFileAtomic } from '../lib/atomic-write.js';
import type { RecordType } from '../lib/address.js';
import type { RecordBackoff } from './backoff.js';
import { damageReason } from './damage-reason.js';
import { readRegularFile } from '../lib/regular-file.js';
import { ensureStateDir } from './state-dir.js';

export type Via = 'dyndns' | 'api';

export interface RecordState {
  host: string;
  type: RecordType;
  /** The address the provider holds as far as ddedge knows. */
  address?: string;
  sentAt?: string;
  via?: Via;
  /** For a host behind the router: the IPv6 prefix its address was built from. */
  prefix?: string;
  /** The TTL sent with the address (--ttl), through the API. */
  ttl?: number;
  lastError?: string;
  lastErrorAt?: string;
  /** Set while the provider refuses this record: no request before `until` (see backoff.ts). */
  backoff?: RecordBackoff;
}

export interface State {
  version: 1;
  records: Record<string, RecordState>;
  /** End of the last cycle in which every record was current. */
  lastSuccessAt?: string;
  lastCycleAt?: string;
  lastCycleExitCode?: number;
  /** When the provider last changed a record because of ddedge. */
  lastChangeAt?: string;
  /** Failed records since the state was created, by kind (for the metrics' counters). */
  failures?: Record<string, number>;
  /** Provider calls made on the agent's own, by minute (see budget.ts). */
  calls?: Record<string, number>;
}

export const emptyState = (): State => ({ version: 1, records: {} });
export const recordKey = (host: string, type: RecordType): string => `${host}/${type}`;
export const stateFile = (dir: string): string => join(dir, 'state.json');

export interface LoadedState {
  state: State;
  /** Set when the file existed but could not be used. */
  damage?: string;
}

/**
 * Throws ConfigError when the file cannot be read (permissions) or is not a regular file (a
 * directory, a FIFO): unreadable is not empty, and an agent that forgot its call budget
 * could flood the provider.
 */
export function readState(dir: string): LoadedState {
  const text = readRegularFile(stateFile(dir));
  if (text === undefined) return { state: emptyState() };
  try {
    const data = JSON.parse(text) as State;
    if (data?.version !== 1 || typeof data.records !== 'object' || data.records === null || Array.isArray(data.records)) throw new Error('unexpected shape');
    for (const record of Object.values(data.records)) {
      if (typeof record?.host !== 'string' || (record.type !== 'A' && record.type !== 'AAAA')) throw new Error('unexpected record');
    }
    if (data.calls !== undefined && !isCountTable(data.calls)) throw new Error('unexpected call counts');
    return { state: data };
  } catch (error) {
    return { state: emptyState(), damage: `${stateFile(dir)} is damaged (${damageReason(error)}); starting from an empty cache` };
  }
}

const isCountTable = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((n) => typeof n === 'number' && Number.isFinite(n) && n >= 0);

export function writeState(dir: string, state: State): void {
  ensureStateDir(dir);
  writeFileAtomic(stateFile(dir), JSON.stringify(state, null, 2) + '\n');
}
