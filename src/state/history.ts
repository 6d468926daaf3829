// The agent's address history: what it sent and saw, per host and record type, kept beside
// the state file and written the same way (temporary file + rename). Bounded in entries and
// in bytes, oldest first out, so that a flapping link or a year of uptime never grows it
// without end. A file that cannot be read back (damaged, not a regular file, too large) is set
// aside (renamed, for a person to look at) and the history starts again: a history is worth less
// than a working agent, so no damage of it stops a command.
import { join } from 'node:path';
import { writeFileAtomic } from '../lib/atomic-write.js';
import { familyOfAddress, type RecordType } from '../lib/address.js';
import { ensureStateDir } from './state-dir.js';
import { readStateFile, type StateFileType } from './state-file.js';
import { isHostName } from '../lib/names.js';
import { list, matching, object, oneOf, optional, text, where, whole } from './shape.js';

/** `failed` entries of one record in a row with the same reason are one entry with a count. */
type HistoryEvent = 'changed' | 'failed' | 'recovered' | 'added' | 'removed';

/** Why a record failed, in the words of the metrics (outcome.ts) plus `budget`. */
export type FailureReason = 'auth' | 'budget' | 'transient' | 'address_unknown' | 'refused' | 'config' | 'internal';

export interface HistoryEntry {
  at: string;
  host: string;
  /** `added` and `removed` (a container's name came or went): CNAME for a name given a target. */
  type: RecordType | 'CNAME';
  event: HistoryEvent;
  /** changed: the address before (absent the first time) and after. */
  old?: string;
  new?: string;
  via?: 'dyndns' | 'api';
  /** failed: what went wrong (redacted, escaped, bounded), its kind, cycles in a row and the last one. */
  message?: string;
  reason?: FailureReason;
  count?: number;
  lastAt?: string;
}

export interface History {
  version: 1;
  /** Oldest first. */
  entries: HistoryEntry[];
}

export const HISTORY_LIMITS = {
  entries: 1000,
  bytes: 512 * 1024,
  /**
   * A failure's message as kept: whole unless long (a provider's messages are a line or two; a page of HTML is cut).
   * The bytes bound above keeps the file small whatever the messages.
   */
  messageChars: 1000,
};

export const historyFile = (dir: string): string => join(dir, 'history.json');
export const emptyHistory = (): History => ({ version: 1, entries: [] });

export interface LoadedHistory {
  history: History;
  /** Set when the file existed but could not be used; it was renamed to `setAside`. */
  damage?: string;
}

/** An ISO 8601 time in UTC, as the writer writes it (toISOString, with or without its milliseconds). */
const time = where(
  matching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,3})?Z$/, 'a time'),
  (value) =>
    Number.isFinite(Date.parse(value)) && new Date(Date.parse(value)).toISOString().slice(0, 19) === value.slice(0, 19),
  'a time',
);
/** An address as the cycle sent it, or "(server)" (the provider took the request's own address). */
const sentAddress = where(
  text,
  (value) => value === '(server)' || familyOfAddress(value) !== undefined,
  'an IP address',
);
const hostName = where(text, isHostName, 'a host name');
/** Far above what the writer keeps (outsideText at HISTORY_LIMITS.messageChars, with its "… (N more …)"). */
const MESSAGE_MAX_CHARS = 2 * HISTORY_LIMITS.messageChars;
const message = where(
  text,
  (value) => value.length <= MESSAGE_MAX_CHARS,
  `a text of at most ${MESSAGE_MAX_CHARS} characters`,
);

const historyEntry = object({
  at: time,
  host: hostName,
  type: oneOf('A', 'AAAA', 'CNAME'),
  event: oneOf('changed', 'failed', 'recovered', 'added', 'removed'),
  old: optional(sentAddress),
  new: optional(sentAddress),
  via: optional(oneOf('dyndns', 'api')),
  message: optional(message),
  reason: optional(oneOf('auth', 'budget', 'transient', 'address_unknown', 'refused', 'config', 'internal')),
  count: optional(whole(1, 1e9)),
  lastAt: optional(time),
});

const HISTORY_FILE: StateFileType<History> = {
  // Twice the byte bound: the bound is kept by every write, a larger file is not ours.
  maxBytes: 2 * HISTORY_LIMITS.bytes,
  shape: object({ version: oneOf(1), entries: list(historyEntry) }),
};

/**
 * Reads the history. A damaged file (not JSON, a wrong shape, too large, not a regular file) is
 * renamed to history.json.damaged when `setAside` (the cycle, which holds the lock) and reported;
 * readers (status, the page) only report it.
 */
export function readHistory(dir: string, setAside = false): LoadedHistory {
  const loaded = readStateFile(historyFile(dir), HISTORY_FILE, { setAside });
  if (loaded.damage) {
    const then = setAside ? 'the history starts again' : 'the history is shown as empty';
    return { history: emptyHistory(), damage: `${loaded.damage}; ${then}` };
  }
  return { history: loaded.value ?? emptyHistory() };
}

/** Drops the oldest entries until both bounds hold; returns the text to write. */
export function boundedText(history: History, limits = HISTORY_LIMITS): string {
  if (history.entries.length > limits.entries) history.entries.splice(0, history.entries.length - limits.entries);
  let text = JSON.stringify(history);
  while (Buffer.byteLength(text) > limits.bytes && history.entries.length) {
    // Drop a tenth at a time: one pass per entry would be quadratic on a large file.
    history.entries.splice(0, Math.max(1, Math.ceil(history.entries.length / 10)));
    text = JSON.stringify(history);
  }
  return text + '\n';
}

export function writeHistory(dir: string, history: History, limits = HISTORY_LIMITS): void {
  ensureStateDir(dir);
  writeFileAtomic(historyFile(dir), boundedText(history, limits));
}
