// One batch of updates of one zone, made under the zone's lock: read (batch-read.ts: one fresh
// read of the names its updates concern, once the budget allows it), evaluate (batch-evaluate.ts:
// each update in order against the zone as the updates before it left it, answered for itself),
// write (batch-write.ts: one plan of the zone engine from the zone read to the zone wanted) and,
// when a write fails, roll back (batch-rollback.ts: none is half-made). The call budget is asked
// before the zone is read, and before each update is accepted; what the batch set aside and did
// not use is given back at the end.
import { EDE } from '../../dns/wire/edns.js';
import type { Lock } from '../../state/lock.js';
import { acquireZoneLock } from '../../state/zone-lock.js';
import { answerAll, type BatchDeps, type PendingUpdate } from './batch-deps.js';
import { evaluateBatch } from './batch-evaluate.js';
import { readBatch, refuseSpentShares } from './batch-read.js';
import { writeBatch } from './batch-write.js';
import { RCODE_UPDATE } from './rules.js';

/**
 * Makes one batch of `zone`'s updates and answers them; resolves with the updates whose answer
 * depended on a failed batch (or that a refused value of another update failed), in the order
 * they came: they go round again, at the head of the zone's queue.
 */
export async function applyBatch(
  zone: string,
  batch: PendingUpdate[],
  deps: BatchDeps,
  newId: () => string,
): Promise<PendingUpdate[]> {
  let lock: Lock;
  try {
    lock = acquireZoneLock(deps.stateDir, zone);
  } catch (error) {
    const why = `the zone is locked by another change (${(error as Error).message})`;
    answerAll(batch, { rcode: RCODE_UPDATE.SERVFAIL, ede: EDE.NOT_READY, why });
    return [];
  }
  try {
    const provider = deps.providerOf(zone);
    const affordable = refuseSpentShares(batch, deps.keyCalls);
    if (!affordable.length) return [];
    const read = await readBatch(zone, affordable, provider, deps);
    if (!read) return [];
    const evaluated = await evaluateBatch(zone, affordable, read, deps, newId);
    if (!evaluated.accepted.length) return [];
    return await writeBatch(zone, affordable, provider, read, evaluated, deps);
  } finally {
    deps.releaseCalls?.(zone);
    lock.release();
  }
}
