// The history's one hook into a cycle: after the state is saved (under the cycle's lock), the
// outcomes are added to the history file. The history never fails a cycle: a problem with it
// is a warning, and the records stay as they were sent.
import { counted } from '../lib/counted.js';
import type { Logger } from '../lib/log.js';
import { readHistory, writeHistory } from '../state/history.js';
import { removeStaleTemporaries } from '../state/state-dir.js';
import { recordNameChanges, recordOutcomes, type Notice } from './history-events.js';
import type { NameChange } from './container-records.js';
import type { Outcome } from './outcome.js';

/** Records the cycle in the history; returns what people should be told (see notify/). */
export function observeCycle(
  dir: string,
  outcomes: Outcome[],
  now: Date,
  logger: Logger,
  names: readonly NameChange[] = [],
): Notice[] {
  try {
    // Called with the cycle's lock held: a temporary file of the history is a killed writer's.
    const removed = removeStaleTemporaries(dir, 'history.json');
    if (removed.length)
      logger.info(
        `removed ${counted(removed.length, 'temporary file')} left in ${dir} by a writer that was stopped: ` +
          `${removed.join(', ')}`,
      );
    const { history, damage } = readHistory(dir, true);
    if (damage) logger.warn(damage);
    const before = history.entries.length;
    const notices = [...recordNameChanges(history, names, now), ...recordOutcomes(history, outcomes, now)];
    // Nothing new (the usual cycle): no write at all.
    if (history.entries.length !== before || failuresWentOn(outcomes)) writeHistory(dir, history);
    return notices;
  } catch (error) {
    logger.warn(
      `the address history was not updated (${(error as Error).message}); the records themselves are not affected`,
    );
    return [];
  }
}

/** A failure that goes on updates its entry's count in place. */
const failuresWentOn = (outcomes: Outcome[]): boolean => outcomes.some((o) => o.action === 'failed');
