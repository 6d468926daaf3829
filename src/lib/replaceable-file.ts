// A file written whole and renamed into place replaces what its path holds, not what that leads
// to: as root, a rename onto /dev/null or /dev/stdout puts a regular file in place of the device or
// the link. Such writers ask first whether the path holds something that is no regular file.
import { lstatSync, type Stats, statSync } from 'node:fs';
import { describeFileType } from './regular-file.js';

/**
 * What `path` holds when it is there and no regular file ("a device", "a FIFO", "a symbolic link",
 * …); undefined when a rename may replace it. With `followLinks`, a link is judged by what it
 * leads to (a link to a regular file may be replaced). A path that cannot be looked at (through a
 * file, a folder not readable) is left to the write, which says why it cannot write there.
 */
export function notReplaceable(path: string, followLinks = false): string | undefined {
  let stats: Stats | undefined;
  try {
    stats = (followLinks ? statSync : lstatSync)(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
  if (stats === undefined || stats.isFile()) return undefined;
  return stats.isSymbolicLink() ? 'a symbolic link' : describeFileType(stats);
}
