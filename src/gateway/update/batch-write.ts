// A batch's writes: one plan of the zone engine from the zone read to the zone wanted, made only
// when all of it fits the call budget (a budget spent half-way would leave an update half-made)
// and the DHCID records it changes are saved; the journal brackets the writes with intent and
// result lines (batch-journal.ts). A write whose answer was lost is judged by what the provider
// holds once read again (lost-answer.ts); a batch not made is rolled back (batch-rollback.ts).
import { EDE } from '../../dns/wire/edns.js';
import { applyPlan, type ApplyOutcome } from '../../zone/apply/apply.js';
import { stepsOf, type Step } from '../../zone/plan/steps.js';
import type { ZoneProvider } from '../../zone/provider/provider-zone.js';
import type { LiveRecord } from '../../zone/record.js';
import { journalIntent, journalResult, newBatchId, type JournaledUpdate } from '../journal/batch-journal.js';
import { undoWrites } from './batch-undo.js';
import { answerAll, OK, type BatchDeps, type PendingUpdate } from './batch-deps.js';
import { waitingOn, type Evaluated } from './batch-evaluate.js';
import { readNames, type BatchRead } from './batch-read.js';
import { answerUnsettled, rollBackBatch } from './batch-rollback.js';
import { settleLostAnswer, type Settled } from './lost-answer.js';
import { planTo } from './plan.js';
import { managedRecords, RCODE_UPDATE } from './rules.js';

/**
 * Writes the accepted updates of the batch and answers them (and those whose answers waited on
 * them); resolves with the updates that go round again, in the order they came.
 */
export async function writeBatch(
  zone: string,
  batch: PendingUpdate[],
  provider: ZoneProvider,
  read: BatchRead,
  evaluated: Evaluated,
  deps: BatchDeps,
): Promise<PendingUpdate[]> {
  const { accepted } = evaluated;
  const plan = planTo(read.live, managedRecords(evaluated.wanted, zone), zone);
  const spent = plan.changes.length ? deps.setAsideCalls?.(zone, plan, read.reading.calls) : undefined;
  const unwritable = spent || evaluated.dhcid.save();
  if (unwritable) {
    answerAll(
      accepted.map(({ pending }) => pending),
      { rcode: RCODE_UPDATE.SERVFAIL, ede: EDE.OTHER, why: unwritable },
    );
    return waitingOn(evaluated);
  }
  const journaled: JournaledUpdate[] = accepted.map(({ pending, changes }) => ({
    key: pending.key,
    client: pending.client,
    changes,
  }));
  // An update of DHCID records only makes no provider call, and needs no intent line.
  const batchId = plan.changes.length ? newBatchId() : undefined;
  if (batchId) journalIntent(deps.stateDir, zone, batchId, journaled, deps.logger);
  const outcome: Pick<ApplyOutcome, 'done' | 'notDone' | 'failure'> = plan.changes.length
    ? await applyPlan(provider, plan, 'calls', deps.logger)
    : { done: [], notDone: [] };
  // Read again, the batch's names are shown in the zone's view as the provider holds them.
  const reread = () => readNames(provider, zone, read.names, read.reading, deps);
  const undo = (now: LiveRecord[], held: Step[]) => undoWrites(provider, zone, now, read.live, held, deps.logger);
  const settled = outcome.failure?.uncertain
    ? await settleLostAnswer(reread, zone, read.live, stepsOf(plan.changes).flat(), undo, deps.logger)
    : undefined;
  if (!outcome.failure || settled?.outcome === 'made')
    return answerMade(zone, read, evaluated, { journaled, batchId, settled }, deps);
  if (settled && settled.outcome !== 'not made') {
    answerUnsettled(zone, settled, { accepted, journaled, batchId: batchId!, dhcid: evaluated.dhcid }, deps);
    return waitingOn(evaluated);
  }
  const failed = { failure: outcome.failure, done: outcome.done, settled, batchId, journaled };
  return rollBackBatch(zone, batch, provider, read, evaluated, failed, deps);
}

/** The batch is made: counted, logged, journaled, shown and answered; nothing goes round again. */
function answerMade(
  zone: string,
  read: BatchRead,
  evaluated: Evaluated,
  written: { journaled: JournaledUpdate[]; batchId?: string; settled?: Settled },
  deps: BatchDeps,
): PendingUpdate[] {
  evaluated.quotas?.commit();
  for (const { pending, changes } of evaluated.accepted) {
    const made = changes
      .map((c) => `${c.action} ${(c.after ?? c.before)!.name} ${(c.after ?? c.before)!.type}`)
      .join(', ');
    deps.logger.info(`gateway: key ${pending.key} changed ${zone}: ${made}`);
  }
  journalResult(deps.stateDir, zone, written.batchId, 'made', written.journaled, deps.logger);
  // The names' content is known without another read; the entity IDs are not needed to answer queries.
  if (!written.settled) deps.views.showNames(zone, read.names, evaluated.wanted);
  for (const { pending } of evaluated.accepted) pending.resolve({ ...OK, changed: true });
  for (const { pending, outcome } of evaluated.contingent) pending.resolve(outcome);
  return [];
}
