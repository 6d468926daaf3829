// What `ddedge status --json` and the daemon's /status show: the cache, per record, sorted.
import type { ContainerName } from '../state/container-names.js';
import type { RecordState, State } from '../state/state.js';

export interface StatusDocument {
  stateDir: string;
  lastSuccessAt: string | null;
  lastCycleAt: string | null;
  records: RecordState[];
  /** With --containers: each name containers gave, from which containers, and its CNAME when it has one. */
  containers?: ContainerName[];
}

export const sortedRecords = (state: State): RecordState[] =>
  Object.values(state.records).sort((a, b) => `${a.host}/${a.type}`.localeCompare(`${b.host}/${b.type}`));

export function statusDocument(stateDir: string, state: State, containers?: ContainerName[]): StatusDocument {
  return {
    stateDir,
    lastSuccessAt: state.lastSuccessAt ?? null,
    lastCycleAt: state.lastCycleAt ?? null,
    records: sortedRecords(state),
    ...(containers ? { containers } : {}),
  };
}
