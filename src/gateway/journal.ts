// The audit journal: one JSON line per update the gateway applied, with the time, the key, the
// client's address, the zone and the changes, in <state dir>/gateway/journal.jsonl. Bounded:
// past MAX_BYTES the file is rotated to journal.jsonl.1 (one old file kept). Never a secret: a
// line holds names, types and record values, which anyone can query anyway. Opened with
// O_APPEND|O_NOFOLLOW so a planted link cannot point the writes elsewhere.
import { closeSync, constants, mkdirSync, openSync, renameSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Change } from '../zone/plan.js';

const MAX_BYTES = 4 * 1024 * 1024;

export interface JournalEntry {
  zone: string;
  key: string;
  client: string;
  changes: Change[];
  /** Ties the lines of one batch of provider writes together: its intent before the first write, its result after (batch-journal.ts). */
  mark?: Record<string, unknown>;
}

export function journalPath(stateDir: string): string {
  return join(stateDir, 'gateway', 'journal.jsonl');
}

/** Appends one line; a journal that cannot be written is reported by the caller, never stops an update already made. */
export function writeJournal(stateDir: string, entry: JournalEntry, now = new Date()): void {
  const path = journalPath(stateDir);
  mkdirSync(join(stateDir, 'gateway'), { recursive: true, mode: 0o700 });
  try {
    if (statSync(path).size > MAX_BYTES) renameSync(path, `${path}.1`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const changes = entry.changes.map((c) => ({
    action: c.action,
    name: (c.after ?? c.before)!.name,
    type: (c.after ?? c.before)!.type,
    ...(c.before ? { before: describe(c.before) } : {}),
    ...(c.after ? { after: describe(c.after) } : {}),
  }));
  const line = `${JSON.stringify({ time: now.toISOString(), zone: entry.zone, ...entry.mark, key: entry.key, client: entry.client, changes })}\n`;
  const fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
  try {
    writeSync(fd, line);
  } finally {
    closeSync(fd);
  }
}

function describe(r: { ttl?: number; priority?: number; value: string }): string {
  return [r.ttl ?? '-', r.priority, r.value].filter((p) => p !== undefined).join(' ');
}
