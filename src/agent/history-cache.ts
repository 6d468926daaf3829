// The status page reads the history at every request, and the file changes once a cycle at
// most: it is parsed once per version of the file. A version is the file's inode, size and
// modification time in nanoseconds; every write of the history is a new file renamed into
// place (fs/atomic), so a write is a new inode even within the same nanosecond tick.
// Without this, each request parsed ~100 KB of JSON into a thousand objects that lived just
// long enough to be promoted to the old generation: a daemon's page served in a loop grew.
import { statSync } from 'node:fs';
import { historyFile, readHistory, type LoadedHistory } from '../state/history.js';

let last: { version: string; loaded: LoadedHistory } | undefined;

/**
 * The history as readHistory gives it (never set aside: only the cycle does that); the same object while the file is
 * unchanged.
 */
export function readHistoryOnce(dir: string): LoadedHistory {
  const version = versionOf(historyFile(dir));
  if (version !== undefined && last?.version === version) return last.loaded;
  const loaded = readHistory(dir);
  // A damaged file is read again each time: its report should follow the file.
  last = version !== undefined && !loaded.damage ? { version, loaded } : undefined;
  return loaded;
}

function versionOf(path: string): string | undefined {
  try {
    const stat = statSync(path, { bigint: true });
    return `${path}\0${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}`;
  } catch {
    return undefined;
  }
}
