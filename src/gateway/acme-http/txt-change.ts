// TXT values at one name, added and removed through the gateway's own update path: the same
// RFC 2136 message nsupdate would send (add a record beside the others; delete that one record),
// queued with every other door's updates of the zone (update/batch.ts: one fresh read, the key's
// grants, the records others keep, the call budget and the key's share, its quotas, the zone's
// lock, the journal, rollback). Nothing here writes to the provider. What can be answered without
// a call is answered first: a name outside the served zones, or no TXT grant for it (403).
import { EDE } from '../../dns/wire/edns.js';
import { TYPE_CODES } from '../../dns/wire/types.js';
import { DEFAULT_TTL } from '../../zone/provider/entry-fields.js';
import { grantsFor } from '../keys/grants.js';
import type { Outcome } from '../update/batch-deps.js';
import type { UpdateDeps } from '../update/handler.js';
import { CLASS, type UpdateMessage, type UpdateRecord } from '../update/message.js';
import { readPlan } from '../update/reading.js';
import { RCODE_UPDATE } from '../update/rules.js';

export interface TxtDeps extends UpdateDeps {
  /** Whether the gateway's call budget is spent. */
  budgetSpent: () => boolean;
}

/** What became of a change: made (or already so), or refused with the HTTP status that says why. */
export type TxtResult = { ok: true } | { ok: false; status: 403 | 429 | 502 | 503; why: string };

/**
 * The zone of `name` when the key may change its TXT records; else why not: 403 (no zone, no
 * grant), 409 (as last read, the name is a CNAME: a TXT beside it would be ignored, RFC 2136
 * 3.4.2.2; or it is at or below a delegation, whose name servers answer for it: either way the
 * client would be answered 200 for a value the CA never sees).
 */
export function txtZone(
  name: string,
  key: string,
  deps: TxtDeps,
): { zone: string } | { status: 403 | 409; why: string } {
  const zone = deps.views.zoneOf(name);
  if (zone === undefined)
    return { status: 403, why: `${name} is in no zone this gateway serves (${deps.views.names.join(', ')})` };
  if (!grantsFor(deps.keys(), key, zone, name, 'TXT').length)
    return { status: 403, why: `the key ${key} may not change ${name} TXT` };
  const index = deps.views.index(zone);
  const cname = index?.nodes.get(name)?.find((r) => r.type === 'CNAME');
  if (cname) return { status: 409, why: `${name} is a CNAME (to ${cname.value}): write the challenge there` };
  const cut = index && cutAbove(name, zone, index.cuts);
  if (cut)
    return {
      status: 409,
      why: `${name} is below ${cut}, delegated to other name servers: write the challenge in that zone`,
    };
  return { zone };
}

/** The delegation (an NS below the apex) at `name` or above it, whose zone holds the name's records. */
function cutAbove(name: string, zone: string, cuts: Map<string, unknown>): string | undefined {
  for (let at = name; at.length > zone.length; at = at.slice(at.indexOf('.') + 1)) if (cuts.has(at)) return at;
  return undefined;
}

/** Why no change can be made now (the gateway stopping, the budget spent), answered before anything is read. */
export function unavailable(deps: TxtDeps): Extract<TxtResult, { ok: false }> | undefined {
  if (deps.stopping?.()) return { ok: false, status: 503, why: 'the gateway is stopping; send the request again' };
  if (deps.budgetSpent()) return { ok: false, status: 429, why: 'the call budget (--max-calls-per-hour) is spent' };
  return undefined;
}

/** Adds `add` beside the values at `name` and removes `remove` (each one record), as one update of `zone`. */
export function changeTxt(
  zone: string,
  name: string,
  change: { add: string[]; remove: string[] },
  key: string,
  client: string,
  deps: TxtDeps,
): Promise<TxtResult> {
  const unable = unavailable(deps);
  if (unable) return Promise.resolve(unable);
  // Values the gateway's view of the zone already holds, with none to remove, are no change (the
  // dyndns2 door's nochg): a client that sends its value again costs no call.
  if (!change.remove.length && change.add.every((value) => held(deps, zone, name, value)))
    return Promise.resolve({ ok: true });
  // What the update will take (its reading, a write per value, their undoing and the reading
  // again), weighed before anything is read: a budget too small for it is refused at once.
  const reading = readPlan(zone, new Set([name]), deps.views).calls;
  const least = 2 * reading + 2 * (change.add.length + change.remove.length);
  const poor = deps.affordCalls?.(least, true) ?? deps.keyCalls?.afford(key, least);
  if (poor) return refused(429, poor);
  const record = (value: string, klass: number): UpdateRecord => {
    const ttl = klass === CLASS.IN ? DEFAULT_TTL : 0;
    return { name, type: TYPE_CODES.TXT, class: klass, ttl, data: { name, ttl, type: 'TXT', value: [value] } };
  };
  const message: UpdateMessage = {
    id: 0,
    zone: { name: zone, type: TYPE_CODES.SOA, class: CLASS.IN },
    prerequisites: [],
    updates: [...change.add.map((v) => record(v, CLASS.IN)), ...change.remove.map((v) => record(v, CLASS.NONE))],
    edns: false,
  };
  const run = deps.updates.enqueue(zone, { key, client, message });
  deps.inFlight?.add(run);
  void run.finally(() => deps.inFlight?.delete(run));
  return run.then((outcome) => resultOf(outcome, deps));
}

/** Whether the view of `zone` (as last read, and as the gateway's own updates left it) holds `value` at `name`. */
const held = (deps: TxtDeps, zone: string, name: string, value: string): boolean =>
  deps.views
    .index(zone)
    ?.nodes.get(name)
    ?.some((r) => r.type === 'TXT' && r.value.join('') === value) ?? false;

const refused = (status: 403 | 429 | 502 | 503, why: string): Promise<TxtResult> =>
  Promise.resolve({ ok: false, status, why });

function resultOf(outcome: Outcome, deps: TxtDeps): TxtResult {
  if (outcome.rcode === RCODE_UPDATE.NOERROR) return { ok: true };
  const { why } = outcome;
  // A key past its share of the calls, or the budget spent: "too many requests", to be tried later.
  if (/has spent its share of the provider calls/.test(why) || /budget of \d+ provider calls/.test(why))
    return { ok: false, status: 429, why };
  if (outcome.rcode === RCODE_UPDATE.REFUSED && outcome.ede === EDE.NOT_READY) return { ok: false, status: 503, why };
  // The key's grants, its quotas, the records others keep, or the provider refusing the value: not this key's to do.
  if (outcome.rcode === RCODE_UPDATE.REFUSED) return { ok: false, status: 403, why };
  if (deps.budgetSpent()) return { ok: false, status: 429, why };
  return { ok: false, status: 502, why };
}
