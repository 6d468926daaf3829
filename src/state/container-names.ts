// The names containers gave the agent, kept beside its state (<state dir>/containers.json) and
// written the same way (temporary file + rename, under the cycle's lock): which containers gave
// each name and until when a stopped one's names are held, what the agent holds for a CNAME, and
// above all which records ddedge created for a container. Only those are ever deleted: a record
// is written down here before the call that creates it, so a crash between the two leaves a
// record ddedge may delete (it made it, or it is absent), never one it made and forgot. A name
// that held records before a container gave it is remembered so, and never deleted. A damaged
// file is set aside and read as empty: ddedge then owns nothing, and so deletes nothing.
import { join } from 'node:path';
import { writeFileAtomic } from '../lib/atomic-write.js';
import { ensureStateDir } from './state-dir.js';
import { readStateFile, type StateFileType } from './state-file.js';
import type { RecordBackoff } from './backoff.js';
import { list, number, object, oneOf, optional, ShapeError, text, whole, type Shape } from './shape.js';

export interface ContainerName {
  name: string;
  /** The containers that gave it, as the page and `status` name them. */
  containers: string[];
  /** ddedge.target: a CNAME to it. */
  target?: string;
  /** When it came (the first cycle that kept it). */
  since: string;
  /** Set while no running container gives it: when its grace ends. */
  heldUntil?: string;
  /** The name held records before a container gave it: left as it is when it goes. */
  heldBefore?: true;
  /** What the provider holds for its CNAME as far as ddedge knows, and when it was sent. */
  cname?: { value: string; sentAt: string };
  /** Set while the provider refuses its records: no request before `until` (see backoff.ts). */
  backoff?: RecordBackoff;
  /** The refusal its backoff waits on, for the message of a cycle that skips it. */
  lastError?: string;
}

/** A record ddedge created for a container: the only kind it ever deletes. */
export interface OwnedRecord {
  name: string;
  type: string;
  value: string;
  createdAt: string;
}

export interface ContainerNamesFile {
  version: 1;
  names: ContainerName[];
  owned: OwnedRecord[];
}

const FILE_NAME = 'containers.json';
export const containerNamesFile = (dir: string): string => join(dir, FILE_NAME);
const emptyContainerNames = (): ContainerNamesFile => ({ version: 1, names: [], owned: [] });

/** A flag written only when set. */
const yes: Shape<true> = (value, at) => {
  if (value === true) return true;
  throw new ShapeError(`${at} is not true`);
};

const CONTAINER_NAMES_FILE: StateFileType<ContainerNamesFile> = {
  // Thousands of names with their containers; a larger file is not ours.
  maxBytes: 8 * 1024 * 1024,
  shape: object({
    version: oneOf(1),
    names: list(
      object({
        name: text,
        containers: list(text),
        target: optional(text),
        since: text,
        heldUntil: optional(text),
        heldBefore: optional(yes),
        cname: optional(object({ value: text, sentAt: text })),
        backoff: optional(object({ failures: number(0), until: text, exitCode: whole(0, 255), config: text })),
        lastError: optional(text),
      }),
    ),
    owned: list(object({ name: text, type: text, value: text, createdAt: text })),
  }),
};

export interface LoadedContainerNames {
  file: ContainerNamesFile;
  damage?: string;
}

/** Reads the list; a damaged file is reported, read as empty, and set aside when `setAside` (the cycle). */
export function readContainerNames(dir: string, setAside = false): LoadedContainerNames {
  const loaded = readStateFile(containerNamesFile(dir), CONTAINER_NAMES_FILE, { setAside });
  if (loaded.damage)
    return {
      file: emptyContainerNames(),
      damage: `${loaded.damage}; no record is known as made for a container, so none is deleted`,
    };
  return { file: loaded.value ?? emptyContainerNames() };
}

export function writeContainerNames(dir: string, file: ContainerNamesFile): void {
  ensureStateDir(dir);
  writeFileAtomic(containerNamesFile(dir), JSON.stringify(file, null, 2) + '\n');
}
