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

export function notRegularFile(path: string, what: string): ConfigError {
  return new ConfigError(`${path} is ${what}, not a regular file; remove it (or choose another --state-dir)`);
}

/**
 * The text of a regular file, or undefined when it does not exist. Throws ConfigError when
 * the path is something else, is larger than `maxBytes`, or cannot be read (permissions):
 * unreadable is not empty. `noFollow`: a symbolic link is refused too (for files that are only
 * ever written by replacing them, so a link there was never put by their writer).
 */
export function readRegularFile(path: string, maxBytes = MAX_BYTES, options: { noFollow?: boolean } = {}): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY | (options.noFollow ? constants.O_NOFOLLOW : 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP' && options.noFollow) throw notRegularFile(path, 'a symbolic link');
    throw unreadable(path, code);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw notRegularFile(path, describeFileType(stats));
    if (stats.size > maxBytes) throw new ConfigError(`${path} is ${stats.size} bytes, too large to be ddedge's; remove it`);
    const buffer = Buffer.alloc(stats.size);
    let length = 0;
    // Bounded: a regular file yields its size in at most a few reads; stop at EOF or when full.
    while (length < buffer.length) {
      const read = readSync(fd, buffer, length, buffer.length - length, length);
      if (read === 0) break;
      length += read;
    }
    return buffer.subarray(0, length).toString('utf8');
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw unreadable(path, (error as NodeJS.ErrnoException).code);
  } finally {
    closeSync(fd);
  }
}

function unreadable(path: string, code: string | undefined): ConfigError {
  if (code === 'EISDIR') return notRegularFile(path, 'a directory');
  const why = code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (code ?? 'unknown error');
  return new ConfigError(`cannot read ${path}: ${why}${code && why !== code ? ` (${code})` : ''}; run as the user that owns the state directory or fix its permissions`);
}
