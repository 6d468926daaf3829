// Files in the state directory are read without ever blocking: a FIFO (or a device) put in
// place of state.json or the lock would otherwise hang the agent forever on open(). Anything
// that is not a regular file is refused with a message a person can act on.
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { ConfigError } from './errors.js';

/** The largest state or lock file read; a bigger one is not ours. */
const MAX_BYTES = 64 * 1024 * 1024;

export function describeFileType(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/**
 * A file that is refused: `reason` says why without the path or advice ("a FIFO, not a regular
 * file", "4294967296 bytes, too large to be ddedge's", "permission denied (EACCES)"), for a
 * caller that words the refusal its own way.
 */
export class RegularFileRefusal extends ConfigError {
  constructor(
    message: string,
    readonly reason: string,
  ) {
    super(message);
  }
}

export function notRegularFile(path: string, what: string): RegularFileRefusal {
  const reason = `${what}, not a regular file`;
  return new RegularFileRefusal(`${path} is ${reason}; remove it (or choose another --state-dir)`, reason);
}

export interface RegularFileOptions {
  /**
   * A symbolic link is refused too (for files that are only ever written by replacing them, so a
   * link there was never put by their writer).
   */
  noFollow?: boolean;
  /**
   * Checks the file as opened (its fstat) before a byte is read, and throws to refuse it: what is
   * checked is then the very file read, not one the path named a moment earlier.
   */
  vet?: (stats: Stats) => void;
  /** Opens the path (node:fs openSync); tests put a step between the open and the checks. */
  open?: (path: string, flags: number) => number;
}

/**
 * The text of a regular file, or undefined when it does not exist. Throws RegularFileRefusal
 * (a ConfigError) when the path is something else, is larger than `maxBytes`, or cannot be read
 * (permissions): unreadable is not empty.
 */
export function readRegularFile(
  path: string,
  maxBytes = MAX_BYTES,
  options: RegularFileOptions = {},
): string | undefined {
  return readRegularBytes(path, maxBytes, options)?.toString('utf8');
}

/** As readRegularFile, the bytes themselves: for a caller that holds them to a stricter rule than UTF-8 with U+FFFD. */
export function readRegularBytes(
  path: string,
  maxBytes = MAX_BYTES,
  options: RegularFileOptions = {},
): Buffer | undefined {
  return withRegularFile(path, options, (fd, size) => {
    const reason = `${size} bytes, too large to be ddedge's`;
    if (size > maxBytes) throw new RegularFileRefusal(`${path} is ${reason}; remove it`, reason);
    return readAt(fd, 0, size);
  });
}

/**
 * The last `bytes` bytes of a regular file (`cut` when the file holds more before them), or
 * undefined when it does not exist; refused as readRegularFile refuses, whatever its size.
 */
export function readRegularTail(
  path: string,
  bytes: number,
  options: RegularFileOptions = {},
): { text: string; cut: boolean } | undefined {
  return withRegularFile(path, options, (fd, size) => {
    const length = Math.min(size, bytes);
    return { text: readAt(fd, size - length, length).toString('utf8'), cut: size > length };
  });
}

/**
 * Opens `path` once, without blocking, checks on the descriptor that it is a regular file, and
 * gives it (and its size) to `read`.
 */
function withRegularFile<T>(
  path: string,
  options: RegularFileOptions,
  read: (fd: number, size: number) => T,
): T | undefined {
  const follow = options.noFollow ? constants.O_NOFOLLOW : 0;
  const flags = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY | follow;
  let fd: number;
  try {
    fd = (options.open ?? openSync)(path, flags);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP' && options.noFollow) throw notRegularFile(path, 'a symbolic link');
    throw unreadable(path, code);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw notRegularFile(path, describeFileType(stats));
    options.vet?.(stats);
    return read(fd, stats.size);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw unreadable(path, (error as NodeJS.ErrnoException).code);
  } finally {
    closeSync(fd);
  }
}

/** `length` bytes from `position`, from the descriptor; fewer when the file ends before. */
function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  let done = 0;
  // Bounded: a regular file yields its size in at most a few reads; stop at EOF or when full.
  while (done < buffer.length) {
    const read = readSync(fd, buffer, done, buffer.length - done, position + done);
    if (read === 0) break;
    done += read;
  }
  return buffer.subarray(0, done);
}

function unreadable(path: string, code: string | undefined): RegularFileRefusal {
  if (code === 'EISDIR') return notRegularFile(path, 'a directory');
  const why = code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (code ?? 'unknown error');
  const reason = `${why}${code && why !== code ? ` (${code})` : ''}`;
  const advice = 'run as the user that owns the state directory or fix its permissions';
  return new RegularFileRefusal(`cannot read ${path}: ${reason}; ${advice}`, reason);
}
