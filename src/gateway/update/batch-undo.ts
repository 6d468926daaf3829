// Taking back a failed batch's own writes, and only those: never the zone back to the listing read
// before the batch, which would rewrite what others changed meanwhile (an address set through
// dynamic DNS while a long batch ran must not go back to the old one, with no grant for it and
// nothing in the journal). Used after a refused write (batch-rollback.ts rollBack) and
// after a lost answer (lost-answer.ts), each with the listing it read again.
import { counted } from '../../lib/counted.js';
import type { Logger } from '../../lib/log.js';
import { applyPlan } from '../../zone/apply/apply.js';
import type { ZoneProvider } from '../../zone/provider/provider-zone.js';
import { sameRecord, sameValue, type LiveRecord } from '../../zone/record.js';
import type { Step } from '../../zone/plan/steps.js';
import { planTo } from './plan.js';
import { managedRecords } from './rules.js';

/** Takes back `steps` (made by the batch), judged against the listing `now`; true when nothing failed. */
export async function undoWrites(
  provider: ZoneProvider,
  zone: string,
  now: LiveRecord[],
  before: LiveRecord[],
  steps: Step[],
  logger: Logger,
): Promise<boolean> {
  const back = planTo(now, managedRecords(withoutSteps(now, before, steps), zone), zone);
  if (!back.changes.length) return true;
  logger.warn(
    `gateway: undoing ${counted(back.changes.length, 'write')} of a failed batch of ${zone}: ` +
      `${back.changes
        .map((c) => `${c.action} ${(c.after ?? c.before)!.name} ${(c.after ?? c.before)!.type}` + ``)
        .join(', ')}`,
  );
  return !(await applyPlan(provider, back, 'calls', logger)).failure;
}

/**
 * The listing `now` with the `done` steps taken back: a record they created (one not in the
 * listing `before`) removed, one they changed set back if it still holds what they wrote, one
 * they deleted made again. What anyone else changed stays as it is now.
 */
function withoutSteps(now: LiveRecord[], before: LiveRecord[], done: Step[]): LiveRecord[] {
  const listing = [...now];
  const earlier = new Set(before.map((r) => r.entityID));
  for (const step of done) {
    if (step.call === 'create') {
      const at = listing.findIndex((r) => !earlier.has(r.entityID) && sameValue(r, step.record));
      if (at >= 0) listing.splice(at, 1);
    } else if (step.call === 'update') {
      const at = listing.findIndex((r) => r.entityID === step.entityID && sameValue(r, step.record));
      if (at >= 0 && step.change.before)
        listing[at] = { ...(step.change.before as LiveRecord), entityID: listing[at]!.entityID };
    } else if (step.change.before && !listing.some((r) => sameRecord(r, step.change.before!))) {
      listing.push({ ...(step.change.before as LiveRecord), entityID: `undone:${listing.length}` });
    }
  }
  return listing;
}
