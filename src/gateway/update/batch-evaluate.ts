// A batch's evaluation: each update in order, against the zone as the updates accepted before
// it leave it (simulated from the reading), answered for itself (a failed prerequisite fails
// that update only). An update is accepted when the key's grants, the records others keep, the
// key's quotas, the call budget and the key's share all allow its writes; the listeners answer
// what arrived meanwhile (queries, probes) between two updates.
import { EDE } from '../../dns/wire/edns.js';
import type { Change } from '../../zone/plan/plan.js';
import { callCount, stepsOf } from '../../zone/plan/steps.js';
import type { LiveRecord } from '../../zone/record.js';
import { DhcidBatch } from '../dhcid/batch.js';
import { grantsFor } from '../keys/grants.js';
import { keptRecords } from '../keys/kept-records.js';
import type { GatewayKeys } from '../keys/keys-file.js';
import { QuotaBatch } from '../limits/key-quotas.js';
import { OK, type BatchDeps, type Outcome, type PendingUpdate } from './batch-deps.js';
import { namesOf, type BatchRead } from './batch-read.js';
import { evaluateWithDhcid } from './dhcid-rules.js';
import { planTo } from './plan.js';
import { RCODE_UPDATE } from './rules.js';

/** An update accepted into the batch's writes, with its changes (DHCID ones included). */
export interface Accepted {
  pending: PendingUpdate;
  changes: Change[];
}

/** What the evaluation leaves for the writes. */
export interface Evaluated {
  accepted: Accepted[];
  /**
   * Updates answered against the zone as the accepted ones would leave it (a no-op, a failed
   * prerequisite): the answer holds only if their writes are made. If the batch fails, such an
   * update is evaluated again in the next batch (against a fresh read): an answer of NOERROR
   * is never given for a change the provider did not make.
   */
  contingent: { pending: PendingUpdate; outcome: Outcome }[];
  /** The records at the batch's names as the accepted updates leave them. */
  wanted: LiveRecord[];
  /** DHCID: kept by the gateway, changed with the batch and saved only with the provider's writes. */
  dhcid: DhcidBatch;
  /** What each key may hold in the zone (key-quotas.ts), counted across the batch's updates. */
  quotas?: QuotaBatch;
}

/** The updates of `evaluated` whose answers wait on its writes, in the order they came. */
export const waitingOn = (evaluated: Evaluated): PendingUpdate[] => evaluated.contingent.map(({ pending }) => pending);

/** Lets the listeners answer what arrived meanwhile (queries, probes) before the next update is evaluated. */
const yieldToListeners = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The records at `names`, from records grouped by name. */
const recordsAt = (byName: Map<string, LiveRecord[]>, names: Iterable<string>): LiveRecord[] =>
  [...new Set(names)].flatMap((n) => byName.get(n) ?? []);

function groupByName(records: LiveRecord[], names: Set<string>): Map<string, LiveRecord[]> {
  const byName = new Map<string, LiveRecord[]>([...names].map((n) => [n, []]));
  for (const r of records) byName.get(r.name)?.push(r);
  return byName;
}

/**
 * The listing as it will be once `changes` are made; a record created gets an ID from `newId`
 * that never reaches the provider (unique, for a later update of the batch may see both).
 */
export function simulate(current: LiveRecord[], changes: Change[], newId: () => string): LiveRecord[] {
  const byId = new Map(current.map((r) => [r.entityID, r]));
  for (const c of changes) {
    if (c.action === 'delete') byId.delete(c.before!.entityID);
    else if (c.action === 'update') byId.set(c.before!.entityID, { ...c.after!, entityID: c.before!.entityID });
    else {
      const id = newId();
      byId.set(id, { ...c.after!, entityID: id });
    }
  }
  return [...byId.values()];
}

/** Evaluates the batch's updates in order; answers at once those decided before any is accepted. */
export async function evaluateBatch(
  zone: string,
  batch: PendingUpdate[],
  read: BatchRead,
  deps: BatchDeps,
  newId: () => string,
): Promise<Evaluated> {
  const keys = deps.keys();
  const judge = new UpdateJudge(zone, read, deps, keys, newId);
  for (const [i, pending] of batch.entries()) {
    if (i) await yieldToListeners();
    const outcome = judge.judge(pending);
    if (!outcome) continue;
    if (judge.accepted.length) judge.contingent.push({ pending, outcome });
    else pending.resolve(outcome);
  }
  const { accepted, contingent, dhcid, quotas } = judge;
  return { accepted, contingent, wanted: recordsAt(judge.current, read.names), dhcid, quotas };
}

/** The batch's updates judged one after another, each against what those accepted before it leave. */
class UpdateJudge {
  readonly accepted: Accepted[] = [];
  readonly contingent: Evaluated['contingent'] = [];
  /** The records at the batch's names as the updates accepted so far leave them. */
  readonly current: Map<string, LiveRecord[]>;
  readonly dhcid: DhcidBatch;
  readonly quotas?: QuotaBatch;
  private readonly kept: ReturnType<typeof keptRecords>;
  /** Writes the accepted updates may take (an upper bound: a later update may undo an earlier one's). */
  private writes = 0;

  constructor(
    private readonly zone: string,
    private readonly read: BatchRead,
    private readonly deps: BatchDeps,
    private readonly keys: GatewayKeys,
    private readonly newId: () => string,
  ) {
    this.kept = keptRecords(deps.stateDir, zone, deps.hosts, keys);
    this.current = groupByName(read.live, read.names);
    this.dhcid = new DhcidBatch(deps.dhcid, zone);
    this.quotas = deps.owners && new QuotaBatch(deps.owners, zone, keys);
  }

  /** The update's answer when it is not accepted; undefined once it is (its writes simulated). */
  judge(pending: PendingUpdate): Outcome | undefined {
    const { zone, keys, deps } = this;
    const own = namesOf(pending.message, zone);
    const here = recordsAt(this.current, own);
    // A delete of every type at a name (type ANY) needs the key to be allowed each type there,
    // DHCID included (rules.ts, dhcid-rules.ts).
    const may = (owner: string, type: string) => grantsFor(keys, pending.key, zone, owner, type).length > 0;
    const evaluation = evaluateWithDhcid(pending.message, here, zone, may, this.dhcid.held, this.dhcid.spare);
    if (!evaluation.ok) return { rcode: evaluation.rcode, ede: evaluation.ede, why: evaluation.why };
    const plan = planTo(here, evaluation.wanted, zone);
    const refusal = plan.changes.map((c) => this.kept(c, pending.key)).find(Boolean);
    if (refusal) return { rcode: RCODE_UPDATE.REFUSED, ede: EDE.PROHIBITED, why: refusal };
    const dhcidChanges = this.dhcid.changes(evaluation.dhcid);
    const overQuota = this.quotas?.admit(pending.key, [...plan.changes, ...dhcidChanges]);
    if (overQuota) return { rcode: RCODE_UPDATE.REFUSED, ede: EDE.PROHIBITED, why: overQuota };
    if (!plan.changes.length && !dhcidChanges.length) return OK;
    // Each update is weighed against the budget as it is accepted: one too big for it fails alone, not the batch.
    const cost = callCount(stepsOf(plan.changes));
    const unaffordable = cost
      ? deps.affordCalls?.(2 * (this.writes + cost) + this.read.reading.calls, true)
      : undefined;
    if (unaffordable) return { rcode: RCODE_UPDATE.SERVFAIL, ede: EDE.OTHER, why: unaffordable };
    // The key's share holds its writes and what undoing them would take; it is charged the writes.
    const overShare = cost ? deps.keyCalls?.afford(pending.key, 2 * cost) : undefined;
    if (overShare) return { rcode: RCODE_UPDATE.REFUSED, ede: EDE.PROHIBITED, why: overShare };
    deps.keyCalls?.charge(pending.key, cost);
    this.writes += cost;
    for (const [name, records] of groupByName(simulate(here, plan.changes, this.newId), new Set(own)))
      this.current.set(name, records);
    this.dhcid.accept(evaluation.dhcid);
    this.accepted.push({ pending, changes: [...plan.changes, ...dhcidChanges] });
    return undefined;
  }
}
