// Updates of one zone, made in batches: while one batch is being written, the updates that
// arrive wait, and the next batch takes all of them with one fresh read of the zone (so
// a burst of 50 updates within a second costs at most 5 reads). Each update of a batch is
// evaluated in order against the zone as the updates before it left it (simulated from the
// read), and answered for itself (a failed prerequisite fails that update only); the writes of
// the batch are then one plan of the zone engine from the zone read to the zone wanted, under
// the zone's lock. A write the provider fails half-way is undone, and the update that held it is
// answered SERVFAIL (REFUSED when the provider refused the change itself): none is half-made. The
// others of the batch go round again when the provider refused a value, else get SERVFAIL.
// What a batch costs follows its updates, not the zone: it reads afresh only the names its
// updates concern (the whole zone when that takes fewer calls), evaluates each update against
// the records at its own names, yields to the listeners between updates so that queries and
// probes are answered meanwhile, and takes on a bounded number of records (limits.ts).
// The call budget is asked before the zone is read, and before each update is accepted.
// A write whose answer was lost is judged by what the provider holds once read again
// (lost-answer.ts); the journal brackets the writes with intent and result lines (batch-journal.ts).
import { ApiError } from '../../api/errors.js';
import { EDE } from '../../dns/wire/edns.js';
import type { Logger } from '../../lib/log.js';
import { atOrBelow } from '../../lib/names.js';
import { acquireZoneLock } from '../../state/zone-lock.js';
import { applyPlan, type ApplyOutcome } from '../../zone/apply/apply.js';
import type { Change, Plan } from '../../zone/plan/plan.js';
import type { ZoneProvider } from '../../zone/provider/provider-zone.js';
import type { LiveRecord } from '../../zone/record.js';
import { callCount, stepsOf, type Step } from '../../zone/plan/steps.js';
import { undoWrites } from './batch-undo.js';
import { DhcidBatch } from '../dhcid/batch.js';
import { bystanderReason, holdsFailedWrite } from './failed-write.js';
import type { DhcidStore } from '../dhcid/store.js';
import { evaluateWithDhcid } from './dhcid-rules.js';
import { grantsFor } from '../keys/grants.js';
import { heldAt, journalIntent, journalResult, newBatchId, type JournaledUpdate } from '../journal/batch-journal.js';
import { settleLostAnswer, type Settled } from './lost-answer.js';
import { QuotaBatch, type OwnersLedger } from '../limits/key-quotas.js';
import type { KeyCalls } from '../limits/key-calls.js';
import type { GatewayKeys } from '../keys/keys-file.js';
import { keptRecords } from '../keys/kept-records.js';
import type { UpdateMessage } from './message.js';
import { MAX_BATCH_RECORDS, MAX_KEY_RECORDS, recordsOf } from './limits.js';
import { planTo } from './plan.js';
import { managedRecords, RCODE_UPDATE } from './rules.js';
import { readAt, readPlan, type Reading } from './reading.js';
import type { ZoneViews } from '../dns/zone-views.js';

export interface Outcome {
  rcode: number;
  ede: number;
  why: string;
  /** Set when the update's own writes were made (NOERROR for an update that changed nothing has it unset). */
  changed?: boolean;
}

export interface BatchDeps {
  views: ZoneViews;
  providerOf: (zone: string) => ZoneProvider;
  keys: () => GatewayKeys;
  stateDir: string;
  hosts: string[];
  logger: Logger;
  /** Sets aside the provider calls of a batch's writes, their undoing and the `rereads` that takes (the gateway's budget); says why not when it cannot. */
  setAsideCalls?: (zone: string, plan: Plan, rereads?: number) => string | undefined;
  /** Why `calls` more provider calls (for an update's writes and their undoing: `forUpdate`) do not fit in the budget now; undefined when they do. */
  affordCalls?: (calls: number, forUpdate?: boolean) => string | undefined;
  /** Gives back what setAsideCalls set aside and the batch did not use. */
  releaseCalls?: (zone: string) => void;
  /** The DHCID records the gateway keeps (the provider cannot hold them). */
  dhcid: DhcidStore;
  /** Which key created which record, for the keys' quotas (none: no quotas). */
  owners?: OwnersLedger;
  /** Each key's share of the call budget (key-calls.ts; none: no shares). */
  keyCalls?: KeyCalls;
}

interface Pending {
  key: string;
  client: string;
  message: UpdateMessage;
  resolve: (outcome: Outcome) => void;
}

const queues = new Map<string, Pending[]>();
const running = new Set<string>();
/** Records of each key's updates waiting or being made (limits.ts). */
const queuedByKey = new Map<string, number>();
const OK: Outcome = { rcode: 0, ede: 0, why: '' };

/** Queues an update of `zone`; resolves with its outcome once its batch is written. */
export function enqueueUpdate(zone: string, update: Omit<Pending, 'resolve'>, deps: BatchDeps): Promise<Outcome> {
  const records = recordsOf(update.message);
  const queued = queuedByKey.get(update.key) ?? 0;
  if (queued && queued + records > MAX_KEY_RECORDS) {
    return Promise.resolve({ rcode: RCODE_UPDATE.REFUSED, ede: EDE.NOT_READY, why: `the key ${update.key} has updates of ${queued} records waiting to be made (at most ${MAX_KEY_RECORDS} at once); send this one again once they are answered` });
  }
  queuedByKey.set(update.key, queued + records);
  return new Promise((resolve) => {
    let answered = false;
    const done = (outcome: Outcome) => {
      // Counted off once, however often an update is answered (a batch that throws answers all of it again).
      if (answered) return;
      answered = true;
      const left = (queuedByKey.get(update.key) ?? records) - records;
      if (left > 0) queuedByKey.set(update.key, left);
      else queuedByKey.delete(update.key);
      resolve(outcome);
    };
    const queue = queues.get(zone) ?? [];
    queue.push({ ...update, resolve: done });
    queues.set(zone, queue);
    if (!running.has(zone)) void work(zone, deps);
  });
}

async function work(zone: string, deps: BatchDeps): Promise<void> {
  running.add(zone);
  try {
    for (let queue = queues.get(zone); queue?.length; queue = queues.get(zone)) {
      const batch = queue.splice(0, batchLength(queue));
      try {
        await applyBatch(zone, batch, deps);
      } catch (error) {
        deps.logger.error(`gateway: updates of ${zone} failed: ${(error as Error).stack ?? String(error)}`);
        for (const p of batch) p.resolve({ rcode: RCODE_UPDATE.SERVFAIL, ede: EDE.OTHER, why: 'internal error; see the gateway log' });
      }
    }
  } finally {
    running.delete(zone);
  }
}

/** How many updates at the head of the queue the next batch takes: at least one, then as long as their records fit MAX_BATCH_RECORDS. */
function batchLength(queue: Pending[]): number {
  let records = recordsOf(queue[0]!.message);
  let n = 1;
  while (n < queue.length && records + recordsOf(queue[n]!.message) <= MAX_BATCH_RECORDS) records += recordsOf(queue[n++]!.message);
  return n;
}

/**
 * The names of the zone an update's prerequisites and changes concern: all it needs read. One
 * outside the zone holds none of its records (it is answered NOTZONE in its turn, RFC 2136 3.2:
 * after the prerequisites before it), and is never read: its filter ("t", say) may list every entry.
 */
const namesOf = (message: UpdateMessage, zone: string): string[] =>
  [...message.prerequisites, ...message.updates].map((r) => r.name).filter((name) => atOrBelow(name, zone));

/** Lets the listeners answer what arrived meanwhile (queries, probes) before the next update is evaluated. */
const yieldToListeners = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The records at `names`, from records grouped by name. */
const recordsAt = (byName: Map<string, LiveRecord[]>, names: Iterable<string>): LiveRecord[] => [...new Set(names)].flatMap((n) => byName.get(n) ?? []);

function groupByName(records: LiveRecord[], names: Set<string>): Map<string, LiveRecord[]> {
  const byName = new Map<string, LiveRecord[]>([...names].map((n) => [n, []]));
  for (const r of records) byName.get(r.name)?.push(r);
  return byName;
}

/** The records the provider holds at `names`, read afresh (reading.ts) and shown in the zone's view. */
async function readNames(provider: ZoneProvider, zone: string, names: Set<string>, reading: Reading, deps: BatchDeps): Promise<LiveRecord[]> {
  const { atNames, whole } = await readAt(provider, zone, names, reading, deps.views);
  if (whole) deps.views.show(zone, whole);
  else deps.views.showNames(zone, names, atNames);
  return atNames;
}

async function applyBatch(zone: string, batch: Pending[], deps: BatchDeps): Promise<void> {
  const everyone = (outcome: Outcome) => batch.forEach((p) => p.resolve(outcome));
  let lock;
  try {
    lock = acquireZoneLock(deps.stateDir, zone);
  } catch (error) {
    return everyone({ rcode: RCODE_UPDATE.SERVFAIL, ede: EDE.NOT_READY, why: `the zone is locked by another change (${(error as Error).message})` });
  }
  try {
    const provider = deps.providerOf(zone);
    // A key that spent its share of the budget is answered before anything is read for it.
    const shares = deps.keyCalls;
    if (shares) {
      const spent = batch.map((p) => shares.afford(p.key, 1));
      batch.forEach((p, i) => spent[i] && p.resolve({ rcode: RCODE_UPDATE.REFUSED, ede: EDE.PROHIBITED, why: spent[i]! }));
      batch = batch.filter((_, i) => !spent[i]);
      if (!batch.length) return;
    }
    const names = new Set(batch.flatMap((p) => namesOf(p.message, zone)));
    const reading = readPlan(zone, names, deps.views);
    // Nothing is read or evaluated when the budget cannot even pay for the reading.
    const poor = deps.affordCalls?.(reading.calls);
    if (poor) return everyone({ rcode: RCODE_UPDATE.SERVFAIL, ede: EDE.OTHER, why: poor });
    let live: LiveRecord[];
    try {
      live = await readNames(provider, zone, names, reading, deps);
    } catch (error) {
      return everyone({ rcode: RCODE_UPDATE.SERVFAIL, ede: EDE.NETWORK_ERROR, why: `cannot read the zone from the provider: ${(error as Error).message}` });
    }
    // Each update's key pays its part of the reading.
    for (const p of batch) shares?.charge(p.key, Math.ceil(reading.calls / batch.length));
    const keys = deps.keys();
    const kept = keptRecords(deps.stateDir, zone, deps.hosts, keys);
    // The records at the batch's names as the updates accepted so far leave them.
    const current = groupByName(live, names);
    // DHCID: kept by the gateway, changed with the batch and saved only with the provider's writes.
    const dhcid = new DhcidBatch(deps.dhcid, zone);
    // What each key may hold in the zone (key-quotas.ts), counted across the batch's updates.
    const quotas = deps.owners && new QuotaBatch(deps.owners, zone, keys);
    const accepted: { pending: Pending; changes: Change[] }[] = [];
    // An answer decided against the zone as the updates accepted before it would leave it (a
    // no-op, a failed prerequisite) holds only if their writes are made: it waits for the batch,
    // and if the batch fails the update is evaluated again in the next one (against a fresh read).
    // An attack found "NOERROR" for a change never made: the same add behind one the provider refused.
    const contingent: { pending: Pending; outcome: Outcome }[] = [];
    const decide = (pending: Pending, outcome: Outcome) => (accepted.length ? contingent.push({ pending, outcome }) : pending.resolve(outcome));
    const waiting = () => contingent.map(({ pending }) => pending);
    // Writes the accepted updates may take (an upper bound: a later update may undo an earlier one's).
    let writes = 0;
    for (const [i, pending] of batch.entries()) {
      if (i) await yieldToListeners();
      const own = namesOf(pending.message, zone);
      const here = recordsAt(current, own);
      // A delete of every type at a name (type ANY) needs the key to be allowed each type there, DHCID included (rules.ts, dhcid/rules.ts).
      const evaluation = evaluateWithDhcid(pending.message, here, zone, (owner, type) => grantsFor(keys, pending.key, zone, owner, type).length > 0, dhcid.held, dhcid.spare);
      if (!evaluation.ok) {
        decide(pending, { rcode: evaluation.rcode, ede: evaluation.ede, why: evaluation.why });
        continue;
      }
      const plan = planTo(here, evaluation.wanted, zone);
      const refusal = plan.changes.map((c) => kept(c, pending.key)).find(Boolean);
      if (refusal) {
        decide(pending, { rcode: RCODE_UPDATE.REFUSED, ede: EDE.PROHIBITED, why: refusal });
        continue;
      }
      const dhcidChanges = dhcid.changes(evaluation.dhcid);
      const overQuota = quotas?.admit(pending.key, [...plan.changes, ...dhcidChanges]);
      if (overQuota) {
        decide(pending, { rcode: RCODE_UPDATE.REFUSED, ede: EDE.PROHIBITED, why: overQuota });
        continue;
      }
      if (!plan.changes.length && !dhcidChanges.length) {
        decide(pending, OK);
        continue;
      }
      // Each update is weighed against the budget as it is accepted: one too big for it fails alone, not the batch.
      const cost = callCount(stepsOf(plan.changes));
      const unaffordable = cost ? deps.affordCalls?.(2 * (writes + cost) + reading.calls, true) : undefined;
      if (unaffordable) {
        decide(pending, { rcode: RCODE_UPDATE.SERVFAIL, ede: EDE.OTHER, why: unaffordable });
        continue;
      }
      // The key's share holds its writes and what undoing them would take; it is charged the writes.
      const overShare = cost ? shares?.afford(pending.key, 2 * cost) : undefined;
      if (overShare) {
        decide(pending, { rcode: RCODE_UPDATE.REFUSED, ede: EDE.PROHIBITED, why: overShare });
        continue;
      }
      shares?.charge(pending.key, cost);
      writes += cost;
      for (const [name, records] of groupByName(simulate(here, plan.changes), new Set(own))) current.set(name, records);
      dhcid.accept(evaluation.dhcid);
      accepted.push({ pending, changes: [...plan.changes, ...dhcidChanges] });
    }
    if (!accepted.length) return;
    const wanted = recordsAt(current, names);
    const plan = planTo(live, managedRecords(wanted, zone), zone);
    // A budget spent half-way would leave the update half-made: nothing is sent unless all of it fits.
    const spent = plan.changes.length ? deps.setAsideCalls?.(zone, plan, reading.calls) : undefined;
    if (spent) {
      requeue(zone, waiting());
      return accepted.forEach(({ pending }) => pending.resolve({ rcode: RCODE_UPDATE.SERVFAIL, ede: EDE.OTHER, why: spent }));
    }
    const unsaved = dhcid.save();
    if (unsaved) {
      requeue(zone, waiting());
      return accepted.forEach(({ pending }) => pending.resolve({ rcode: RCODE_UPDATE.SERVFAIL, ede: EDE.OTHER, why: unsaved }));
    }
    const journaled: JournaledUpdate[] = accepted.map(({ pending, changes }) => ({ key: pending.key, client: pending.client, changes }));
    // An update of DHCID records only makes no provider call, and needs no intent line.
    const batchId = plan.changes.length ? newBatchId() : undefined;
    if (batchId) journalIntent(deps.stateDir, zone, batchId, journaled, deps.logger);
    const outcome: Pick<ApplyOutcome, 'done' | 'notDone' | 'failure'> = plan.changes.length ? await applyPlan(provider, plan, 'calls', deps.logger) : { done: [], notDone: [] };
    // Read again, the batch's names are shown in the zone's view as the provider holds them.
    const reread = () => readNames(provider, zone, names, reading, deps);
    const settled = outcome.failure?.uncertain
      ? await settleLostAnswer(reread, zone, live, stepsOf(plan.changes).flat(), (now, held) => undoWrites(provider, zone, now, live, held, deps.logger), deps.logger)
      : undefined;
    if (!outcome.failure || settled?.outcome === 'made') {
      quotas?.commit();
      for (const { pending, changes } of accepted) deps.logger.info(`gateway: key ${pending.key} changed ${zone}: ${changes.map((c) => `${c.action} ${(c.after ?? c.before)!.name} ${(c.after ?? c.before)!.type}`).join(', ')}`);
      journalResult(deps.stateDir, zone, batchId, 'made', journaled, deps.logger);
      // The names' content is known without another read; the entity IDs are not needed to answer queries.
      if (!settled) deps.views.showNames(zone, names, wanted);
      accepted.forEach(({ pending }) => pending.resolve({ ...OK, changed: true }));
      contingent.forEach(({ pending, outcome }) => pending.resolve(outcome));
      return;
    }
    if (settled && settled.outcome !== 'not made') return answerUnsettled(zone, settled, { accepted, journaled, waiting: waiting(), batchId: batchId!, dhcid }, deps);
    dhcid.restore(deps.logger);
    const refused = outcome.failure.error instanceof ApiError && ['refused', 'bad-request', 'not-found'].includes(outcome.failure.error.kind);
    // Settled (read again after a lost answer, none of the batch's writes held): back as read.
    const rolledBack = settled ? true : outcome.done.length ? await rollBack(provider, zone, live, outcome.done, names, reading, deps) : true;
    const undone = settled
      ? `; the zone read again ${settled.undone ? `held ${settled.undone} of the batch's writes, which were undone` : "holds none of the batch's writes"}: nothing was changed`
      : outcome.done.length
        ? rolledBack
          ? '; the writes made before it were undone'
          : '; undoing the writes made before it failed too'
        : '';
    const why = `the provider ${refused ? 'refused' : 'failed'} a write (${(outcome.failure.error as Error).message})${undone}`;
    journalResult(deps.stateDir, zone, batchId, rolledBack ? 'not made' : 'unknown', journaled, deps.logger);
    // Shown again after the DHCID records went back, so that none of the batch's is answered.
    if (settled?.now) deps.views.showNames(zone, names, settled.now);
    else await reread().catch(() => undefined);
    const failed: Outcome = { rcode: refused && rolledBack ? RCODE_UPDATE.REFUSED : RCODE_UPDATE.SERVFAIL, ede: refused ? EDE.PROHIBITED : EDE.NETWORK_ERROR, why };
    // An update whose own writes were not the failing one is not shown another key's record. When
    // the provider refused a value (it will refuse it again) and the zone is back as read, such an
    // update goes round again without the one refused, as the contingent ones do: a client is not
    // failed for another's bad record. Bounded: a round that retries answers at least the refused
    // update, so each retry has one update fewer. A provider that failed (down, 5xx) is not asked again
    // at once: those are told to send again.
    // When undoing failed too (the provider refusing that as well: a plan full of another key's
    // records), an update none of whose names and types was written is as it was read: it goes
    // round too, against a fresh read. One whose writes may remain is told it failed.
    const offends = accepted.map(({ changes }) => holdsFailedWrite(changes, outcome.failure!.step));
    const retry = refused && offends.includes(true);
    const untouched = (changes: Change[]) => rolledBack || !outcome.done.some((step) => holdsFailedWrite(changes, step));
    const bystander: Outcome = { rcode: RCODE_UPDATE.SERVFAIL, ede: refused ? EDE.OTHER : EDE.NETWORK_ERROR, why: bystanderReason(refused, undone) };
    const again: Pending[] = [];
    accepted.forEach(({ pending, changes }, i) => (offends[i] ? pending.resolve(failed) : retry && untouched(changes) ? again.push(pending) : pending.resolve(bystander)));
    requeue(zone, [...again, ...waiting()].sort((a, b) => batch.indexOf(a) - batch.indexOf(b)));
  } finally {
    deps.releaseCalls?.(zone);
    lock.release();
  }
}

/**
 * Answers the updates of a batch whose lost answer left it partly made or unknown
 * (settleLostAnswer), and keeps the journal with what the provider holds. The DHCID records stay
 * as saved: beside a record the provider holds (or may hold), the client's DHCID is what lets
 * that client (and only it) send again; a batch not made takes them back (applyBatch).
 */
function answerUnsettled(
  zone: string,
  settled: Settled,
  batch: { accepted: { pending: Pending }[]; journaled: JournaledUpdate[]; waiting: Pending[]; batchId: string; dhcid: DhcidBatch },
  deps: BatchDeps,
): void {
  const names = batch.journaled.flatMap((u) => u.changes.map((c) => (c.after ?? c.before)!));
  const holds = settled.now ? heldAt([...settled.now, ...dhcidRecordsAt(batch.dhcid, names)], names) : undefined;
  deps.logger.warn(`gateway: the DHCID records of the failed batch of ${zone} are kept: the provider ${settled.outcome === 'unknown' ? 'may hold' : 'holds'} some of its writes`);
  journalResult(deps.stateDir, zone, batch.batchId, settled.outcome, batch.journaled, deps.logger, settled.outcome === 'partly made' ? holds : undefined);
  const lost = "the provider's answer to a write was lost";
  const why =
    settled.outcome === 'partly made'
      ? `${lost}; read again, the zone held part of the batch and undoing it failed: part of it is made (the gateway's journal says what the provider holds)`
      : `${lost} and the zone could not be read again (${settled.unread ?? 'unknown'}): whether it was made is not known; send it again (the gateway reads the zone first)`;
  const failed: Outcome = { rcode: RCODE_UPDATE.SERVFAIL, ede: EDE.NETWORK_ERROR, why };
  batch.accepted.forEach(({ pending }) => pending.resolve(failed));
  requeue(zone, batch.waiting);
}

/** The DHCID records the batch leaves at `names`, in the listing's shape, for the journal. */
function dhcidRecordsAt(dhcid: DhcidBatch, names: { name: string; type: string }[]): LiveRecord[] {
  const at = new Set(names.filter((n) => n.type === 'DHCID').map((n) => n.name));
  return [...at].flatMap((name) => (dhcid.held.get(name) ?? []).map((r) => ({ name, type: 'DHCID' as LiveRecord['type'], ttl: r.ttl, value: Buffer.from(r.data, 'hex').toString('base64'), entityID: 'gateway' })));
}

/**
 * Puts updates whose answer depended on a failed batch (or that a refused value of another
 * update failed) back at the head of the zone's queue, in the order they came, for the next
 * batch. Bounded: a failed batch answers at least one update it accepted, so each update comes
 * back fewer times than the batch it arrived in had updates.
 */
function requeue(zone: string, updates: Pending[]): void {
  if (!updates.length) return;
  const queue = queues.get(zone) ?? [];
  queue.unshift(...updates);
  queues.set(zone, queue);
}

/** Numbers the records a batch's updates create, so that no two share an ID (a later update of the batch may see both). */
let pendingRecords = 0;

/** The listing as it will be once `changes` are made (new records get IDs of their own that never reach the provider). */
function simulate(current: LiveRecord[], changes: Change[]): LiveRecord[] {
  const byId = new Map(current.map((r) => [r.entityID, r]));
  for (const c of changes) {
    if (c.action === 'delete') byId.delete(c.before!.entityID);
    else if (c.action === 'update') byId.set(c.before!.entityID, { ...c.after!, entityID: c.before!.entityID });
    else {
      const id = `pending:${(pendingRecords = (pendingRecords + 1) % Number.MAX_SAFE_INTEGER)}`;
      byId.set(id, { ...c.after!, entityID: id });
    }
  }
  return [...byId.values()];
}

/** Takes back the batch's own writes that were made (`done`, batch-undo.ts); true when that worked. Only the batch's names are read again: its writes are all there. */
async function rollBack(provider: ZoneProvider, zone: string, before: LiveRecord[], done: Step[], names: Set<string>, reading: Reading, deps: BatchDeps): Promise<boolean> {
  try {
    const { atNames: now } = await readAt(provider, zone, names, reading, deps.views);
    return await undoWrites(provider, zone, now, before, done, deps.logger);
  } catch {
    return false;
  }
}
