// Reading the journal back: the whole of a file (the start's look for unfinished batches, each
// key's bytes of the day) or its tail (the status page). Through the state layer's reader: opened
// once without following a link or blocking, a regular file of a bounded size, so a FIFO or a
// runaway file in its place neither hangs nor exhausts the gateway. Lines are parsed here only
// (journal-line.ts); a line cut by a crash is no line.
import { readRegularTail } from '../../lib/regular-file.js';
import { readStateText } from '../../state/state-file.js';
import { JOURNAL_READ_BYTES, parseJournalLine, type JournalLine } from './journal-line.js';

/**
 * The lines of a journal file as text (undefined when it is missing), for a reader that looks at
 * most lines without parsing them (markOf, writtenOn). Throws RegularFileRefusal (a ConfigError
 * naming the file) when it is not a regular file, is too large or cannot be read.
 */
export function readJournalText(path: string): string[] | undefined {
  const text = readStateText(path, JOURNAL_READ_BYTES);
  return text === undefined ? undefined : text.split('\n').filter(Boolean);
}

/**
 * The whole lines among the last `bytes` of a journal file, parsed, oldest first; none when it is
 * missing or cannot be read.
 */
export function readJournalTail(path: string, bytes: number): JournalLine[] {
  let tail: { text: string; cut: boolean } | undefined;
  try {
    tail = readRegularTail(path, bytes, { noFollow: true });
  } catch {
    return [];
  }
  if (!tail) return [];
  // The first line of a tail that starts within the file is a part of one.
  const lines = tail.text.split('\n').slice(tail.cut ? 1 : 0);
  return lines.flatMap((line) => {
    const parsed = line ? parseJournalLine(line) : undefined;
    return parsed ? [parsed] : [];
  });
}
