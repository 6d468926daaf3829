// The journal lines that bracket a batch's provider writes, so that a gateway killed between
// them (kill -9, a power cut) leaves a trace of what it was doing: an intent line for each
// update of the batch before the first write, a result line for each after the last (or after
// the batch was reconciled with the provider), both naming the batch. At start, an intent with
// no result is a batch whose outcome nobody saw (unfinished-batches.ts). A result says what the
// provider holds, never what the gateway hoped it would.
import { randomBytes } from 'node:crypto';
import type { Logger } from '../../lib/log.js';
import type { Change } from '../../zone/plan/plan.js';
import type { LiveRecord } from '../../zone/record.js';
import type { BatchOutcome, HeldAt } from './journal-line.js';
import { writeJournal } from './journal.js';

export type { BatchOutcome, HeldAt } from './journal-line.js';

export interface JournaledUpdate {
  key: string;
  client: string;
  changes: Change[];
}

/** A fresh name for a batch: unique enough to pair an intent with its result in one journal. */
export const newBatchId = (): string => randomBytes(6).toString('hex');

/** Writes the intent lines of a batch (one per update); false when the journal could not be written (logged). */
export function journalIntent(
  stateDir: string,
  zone: string,
  batch: string,
  updates: JournaledUpdate[],
  logger: Logger,
): boolean {
  return updates.every((u) => write(stateDir, { zone, ...u, mark: { intent: batch } }, logger));
}

/**
 * Writes the result lines of a batch (one per update); `holds` is what the provider holds at the names concerned, when
 * it is not what was wanted.
 */
export function journalResult(
  stateDir: string,
  zone: string,
  batch: string | undefined,
  outcome: BatchOutcome,
  updates: JournaledUpdate[],
  logger: Logger,
  holds?: HeldAt[],
): void {
  const mark = batch === undefined ? undefined : { result: batch, outcome, ...(holds ? { holds } : {}) };
  for (const u of updates) write(stateDir, { zone, ...u, ...(mark ? { mark } : {}) }, logger);
}

/** What `live` holds at each name and type of `changes` (other names are not the journal's business here). */
export function heldAt(live: readonly LiveRecord[], changes: readonly { name: string; type: string }[]): HeldAt[] {
  const wanted = new Map<string, HeldAt>();
  for (const { name, type } of changes) wanted.set(`${name} ${type}`, { name, type, values: [] });
  for (const r of live)
    wanted
      .get(`${r.name} ${r.type}`)
      ?.values.push([r.ttl ?? '-', r.priority, r.value].filter((p) => p !== undefined).join(' '));
  return [...wanted.values()];
}

function write(stateDir: string, entry: Parameters<typeof writeJournal>[1], logger: Logger): boolean {
  try {
    writeJournal(stateDir, entry, new Date(), logger);
    return true;
  } catch (error) {
    logger.error(
      `gateway: the journal could not be written: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
    return false;
  }
}
