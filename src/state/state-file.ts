// The one reader of every JSON state file (the agent's state, history and ACME challenges; the
// gateway's calls, owners, serials, replay memory and DHCID records). It opens the file once,
// without following a link and without blocking (lib/regular-file.ts), checks on the descriptor
// that it is a regular file of a bounded size, reads from that descriptor, parses, and runs the
// shape check its file type declares: a FIFO, a link to /dev/zero or a runaway file can neither
// hang a command nor exhaust memory, and a field of the wrong type is never half-trusted. Each
// file is written by replacing it: a link there was never put by its writer.
//
// Damage is reported in one form, `<file> is damaged (<reason>); <what became of it>`, whose
// reason never quotes the file (V8's JSON errors do: a state file that is a link to a key file
// would print the key). What becomes of a damaged file is the file type's decision:
// - set aside as `<file>.damaged` (by a caller that may write the file: it holds its lock, or it
//   alone writes it) and read as missing: never read as empty and then written over, since it
//   may hold what another process still needs, and its loss would go unseen;
// - refused (ConfigError, exit 2, the file left in place) where going on without it would harm
//   the user more than stopping: `refuse: 'always'` for any damage, `refuse: 'unusable'` only
//   for a file that cannot be read at all (not a regular file, too large, no permission). A file
//   refused for that is said in lib/regular-file.ts's words, as the lock file is (`<file> is a
//   FIFO, not a regular file; remove it …`): the same words whichever file of the directory it is.
import { readRegularFile, RegularFileRefusal } from '../lib/regular-file.js';
import { ConfigError } from '../lib/errors.js';
import { setAsideDamaged } from './set-aside.js';
import { ShapeError, type Shape } from './shape.js';

export interface StateFileType<T> {
  /** A larger file is not one its writer wrote (each write keeps well within it). */
  maxBytes: number;
  /** The file's shape, every field of it. */
  shape: Shape<T>;
  /** When damage stops the caller rather than being set aside (see above); never, unless said. */
  refuse?: 'unusable' | 'always';
  /** For `refuse: 'always'`: what a person should do, after the damage line. */
  advice?: string;
}

export interface LoadedStateFile<T> {
  /** What the file held; undefined when it is missing or damaged. */
  value?: T;
  /** When it was damaged: the one line that says so, naming the file, for the log or the output. */
  damage?: string;
  /** The text of a damaged file that was read (something may yet be salvaged from it). */
  text?: string;
}

export interface ReadOptions {
  /** Set a damaged file aside; false for a reader that only reports (it may not write the file). */
  setAside: boolean;
}

/** Reads `path` as a state file of `type`; missing is `{}`, damage is reported (and set aside or refused). */
export function readStateFile<T>(path: string, type: StateFileType<T>, options: ReadOptions): LoadedStateFile<T> {
  let text: string | undefined;
  try {
    text = readRegularFile(path, type.maxBytes, { noFollow: true });
  } catch (error) {
    if (!(error instanceof RegularFileRefusal) || type.refuse) throw error;
    return { damage: damaged(path, error.reason, options) };
  }
  if (text === undefined) return {};
  try {
    return { value: type.shape(JSON.parse(text), '') };
  } catch (error) {
    const reason = reasonOf(error);
    if (type.refuse === 'always') throw new ConfigError(damageLine(path, reason, type.advice));
    return { damage: damaged(path, reason, options), text };
  }
}

/** The one line that says a state file is damaged: why, and what became of it. */
function damageLine(path: string, reason: string, fate?: string): string {
  return `${path} is damaged (${reason})${fate ? `; ${fate}` : ''}`;
}

function damaged(path: string, reason: string, options: ReadOptions): string {
  return damageLine(path, reason, options.setAside ? setAsideDamaged(path).words : undefined);
}

/** Why the content cannot be used, safe to print: a position in the text, or the shape check's own words. */
function reasonOf(error: unknown): string {
  if (error instanceof ShapeError) return error.message;
  if (error instanceof SyntaxError) {
    const position = /at position (\d+)/.exec(error.message)?.[1];
    return `not valid JSON${position ? ` at position ${position}` : ''}`;
  }
  // Nothing else is thrown by a parse and a shape check; its words are not printed all the same.
  return 'not readable as this file';
}

/**
 * The text of `path` (a state file that is not one JSON value, as the journal), undefined when
 * it is missing; throws RegularFileRefusal (naming the file) when it is not a regular file, is
 * larger than `maxBytes` or cannot be read.
 */
export function readStateText(path: string, maxBytes: number): string | undefined {
  return readRegularFile(path, maxBytes, { noFollow: true });
}
