// How long the audit journal keeps its lines, and what one key may put in it. The history is
// bounded by time, not by what the busiest key writes: journal.jsonl is rotated past
// JOURNAL_FILE_BYTES to journal.jsonl.1 (the older ones shift to .2, .3, …), and a generation goes
// only when its newest line is older than RETENTION_DAYS, or past MAX_GENERATIONS files (a disk
// bound no normal use reaches). Each key may add KEY_BYTES_PER_DAY a day; past that its lines
// are left out for the rest of the day, said once in the log (each change is still logged as it
// is made). 45 updates of 1,000 deletes from one key once rotated the single old file twice
// and erased every earlier line, other keys' included.
import { readdirSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Logger } from '../../lib/log.js';
import { JOURNAL_FILE_BYTES, parseJournalLine, writtenOn } from './journal-line.js';
import { readJournalText } from './journal-reader.js';

const RETENTION_DAYS = 30;
/** 64 files of 4 MiB: 256 MiB, room for four keys writing their whole budget every day for 30 days. */
export const MAX_GENERATIONS = 64;
/** About 8,000 lines of a one-record change a day per key: far more than a DHCP server or ACME client changes. */
export const KEY_BYTES_PER_DAY = 2 * 1024 * 1024;

const DAY_MS = 86_400_000;

/** Bytes each key wrote today, per journal path (one gateway process usually has one). */
const written = new Map<string, { day: string; bytes: Map<string, number>; told: Set<string> }>();

/** Whether `key` may add a line of `bytes` today; says in the log the first time it may not. */
export function keyMayWrite(path: string, key: string, bytes: number, now: Date, logger?: Logger): boolean {
  const day = now.toISOString().slice(0, 10);
  let today = written.get(path);
  if (!today || today.day !== day) {
    today = { day, bytes: bytesWrittenOn(path, day, logger), told: new Set() };
    written.set(path, today);
  }
  const used = today.bytes.get(key) ?? 0;
  if (used + bytes > KEY_BYTES_PER_DAY) {
    if (!today.told.has(key)) {
      today.told.add(key);
      logger?.warn(
        `gateway: journal: key ${key} has written ${mib(used)} MiB to ${basename(path)} today, its budget of ` +
          `${mib(KEY_BYTES_PER_DAY)} MiB a day; its further changes today are left out of the journal (each is ` +
          `still in this log as "key ${key} changed"), so that the other keys' history stays`,
      );
    }
    return false;
  }
  today.bytes.set(key, used + bytes);
  return true;
}

/** Rotates `path` when it is full: generations past their age or past MAX_GENERATIONS go, said in the log. */
export function rotateIfFull(path: string, now: Date, logger?: Logger): void {
  let size: number;
  try {
    size = statSync(path).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (size <= JOURNAL_FILE_BYTES) return;
  const oldest = now.getTime() - RETENTION_DAYS * DAY_MS;
  const generations = generationsOf(path);
  for (const n of generations) {
    const file = `${path}.${n}`;
    const newest = statSync(file).mtimeMs;
    if (newest < oldest) {
      unlinkSync(file);
      logger?.info(
        `gateway: journal: removed ${basename(file)}, whose newest line (${new Date(newest).toISOString()}) is ` +
          `older than ${RETENTION_DAYS} days`,
      );
    }
  }
  // Highest first, so no rename lands on a file not yet moved.
  const kept = generationsOf(path).reverse();
  for (const n of kept) {
    const file = `${path}.${n}`;
    if (n + 1 > MAX_GENERATIONS) {
      logger?.warn(
        `gateway: journal: dropped ${basename(file)} (lines up to ` +
          `${new Date(statSync(file).mtimeMs).toISOString()}), younger than ${RETENTION_DAYS} days, to stay within ` +
          `${MAX_GENERATIONS} files of ${mib(JOURNAL_FILE_BYTES)} MiB`,
      );
      unlinkSync(file);
    } else renameSync(file, `${path}.${n + 1}`);
  }
  renameSync(path, `${path}.1`);
}

/** The numbers N of the path.N files there are, ascending. */
function generationsOf(path: string): number[] {
  const prefix = `${basename(path)}.`;
  return readdirSync(dirname(path))
    .filter((name) => name.startsWith(prefix) && /^[1-9]\d{0,5}$/.test(name.slice(prefix.length)))
    .map((name) => Number(name.slice(prefix.length)))
    .sort((a, b) => a - b);
}

/** Each key's bytes in the lines of `day` that the current file holds (after a restart; rotated files are not read). */
function bytesWrittenOn(path: string, day: string, logger?: Logger): Map<string, number> {
  const bytes = new Map<string, number>();
  let lines: string[] | undefined;
  try {
    lines = readJournalText(path);
  } catch (error) {
    logger?.warn(
      `gateway: journal: ${(error as Error).message.split(';')[0]}; what each key wrote to it today is counted from ` +
        `now`,
    );
  }
  for (const line of lines ?? []) {
    // Parsed only when of the day; a line cut by a crash counts for no one.
    const key = writtenOn(line, day) ? parseJournalLine(line)?.key : undefined;
    if (key !== undefined) bytes.set(key, (bytes.get(key) ?? 0) + Buffer.byteLength(line) + 1);
  }
  return bytes;
}

const mib = (bytes: number) => (bytes / (1024 * 1024)).toFixed(1);

/** For tests: forgets what each key wrote (as a restart does). */
export function forgetJournalBudgets(): void {
  written.clear();
}
