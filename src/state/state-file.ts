// How the gateway reads the files it keeps in <state dir>/gateway/ (owners, serials, replay
// memory, the journal): through the state layer's reader, which opens without blocking or
// following a link and refuses before reading anything that is not a regular file of a bounded
// size, so a FIFO, a link to /dev/zero or a runaway file put there can neither hang the start
// nor exhaust memory. The gateway writes these files by replacing them (or appending with
// O_NOFOLLOW): a link there was never put by it.
// A file that cannot be used is set aside and said in the log, never read as empty and then
// written over (it may hold another gateway's zones).
import { damageReason } from './damage-reason.js';
import { readRegularFile } from '../lib/regular-file.js';
import { setAsideDamaged } from './set-aside.js';

export interface LoadedFile<T> {
  /** What the file held; undefined when it is missing or could not be used. */
  value?: T;
  /** When it could not be used: why and what became of it, naming the file, for the log. */
  damage?: string;
  /** The text of a file that was read but not understood (something may yet be salvaged from it). */
  text?: string;
}

/** Reads and parses `path`; one that cannot be used is set aside as `<path>.damaged`. */
export function loadStateFile<T>(path: string, maxBytes: number, parse: (text: string) => T): LoadedFile<T> {
  let text: string | undefined;
  try {
    text = readRegularFile(path, maxBytes, { noFollow: true });
  } catch (error) {
    return { damage: `${path} cannot be used (${reasonOf(error, path)}); ${setAsideDamaged(path).words}` };
  }
  if (text === undefined) return {};
  try {
    return { value: parse(text) };
  } catch (error) {
    return { damage: `${path} is damaged (${damageReason(error)}); ${setAsideDamaged(path).words}`, text };
  }
}

/**
 * The text of `path`, undefined when it is missing; throws (ConfigError, naming the file) when it
 * is not a regular file, is larger than `maxBytes` or cannot be read.
 */
export function readStateText(path: string, maxBytes: number): string | undefined {
  return readRegularFile(path, maxBytes, { noFollow: true });
}

/** The reader's message without the path it starts with, and without its advice (we act on it here). */
function reasonOf(error: unknown, path: string): string {
  const message = (error as Error).message;
  return (message.startsWith(`${path} `) ? message.slice(path.length + 1) : message).split(';')[0]!;
}
