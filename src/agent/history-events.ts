// A cycle's outcomes, seen against the history: what becomes an entry (an address changed, a
// failure began or went on, a record recovered) and what is worth telling a person (the
// notifications). A failure that repeats is one entry with a count, so the history keeps
// months of changes rather than a week of one outage; people are told of a failure once it has
// lasted FAILING_AFTER cycles, of rejected credentials and a spent budget at once, and of the
// recovery only when they were told of the failure.
import { exitCodeOf, ExitCode } from '../lib/errors.js';
import type { RecordType } from '../lib/address.js';
import { outsideText } from '../lib/outside-text.js';
import { HISTORY_LIMITS, type FailureReason, type History, type HistoryEntry } from '../state/history.js';
import { failureKind, type Outcome } from './outcome.js';
import { counted } from '../lib/counted.js';
import type { NameChange } from './container-records.js';

/** Cycles in a row with the same failure before it is a failure worth a message. */
export const FAILING_AFTER = 3;

type NoticeKind =
  | 'changed'
  | 'failing'
  | 'recovered'
  | 'rejected'
  | 'budget'
  | 'container-name-added'
  | 'container-name-removed';

/** Something a person should hear about (see notify/): never a secret, bounded. */
export interface Notice {
  event: NoticeKind;
  time: string;
  host: string;
  type: RecordType | 'CNAME';
  old?: string;
  new?: string;
  message: string;
}

/**
 * A failure: counted on the entry of the same failure before it, or a new entry; told when it is
 * rejected credentials or a spent budget, or when the same failure has lasted FAILING_AFTER cycles.
 */
function recordFailure(
  history: History,
  outcome: Outcome,
  previous: HistoryEntry | undefined,
  at: string,
  notices: Notice[],
): void {
  const { host, type } = outcome;
  const reason = reasonOf(outcome.error);
  const message = outsideText(outcome.message, HISTORY_LIMITS.messageChars);
  if (previous?.event === 'failed' && previous.reason === reason) {
    previous.count = (previous.count ?? 1) + 1;
    previous.lastAt = at;
    previous.message = message;
    if (previous.count === FAILING_AFTER && !announcedAtOnce(reason))
      notices.push({
        event: 'failing',
        time: at,
        host,
        type,
        message: `${host} ${type}: failing for ${FAILING_AFTER} cycles in a row: ${message}`,
      });
    return;
  }
  const entry: HistoryEntry = { at, host, type, event: 'failed', message, reason, count: 1, lastAt: at };
  history.entries.push(entry);
  if (reason === 'auth')
    notices.push({
      event: 'rejected',
      time: at,
      host,
      type,
      message: `${host} ${type}: the provider rejected the credentials: ${message}`,
    });
  else if (reason === 'budget')
    notices.push({ event: 'budget', time: at, host, type, message: `${host} ${type}: ${message}` });
}

/** Adds this cycle's entries to `history` (in place) and returns what to tell people. */
export function recordOutcomes(history: History, outcomes: Outcome[], now: Date): Notice[] {
  const at = now.toISOString();
  const notices: Notice[] = [];
  const { last, lastChange } = lastEntries(history);
  for (const outcome of outcomes) {
    const { host, type } = outcome;
    const previous = last.get(`${host}/${type}`);
    const recorded = lastChange.get(`${host}/${type}`)?.new;
    if (outcome.action === 'failed') {
      recordFailure(history, outcome, previous, at, notices);
      continue;
    }
    if (outcome.action !== 'updated' && outcome.action !== 'unchanged') continue;
    if (previous?.event === 'failed') {
      history.entries.push({ at, host, type, event: 'recovered' });
      if ((previous.count ?? 1) >= FAILING_AFTER || announcedAtOnce(previous.reason)) {
        notices.push({
          event: 'recovered',
          time: at,
          host,
          type,
          message: `${host} ${type}: working again after ${counted(previous.count ?? 1, 'failed cycle')}`,
        });
      }
    }
    // Re-sent after --max-age (or --force) is no change of address; nor is a send the state
    // could not remember (a full disk), made again by the next cycle; nor a container's name
    // given again (its records re-created) with the address the history has for it.
    const alreadyRecorded =
      (previous?.event === 'changed' && previous.new === outcome.address) ||
      (outcome.previous === undefined && recorded === outcome.address);
    if (
      outcome.action === 'updated' &&
      outcome.via !== 'cache' &&
      outcome.previous !== outcome.address &&
      !alreadyRecorded
    ) {
      // The state forgets a name let go; the history still has the address last sent for it.
      const old = outcome.previous ?? recorded;
      history.entries.push({
        at,
        host,
        type,
        event: 'changed',
        ...(old ? { old } : {}),
        new: outcome.address,
        via: outcome.via,
      });
      notices.push({
        event: 'changed',
        time: at,
        host,
        type,
        ...(old ? { old } : {}),
        new: outcome.address,
        message: `${host} ${type}: ${old ? `${old} -> ` : 'first sent '}${outcome.address} (via ${outcome.via})`,
      });
    }
  }
  return notices;
}

/** The names containers gave or let go in this cycle: an entry each, and a notice each. */
export function recordNameChanges(history: History, changes: readonly NameChange[], now: Date): Notice[] {
  const at = now.toISOString();
  return changes.map(({ name, event, containers, target }) => {
    const by = outsideText(containers.join(', ') || 'no container', HISTORY_LIMITS.messageChars / 2);
    const message =
      event === 'added'
        ? `${name}: given by ${by}${target ? ` (CNAME to ${target})` : ''}`
        : `${name}: let go, no running container gives it (was given by ${by})`;
    const type = target ? 'CNAME' : 'A';
    history.entries.push({ at, host: name, type, event, message });
    return { event: `container-name-${event}`, time: at, host: name, type, message };
  });
}

/** Rejected credentials and a spent budget need a person now, not after three cycles. */
const announcedAtOnce = (reason: FailureReason | undefined): boolean => reason === 'auth' || reason === 'budget';

function reasonOf(error: unknown): FailureReason {
  // The budget's error class lives in a chunk loaded on demand; its own fields tell it apart.
  if (error instanceof Error && 'resumeAt' in error && 'limit' in error) return 'budget';
  if (exitCodeOf(error) === ExitCode.auth) return 'auth';
  return failureKind(error) as FailureReason;
}

/**
 * The latest entry about each record's address (a container's name coming or going is about the
 * name, not its address), and its latest change.
 */
function lastEntries(history: History): {
  last: Map<string, HistoryEntry>;
  lastChange: Map<string, HistoryEntry>;
} {
  const last = new Map<string, HistoryEntry>();
  const lastChange = new Map<string, HistoryEntry>();
  for (const entry of history.entries) {
    if (entry.event === 'added' || entry.event === 'removed') continue;
    last.set(`${entry.host}/${entry.type}`, entry);
    if (entry.event === 'changed') lastChange.set(`${entry.host}/${entry.type}`, entry);
  }
  return { last, lastChange };
}
