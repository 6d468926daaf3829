// A write whose answer was lost (a timeout, a reset connection, a 5xx: zone/apply/apply.ts marks it
// uncertain) may have been made. Undoing only the writes that were answered, as for a refused
// one, left an update half-made: the unanswered create stayed at the provider while the client
// was told the earlier writes were undone, and a DHCP client whose A create was unanswered was
// locked out of its own name (the A there, its DHCID not kept). So the zone is read again, and
// the batch's steps are judged by what the provider holds: all of them there, the batch is
// made; some, they are undone and the zone read once more, so that what the client and the
// journal are told is what the provider holds.
import { counted } from '../../lib/counted.js';
import type { Logger } from '../../lib/log.js';
import { describeRecord, type LiveRecord } from '../../zone/record.js';
import { stepsHeld } from '../../zone/plan/steps-held.js';
import type { Step } from '../../zone/plan/steps.js';
import type { BatchOutcome } from '../journal/batch-journal.js';

export interface Settled {
  outcome: BatchOutcome;
  /** The zone as last read (absent when it could not be read). */
  now?: LiveRecord[];
  /** The batch's steps the provider holds as last read. */
  held: Step[];
  /** Why the zone could not be read again (outcome unknown). */
  unread?: string;
  /** How many of the batch's steps the first read showed made and were then undone (or tried). */
  undone: number;
}

/** Takes back `held` (steps the zone `now` shows made); resolves when done or failed (the next read tells which). */
export type Undo = (now: LiveRecord[], held: Step[]) => Promise<unknown>;

/** `read` reads afresh what the batch concerns (its names, or the whole zone). */
export async function settleLostAnswer(
  read: () => Promise<LiveRecord[]>,
  zone: string,
  before: LiveRecord[],
  steps: Step[],
  undo: Undo,
  logger: Logger,
): Promise<Settled> {
  let now: LiveRecord[];
  try {
    now = await read();
  } catch (error) {
    return { outcome: 'unknown', held: [], unread: (error as Error).message, undone: 0 };
  }
  const held = stepsHeld(steps, now, before);
  logger.warn(
    `gateway: an answer of the provider to a write of ${zone} was lost; read again, the zone holds ${held.length} ` +
      `of the batch's ${counted(steps.length, 'write')}`,
  );
  if (held.length === steps.length) return { outcome: 'made', now, held, undone: 0 };
  if (!held.length) return { outcome: 'not made', now, held, undone: 0 };
  await undo(now, held).catch(() => undefined);
  try {
    now = await read();
  } catch (error) {
    return { outcome: 'unknown', held: [], unread: (error as Error).message, undone: held.length };
  }
  const still = stepsHeld(steps, now, before);
  if (still.length)
    logger.error(
      `gateway: ${zone} still holds ${counted(still.length, 'write')} of a batch that failed ` +
        `(${still.map((s) => `${s.call} ${describeRecord(s.record)}`).join(', ')}); the journal says so`,
    );
  return { outcome: still.length ? 'partly made' : 'not made', now, held: still, undone: held.length };
}
