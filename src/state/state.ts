// What ddedge remembers between runs: per host and record type, the address last sent,
// when, how, and the last error. Written atomically (temp file + rename); a file that cannot
// be read back is reported (set aside by the cycle, which holds the lock) and treated as empty,
// never trusted in part.
import { join } from 'node:path';
import { writeFileAtomic } from '../lib/atomic-write.js';
import type { RecordType } from '../lib/address.js';
import type { RecordBackoff } from './backoff.js';
import { ensureStateDir } from './state-dir.js';
import { readStateFile, type StateFileType } from './state-file.js';
import { number, object, oneOf, optional, table, text, whole } from './shape.js';

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
  /**
   * The provider's entry the API last wrote the record to (its zone and entity ID): the next change through the API
   * updates it in one call, without listing the zone.
   */
  entity?: { zone: string; id: string };
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

const recordState = object({
  host: text,
  type: oneOf('A', 'AAAA'),
  address: optional(text),
  sentAt: optional(text),
  via: optional(oneOf('dyndns', 'api')),
  prefix: optional(text),
  ttl: optional(number(0)),
  entity: optional(object({ zone: text, id: text })),
  lastError: optional(text),
  lastErrorAt: optional(text),
  backoff: optional(object({ failures: number(0), until: text, exitCode: whole(0, 255), config: text })),
});

/**
 * Not a regular file, too large or unreadable: refused (ConfigError, exit 2), never read as
 * empty: an agent that forgot its call budget could flood the provider.
 */
const STATE_FILE: StateFileType<State> = {
  maxBytes: 64 * 1024 * 1024,
  refuse: 'unusable',
  shape: object({
    version: oneOf(1),
    records: table(recordState),
    lastSuccessAt: optional(text),
    lastCycleAt: optional(text),
    lastCycleExitCode: optional(whole(0, 255)),
    lastChangeAt: optional(text),
    failures: optional(table(number(0))),
    calls: optional(table(number(0))),
  }),
};

/**
 * Reads the state. A damaged file is reported and treated as empty, and set aside as
 * state.json.damaged when `setAside` (the cycle, which holds the lock). Throws ConfigError when
 * the file cannot be read (permissions), is not a regular file (a directory, a FIFO, a link) or
 * is too large.
 */
export function readState(dir: string, setAside = false): LoadedState {
  const loaded = readStateFile(stateFile(dir), STATE_FILE, { setAside });
  if (loaded.damage) return { state: emptyState(), damage: `${loaded.damage}; starting from an empty cache` };
  return { state: loaded.value ?? emptyState() };
}

export function writeState(dir: string, state: State): void {
  ensureStateDir(dir);
  writeFileAtomic(stateFile(dir), JSON.stringify(state, null, 2) + '\n');
}
