// Which updates of a failed batch the failing write belongs to. The batch is written as one
// plan, so the provider's refusal of one record undoes the updates of every key in it; only an
// update whose own changes hold that record's name and type is told which write it was. The
// others are told their batch failed, not another key's record name or value.
import type { Change } from '../../zone/plan/plan.js';
import type { Step } from '../../zone/plan/steps.js';

/** Whether `changes` (one update's) touch the name and type of the failed `step`; true when no step is known. */
export function holdsFailedWrite(changes: Change[], step: Step | undefined): boolean {
  if (!step) return true;
  const failing = [step.record, step.change.before, step.change.after].filter((r) => r !== undefined);
  return changes.some((c) =>
    [c.before, c.after].some((r) => r && failing.some((f) => f.name === r.name && f.type === r.type)),
  );
}

/** What an update of the failed batch whose own writes were not the failing one is told. */
export const bystanderReason = (refused: boolean, undone: string): string =>
  `the provider ${refused ? 'refused' : 'failed'} a write of another update sent at the same time${undone}; send it ` +
  `again`;
