// What ddedge remembers between runs: per host and record type, the address last sent,
// when, how, and the last error. Written atomically (temp file + rename); a file that cannot
// be read back is reported and treated as empty, never trusted in part.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../atomic-write.js';
import type { RecordType } from '../ip/address.js';

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
  lastError?: string;
  lastErrorAt?: string;
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
}

export const emptyState = (): State => ({ version: 1, records: {} });
export const recordKey = (host: string, type: RecordType): string => `${host}/${type}`;
export const stateFile = (dir: string): string => join(dir, 'state.json');

export interface LoadedState {
  state: State;
  /** Set when the file existed but could not be used. */
  damage?: string;
}

export function readState(dir: string): LoadedState {
  let text: string;
  try {
    text = readFileSync(stateFile(dir), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: emptyState() };
    return { state: emptyState(), damage: `cannot read ${stateFile(dir)}: ${(error as NodeJS.ErrnoException).code}` };
  }
  try {
    const data = JSON.parse(text) as State;
    if (data?.version !== 1 || typeof data.records !== 'object' || data.records === null || Array.isArray(data.records)) throw new Error('unexpected shape');
    for (const record of Object.values(data.records)) {
      if (typeof record?.host !== 'string' || (record.type !== 'A' && record.type !== 'AAAA')) throw new Error('unexpected record');
    }
    return { state: data };
  } catch (error) {
    return { state: emptyState(), damage: `${stateFile(dir)} is damaged (${(error as Error).message}); starting from an empty cache` };
  }
}

export function writeState(dir: string, state: State): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileAtomic(stateFile(dir), JSON.stringify(state, null, 2) + '\n');
}
