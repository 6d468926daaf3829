// How much work the gateway takes on from its clients at once, counted in the records
// (prerequisites and updates) their UPDATEs carry. Far above what any client sends
// (external-dns batches hundreds; Kea, certbot and nsupdate a few), low enough that a key
// granted only a wildcard's TXT cannot queue tens of thousands of records: 40 updates of 1,000
// TXT adds each once held the gateway's CPU for a minute.
import type { UpdateMessage } from './message.js';

/** Records one UPDATE may carry (each may cost a provider call): more is refused before anything is read. */
export const MAX_UPDATE_RECORDS = 1000;
/**
 * Records one batch evaluates: the updates after them wait for the next batch (one update is always taken, whatever its
 * size).
 */
export const MAX_BATCH_RECORDS = 5000;
/** Records of one key's updates waiting or being made: its next update is refused until some are answered. */
export const MAX_KEY_RECORDS = 3000;

export const recordsOf = (message: UpdateMessage): number => message.prerequisites.length + message.updates.length;
