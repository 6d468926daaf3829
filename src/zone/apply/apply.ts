// Apply: exactly the plan's steps, phase after phase, at most three calls in flight (the
// provider's limit per account), stopping at the first refused call: what was done and what
// was not is returned, never guessed. Or, when it needs fewer calls, the whole zone in one
// service/dnssetzone, with the records the plan leaves alone sent back at their live values.
import { ApiError, PagingError } from '../../api/errors.js';
import { TransportError } from '../../http/errors.js';
import type { Logger } from '../../lib/log.js';
import type { Plan } from '../plan/plan.js';
import { toProvider } from '../provider/provider-mapping.js';
import type { ZoneProvider } from '../provider/provider-zone.js';
import { describeRecord, type LiveRecord, type ZoneRecord } from '../record.js';
import { callsOf, stepsOf, type Step } from '../plan/steps.js';
import { IncompleteListingError, LIST_PAGE_LENGTH } from '../provider/zone-listing.js';
import { counted } from '../../lib/counted.js';

const MAX_IN_FLIGHT = 3;
/**
 * From this many calls on (and more than the replace's own reads), `--method auto` sends the zone in one dnssetzone
 * instead.
 */
const SETZONE_FROM_CALLS = 50;

export type Method = 'calls' | 'setzone';

export interface MethodChoice {
  method: Method;
  calls: number;
  /** Calls the other way would take. */
  callsOneByOne: number;
}

export function chooseMethod(plan: Plan, wanted: 'auto' | Method): MethodChoice {
  const callsOneByOne = callsOf(plan.changes);
  // The replace reads the whole zone again first (one dnslist per page) and sends all of it:
  // in a large zone a few hundred changes are fewer calls one by one.
  const setZoneCalls = 1 + Math.max(1, Math.ceil(plan.live.length / LIST_PAGE_LENGTH));
  const method =
    wanted === 'auto'
      ? callsOneByOne >= SETZONE_FROM_CALLS && callsOneByOne > setZoneCalls
        ? 'setzone'
        : 'calls'
      : wanted;
  return { method, calls: callsOneByOne === 0 ? 0 : method === 'setzone' ? 1 : callsOneByOne, callsOneByOne };
}

export interface ApplyOutcome {
  method: Method;
  done: Step[];
  notDone: Step[];
  /**
   * `uncertain`: the failed call, or another failed beside it, got no answer (timeout,
   * connection lost, 5xx), so it may have been made; `made`: whether it was, once the zone was read again
   * (lost-answer-apply.ts).
   */
  failure?: { step?: Step; error: unknown; uncertain: boolean; made?: boolean };
  maxInFlight: number;
}

const describeStep = (s: Step): string => `${s.call} ${describeRecord(s.record)}`;

export async function applyPlan(
  provider: ZoneProvider,
  plan: Plan,
  method: Method,
  logger: Logger,
): Promise<ApplyOutcome> {
  const phases = stepsOf(plan.changes);
  const all = phases.flat();
  if (method === 'setzone' && all.length) return applyWithSetZone(provider, plan, all, logger);
  const done = new Set<Step>();
  let failure: ApplyOutcome['failure'];
  let inFlight = 0;
  let maxInFlight = 0;
  const run = async (step: Step) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      if (step.call === 'create') await provider.create(step.record as ZoneRecord);
      else if (step.call === 'update') await provider.update(step.entityID!, step.record as ZoneRecord);
      else await provider.delete(step.entityID!);
    } finally {
      inFlight--;
    }
  };
  const runPhase = async (phase: Step[]) => {
    let next = 0;
    const worker = async () => {
      while (!failure && next < phase.length) {
        const step = phase[next++]!;
        try {
          await run(step);
          done.add(step);
          logger.info(`zone: ${step.call}d ${describeRecord(step.record)}`);
        } catch (error) {
          // Up to three calls are in flight: one refused and another unanswered leaves the zone
          // unknown all the same, so any unanswered call makes the failure uncertain.
          // (The cast: TypeScript narrows `failure` by the loop's test, not by other workers' writes.)
          const first = failure as ApplyOutcome['failure'];
          if (first) first.uncertain ||= error instanceof TransportError;
          else failure = { step, error, uncertain: error instanceof TransportError };
          logger.error(`zone: ${describeStep(step)} failed: ${(error as Error).message}`);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(MAX_IN_FLIGHT, phase.length) }, worker));
  };
  for (const [i, phase] of phases.entries()) {
    await runPhase(phase);
    if (!failure) continue;
    // A zone at its plan's entity limit (4003) refuses creates that the plan's own deletes make
    // room for: those deletes go first then, and the refused creates once more after them.
    const deletes = phases.at(-1)!;
    if (i === phases.length - 2 && atEntityLimit(failure.error) && deletes.every((s) => s.call === 'delete')) {
      logger.warn(
        "zone: the provider refused a create at its entity limit; making the plan's " +
          `${counted(deletes.length, 'delete')} first, then the creates again`,
      );
      const refused = phase.filter((s) => !done.has(s));
      failure = undefined;
      await runPhase(deletes);
      if (!failure) await runPhase(refused);
    }
    break;
  }
  return {
    method: 'calls',
    done: all.filter((s) => done.has(s)),
    notDone: all.filter((s) => !done.has(s)),
    failure,
    maxInFlight,
  };
}

/** The provider's "maximum entities reached": the service's plan holds no more entries. */
const atEntityLimit = (error: unknown): boolean => error instanceof ApiError && error.errorCode === 4003;

async function applyWithSetZone(
  provider: ZoneProvider,
  plan: Plan,
  steps: Step[],
  logger: Logger,
): Promise<ApplyOutcome> {
  const gone = new Set(plan.changes.flatMap((c) => (c.before && c.action !== 'create' ? [c.before.entityID] : [])));
  const stays: (LiveRecord | ZoneRecord)[] = plan.live.filter((r) => !gone.has(r.entityID));
  const added = plan.changes.flatMap((c) => (c.after ? [c.after] : []));
  let sent = false;
  try {
    // The replace sends back what the plan read; a record someone added or changed since (an
    // ACME client's challenge, the agent's new address) would be erased. Read again first.
    const again = await provider.listing();
    if (again.incomplete)
      throw new IncompleteListingError(
        `zone apply: reading the zone again before the service/dnssetzone: ${again.incomplete}; nothing was sent`,
      );
    const changed = changedSince(plan.live, again.records);
    if (changed.length)
      throw new PagingError(
        `zone apply: the zone changed since it was read ` +
          `(${changed.slice(0, 3).join(', ')}${changed.length > 3 ? ', ...' : ''}); nothing was sent; run it again`,
      );
    sent = true;
    await provider.setZone([...stays, ...added].map(toProvider));
    logger.info(`zone: dnssetzone sent ${stays.length + added.length} records (${steps.length} changes)`);
    return { method: 'setzone', done: steps, notDone: [], maxInFlight: 1 };
  } catch (error) {
    logger.error(`zone: dnssetzone failed: ${(error as Error).message}`);
    return {
      method: 'setzone',
      done: [],
      notDone: steps,
      failure: { error, uncertain: sent && error instanceof TransportError },
      maxInFlight: 1,
    };
  }
}

/** What differs between two listings of a zone, as `name TYPE added|changed|removed`. */
function changedSince(before: LiveRecord[], now: LiveRecord[]): string[] {
  const key = (r: LiveRecord) => `${r.name} ${r.type} ${r.ttl ?? '-'} ${r.priority ?? '-'} ${r.value}`;
  const then = new Map(before.map((r) => [r.entityID, r]));
  const differences: string[] = [];
  for (const r of now) {
    const old = then.get(r.entityID);
    if (!old) differences.push(`${r.name} ${r.type} added`);
    else if (key(old) !== key(r)) differences.push(`${r.name} ${r.type} changed`);
    then.delete(r.entityID);
  }
  for (const r of then.values()) differences.push(`${r.name} ${r.type} removed`);
  return differences;
}
