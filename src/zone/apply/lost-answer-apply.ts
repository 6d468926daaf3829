// An apply whose failed call got no answer (zone/apply/apply.ts marks it uncertain) reads the zone
// again before it reports: the call may have been made, and the report said "not done" for a
// record the provider held (or "partial" for a zone that matched the file). What is reported
// is what the provider holds: the steps the listing shows made are done, the others not, and
// when nothing is left the apply is complete.
import type { ApplyOutcome } from './apply.js';
import type { Change, Plan } from '../plan/plan.js';
import { stepsHeld } from '../plan/steps-held.js';
import { IncompleteListingError } from '../provider/zone-listing.js';

/** The plan made again from a fresh listing (session.ts's planFromProvider). */
interface Reread {
  plan: Plan;
  incomplete?: string;
}

export interface Settled {
  outcome: ApplyOutcome;
  drift: Change[];
  /** The lost answer's error, when the zone read again holds every change (the outcome has no failure then). */
  answerLost?: unknown;
  readBackError?: unknown;
}

export async function settleLostAnswer(
  plan: Plan,
  outcome: ApplyOutcome & { failure: NonNullable<ApplyOutcome['failure']> },
  readAgain: () => Promise<Reread>,
): Promise<Settled> {
  let again: Reread;
  try {
    again = await readAgain();
    if (again.incomplete) throw new IncompleteListingError(again.incomplete);
  } catch (error) {
    return { outcome, drift: [], readBackError: error };
  }
  const steps = [...outcome.done, ...outcome.notDone];
  const complete = again.plan.changes.length === 0;
  // A dnssetzone gives every entry a new ID: it is made when nothing is left to change.
  const held = new Set(
    outcome.method === 'setzone' ? (complete ? steps : []) : stepsHeld(steps, again.plan.live, plan.live),
  );
  const { failure } = outcome;
  const settled: ApplyOutcome = {
    ...outcome,
    done: steps.filter((s) => held.has(s)),
    notDone: steps.filter((s) => !held.has(s)),
    failure: { ...failure, made: failure.step ? held.has(failure.step) : complete },
  };
  if (complete) return { outcome: { ...settled, failure: undefined }, drift: [], answerLost: failure.error };
  return { outcome: settled, drift: [] };
}
