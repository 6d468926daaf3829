// The audit journal: one JSON line per update the gateway applied, with the time, the key, the
// client's address, the zone and the changes, in <state dir>/gateway/journal.jsonl (the line's
// format: journal-line.ts; reading it back: journal-reader.ts). Bounded by time and per key
// (retention.ts): rotated generations kept 30 days, each key's lines
// within a daily budget, so one key's volume cannot push out the others'. Never a secret: a
// line holds names, types and record values, which anyone can query anyway. Opened with
// O_APPEND|O_NOFOLLOW so a planted link cannot point the writes elsewhere.
import { closeSync, constants, fstatSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../../lib/log.js';
import { describeFileType } from '../../lib/regular-file.js';
import type { Change } from '../../zone/plan/plan.js';
import { formatJournalLine, type JournalChange, type JournalMark } from './journal-line.js';
import { keyMayWrite, rotateIfFull } from './retention.js';

export interface JournalEntry {
  zone: string;
  key: string;
  client: string;
  changes: Change[];
  /**
   * Ties the lines of one batch of provider writes together: its intent before the first write, its result after
   * (batch-journal.ts).
   */
  mark?: JournalMark;
}

export function journalPath(stateDir: string): string {
  return join(stateDir, 'gateway', 'journal.jsonl');
}

/** Appends one line; a journal that cannot be written is reported by the caller, never stops an update already made. */
export function writeJournal(stateDir: string, entry: JournalEntry, now = new Date(), logger?: Logger): void {
  const path = journalPath(stateDir);
  mkdirSync(join(stateDir, 'gateway'), { recursive: true, mode: 0o700 });
  const changes = entry.changes.map(
    (c): JournalChange => ({
      action: c.action,
      name: (c.after ?? c.before)!.name,
      type: (c.after ?? c.before)!.type,
      ...(c.before ? { before: describe(c.before) } : {}),
      ...(c.after ? { after: describe(c.after) } : {}),
    }),
  );
  const { zone, mark, key, client } = entry;
  const line = formatJournalLine({ time: now.toISOString(), zone, mark, key, client, changes });
  // A result line closes an intent line already written (batch-journal.ts): it is never left
  // out, or the next start would take a finished batch for one cut short.
  const closesIntent = entry.mark !== undefined && 'result' in entry.mark;
  if (!closesIntent && !keyMayWrite(path, entry.key, Buffer.byteLength(line), now, logger)) return;
  rotateIfFull(path, now, logger);
  // Without waiting: a FIFO put in its place would otherwise hold the update until someone reads it.
  const fd = openSync(
    path,
    constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    0o600,
  );
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new Error(`${path} is ${describeFileType(stats)}, not a regular file`);
    writeSync(fd, line);
  } finally {
    closeSync(fd);
  }
}

function describe(r: { ttl?: number; priority?: number; value: string }): string {
  return [r.ttl ?? '-', r.priority, r.value].filter((p) => p !== undefined).join(' ');
}
