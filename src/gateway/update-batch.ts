// Updates of one zone, made in batches: while one batch is being written, the updates that
// arrive wait, and the next batch takes all of them with one fresh read of the zone (issue 18:
// a burst of 50 updates within a second costs at most 5 reads). Each update of a batch is
// evaluated in order against the zone as the updates before it left it (simulated from the
// read), and answered for itself (a failed prerequisite fails that update only); the writes of
// the batch are then one plan of the zone engine from the zone read to the zone wanted, under
// the zone's lock. A write the provider fails half-way is undone, and the update that held it is
// answered SERVFAIL (REFUSED when the provider refused the change itself): none is half-made. The
// others of the batch go round again when the provider refused a value, else get SERVFAIL.
import { join } from 'node:path';
import { ApiError } from '../api/errors.js';
import { EDE } from '../dns/edns.js';
import type { Logger } from '../runtime/log.js';
import { acquireLock } from '../state/lock.js';
import { applyPlan, type ApplyOutcome } from '../zone/apply.js';
import { planZone, type Change, type Plan } from '../zone/plan.js';
import type { ZoneProvider } from '../zone/provider-zone.js';
import { isZoneType, sameRecord, sameValue, type LiveRecord, type ZoneRecord } from '../zone/record.js';
import type { Step } from '../zone/steps.js';
import { DhcidBatch } from './dhcid-batch.js';
import { bystanderReason, holdsFailedWrite } from './failed-write.js';
import type { DhcidStore } from './dhcid-store.js';
import { evaluateWithDhcid } from './dhcid-rules.js';
import { grantsFor } from './grants.js';
import { writeJournal } from './journal.js';
import type { GatewayKeys } from './keys-file.js';
import { keptRecords } from './kept-records.js';
import type { UpdateMessage } from './update-message.js';
import { managedRecords, RCODE_UPDATE } from './update-rules.js';
import type { ZoneViews } from './zone-views.js';

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
  /** Sets aside the provider calls of a batch's writes and their undoing (the gateway's budget); says why not when it cannot. */
  setAsideCalls?: (zone: string, plan: Plan) => string | undefined;
  /** Gives back what setAsideCalls set aside and the batch did not use. */
  releaseCalls?: (zone: string) => void;
  /** The DHCID records the gateway keeps (the provider cannot hold them). */
  dhcid: DhcidStore;
}

interface Pending {
  key: string;
  client: string;
  message: UpdateMessage;
  resolve: (outcome: Outcome) => void;
}

const queues = new Map<string, Pending[]>();
const running = new Set<string>();
const OK: Outcome = { rcode: 0, ede: 0, why: '' };

/** Queues an update of `zone`; resolves with its outcome once its batch is written. */
export function enqueueUpdate(zone: string, update: Omit<Pending, 'resolve'>, deps: BatchDeps): Promise<Outcome> {
  return new Promise((resolve) => {
    const queue = queues.get(zone) ?? [];
    queue.push({ ...update, resolve });
    queues.set(zone, queue);
    if (!running.has(zone)) void work(zone, deps);
  });
}

async function work(zone: string, deps: BatchDeps): Promise<void> {
  running.add(zone);
  try {
    for (let queue = queues.get(zone); queue?.length; queue = queues.get(zone)) {
      const batch = queue.splice(0);
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

async function applyBatch(zone: string, batch: Pending[], deps: BatchDeps): Promise<void> {
  const everyone = (outcome: Outcome) => batch.forEach((p) => p.resolve(outcome));
  let lock;
  try {
    lock = acquireLock(join(deps.stateDir, 'zone-locks', zone));
  } catch (error) {
    return everyone({ rcode: RCODE_UPDATE.SERVFAIL, ede: EDE.NOT_READY, why: `the zone is locked by another change (${(error as Error).message})` });
  }
  try {
    const provider = deps.providerOf(zone);
    let live: LiveRecord[];
    try {
      live = await provider.list();
    } catch (error) {
      return everyone({ rcode: RCODE_UPDATE.SERVFAIL, ede: EDE.NETWORK_ERROR, why: `cannot read the zone from the provider: ${(error as Error).message}` });
    }
    deps.views.show(zone, live);
    const keys = deps.keys();
    const kept = keptRecords(deps.stateDir, deps.hosts, keys);
    let current = live;
    // DHCID: kept by the gateway, changed with the batch and saved only with the provider's writes.
    const dhcid = new DhcidBatch(deps.dhcid, zone);
    const accepted: { pending: Pending; changes: Change[] }[] = [];
    // An answer decided against the zone as the updates accepted before it would leave it (a
    // no-op, a failed prerequisite) holds only if their writes are made: it waits for the batch,
    // and if the batch fails the update is evaluated again in the next one (against a fresh read).
    // An attack found "NOERROR" for a change never made: the same add behind one the provider refused.
    const contingent: { pending: Pending; outcome: Outcome }[] = [];
    const decide = (pending: Pending, outcome: Outcome) => (accepted.length ? contingent.push({ pending, outcome }) : pending.resolve(outcome));
    const waiting = () => contingent.map(({ pending }) => pending);
    for (const pending of batch) {
      // A delete of every type at a name (type ANY) needs the key to be allowed each type there, DHCID included (update-rules.ts, dhcid-rules.ts).
      const evaluation = evaluateWithDhcid(pending.message, current, zone, (owner, type) => grantsFor(keys, pending.key, zone, owner, type).length > 0, dhcid.held, dhcid.spare);
      if (!evaluation.ok) {
        decide(pending, { rcode: evaluation.rcode, ede: evaluation.ede, why: evaluation.why });
        continue;
      }
      const plan = planTo(current, evaluation.wanted, zone);
      const refusal = plan.changes.map((c) => kept(c, pending.key)).find(Boolean);
      if (refusal) {
        decide(pending, { rcode: RCODE_UPDATE.REFUSED, ede: EDE.PROHIBITED, why: refusal });
        continue;
      }
      const dhcidChanges = dhcid.changes(evaluation.dhcid);
      if (!plan.changes.length && !dhcidChanges.length) {
        decide(pending, OK);
        continue;
      }
      current = simulate(current, plan.changes);
      dhcid.accept(evaluation.dhcid);
      accepted.push({ pending, changes: [...plan.changes, ...dhcidChanges] });
    }
    if (!accepted.length) return;
    const plan = planTo(live, managedRecords(current, zone), zone);
    // A budget spent half-way would leave the update half-made: nothing is sent unless all of it fits.
    const spent = plan.changes.length ? deps.setAsideCalls?.(zone, plan) : undefined;
    if (spent) {
      requeue(zone, waiting());
      return accepted.forEach(({ pending }) => pending.resolve({ rcode: RCODE_UPDATE.SERVFAIL, ede: EDE.OTHER, why: spent }));
    }
    const unsaved = dhcid.save();
    if (unsaved) {
      requeue(zone, waiting());
      return accepted.forEach(({ pending }) => pending.resolve({ rcode: RCODE_UPDATE.SERVFAIL, ede: EDE.OTHER, why: unsaved }));
    }
    // An update of DHCID records only makes no provider call.
    const outcome: Pick<ApplyOutcome, 'done' | 'failure'> = plan.changes.length ? await applyPlan(provider, plan, 'calls', deps.logger) : { done: [] };
    if (outcome.failure) dhcid.restore(deps.logger);
    if (!outcome.failure) {
      for (const { pending, changes } of accepted) {
        deps.logger.info(`gateway: key ${pending.key} changed ${zone}: ${changes.map((c) => `${c.action} ${(c.after ?? c.before)!.name} ${(c.after ?? c.before)!.type}`).join(', ')}`);
        try {
          writeJournal(deps.stateDir, { zone, key: pending.key, client: pending.client, changes });
        } catch (error) {
          deps.logger.error(`gateway: the journal could not be written: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
        }
      }
      // The zone's content is known without another read; the entity IDs are not needed to answer queries.
      deps.views.show(zone, current);
      accepted.forEach(({ pending }) => pending.resolve({ ...OK, changed: true }));
      contingent.forEach(({ pending, outcome }) => pending.resolve(outcome));
      return;
    }
    const refused = outcome.failure.error instanceof ApiError && ['refused', 'bad-request', 'not-found'].includes(outcome.failure.error.kind);
    const rolledBack = outcome.done.length ? await rollBack(provider, zone, live, outcome.done, deps) : true;
    const undone = outcome.done.length ? (rolledBack ? '; the writes made before it were undone' : '; undoing the writes made before it failed too') : '';
    const why = `the provider ${refused ? 'refused' : 'failed'} a write (${(outcome.failure.error as Error).message})${undone}`;
    await deps.views.refresh(zone).catch(() => undefined);
    const failed: Outcome = { rcode: refused && rolledBack ? RCODE_UPDATE.REFUSED : RCODE_UPDATE.SERVFAIL, ede: refused ? EDE.PROHIBITED : EDE.NETWORK_ERROR, why };
    // An update whose own writes were not the failing one is not shown another key's record. When
    // the provider refused a value (it will refuse it again) and the zone is back as read, such an
    // update goes round again without the one refused, as the contingent ones do: a client is not
    // failed for another's bad record. Bounded: a round that retries answers at least the refused
    // update, so each retry has one update fewer. A provider that failed (down, 5xx) is not asked again
    // at once: those are told to send again.
    const offends = accepted.map(({ changes }) => holdsFailedWrite(changes, outcome.failure!.step));
    const retry = refused && rolledBack && offends.includes(true);
    const bystander: Outcome = { rcode: RCODE_UPDATE.SERVFAIL, ede: refused ? EDE.OTHER : EDE.NETWORK_ERROR, why: bystanderReason(refused, undone) };
    const again: Pending[] = [];
    accepted.forEach(({ pending }, i) => (offends[i] ? pending.resolve(failed) : retry ? again.push(pending) : pending.resolve(bystander)));
    requeue(zone, [...again, ...waiting()].sort((a, b) => batch.indexOf(a) - batch.indexOf(b)));
  } finally {
    deps.releaseCalls?.(zone);
    lock.release();
  }
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

/** The zone engine's plan from `live` to `wanted`; SOA, the apex NS and types ddedge does not manage stay as the provider has them. */
function planTo(live: LiveRecord[], wanted: ZoneRecord[], zone: string): Plan {
  const owner = ({ name, type }: { name: string; type: string }) => (type === 'SOA' || (type === 'NS' && name === zone) || !isZoneType(type) ? 'left to the provider' : undefined);
  return planZone(live, { zone, records: wanted.map((r) => ({ ...r, where: 'update' })), notes: [] }, owner);
}

/** The listing as it will be once `changes` are made (new records get IDs of their own that never reach the provider). */
function simulate(current: LiveRecord[], changes: Change[]): LiveRecord[] {
  const byId = new Map(current.map((r) => [r.entityID, r]));
  let created = 0;
  for (const c of changes) {
    if (c.action === 'delete') byId.delete(c.before!.entityID);
    else if (c.action === 'update') byId.set(c.before!.entityID, { ...c.after!, entityID: c.before!.entityID });
    else {
      const id = `pending:${byId.size}:${created++}`;
      byId.set(id, { ...c.after!, entityID: id });
    }
  }
  return [...byId.values()];
}

/**
 * Takes back the batch's own writes that were made (`done`); true when that worked. Not the zone
 * back to the listing read before the batch: an attack showed that rewrites what others changed
 * meanwhile (the agent's address, set through dynamic DNS while a long batch ran, went back to
 * the old one, with no grant for it and nothing in the journal).
 */
async function rollBack(provider: ZoneProvider, zone: string, before: LiveRecord[], done: Step[], deps: BatchDeps): Promise<boolean> {
  try {
    const now = await provider.list();
    const back = planTo(now, managedRecords(withoutSteps(now, before, done), zone), zone);
    if (back.changes.length) deps.logger.warn(`gateway: undoing ${back.changes.length} write(s) of a failed batch of ${zone}: ${back.changes.map((c) => `${c.action} ${(c.after ?? c.before)!.name} ${(c.after ?? c.before)!.type}`).join(', ')}`);
    return !(await applyPlan(provider, back, 'calls', deps.logger)).failure;
  } catch {
    return false;
  }
}

/**
 * The listing `now` with the `done` steps taken back: a record they created (one not in the
 * listing `before`) removed, one they changed set back if it still holds what they wrote, one
 * they deleted made again. What anyone else changed stays as it is now.
 */
export function withoutSteps(now: LiveRecord[], before: LiveRecord[], done: Step[]): LiveRecord[] {
  const listing = [...now];
  const earlier = new Set(before.map((r) => r.entityID));
  for (const step of done) {
    if (step.call === 'create') {
      const at = listing.findIndex((r) => !earlier.has(r.entityID) && sameValue(r, step.record));
      if (at >= 0) listing.splice(at, 1);
    } else if (step.call === 'update') {
      const at = listing.findIndex((r) => r.entityID === step.entityID && sameValue(r, step.record));
      if (at >= 0 && step.change.before) listing[at] = { ...(step.change.before as LiveRecord), entityID: listing[at]!.entityID };
    } else if (step.change.before && !listing.some((r) => sameRecord(r, step.change.before!))) {
      listing.push({ ...(step.change.before as LiveRecord), entityID: `undone:${listing.length}` });
    }
  }
  return listing;
}
