// Hosts' addresses, as the gateway's own update path makes them: the RFC 2136 message nsupdate
// would send ("delete the A RRset, add the A record"), but with an add that names no TTL, so the
// record keeps the TTL the provider holds (its default included), queued with the DNS door's
// updates of the zone (update/batch.ts: one fresh read, the key's grants, the records others
// keep, the call budget, the zone's lock, the journal, rollback). Nothing here writes to the
// provider. Before that, what can be answered without a call is: a name outside the served
// zones or the key's grants (`nohost`), and an address the gateway's view of the zone already
// holds (`nochg`): a router that re-sends at every reconnect costs nothing.
import { EDE } from '../../dns/wire/edns.js';
import { TYPE_CODES, type DnsRecord } from '../../dns/wire/types.js';
import { canonicalAddress, type RecordType } from '../../lib/address.js';
import type { Change } from '../../zone/plan/plan.js';
import { grantsFor } from '../keys/grants.js';
import { keptRecords } from '../keys/kept-records.js';
import type { Outcome } from '../update/batch-deps.js';
import { planTo } from '../update/plan.js';
import { readPlan } from '../update/reading.js';
import { callCount, stepsOf } from '../../zone/plan/steps.js';
import type { UpdateDeps } from '../update/handler.js';
import { CLASS, type UpdateMessage, type UpdateRecord } from '../update/message.js';
import { RCODE_UPDATE } from '../update/rules.js';

/** The answer codes of the protocol, as the door counts them. */
export type Dyndns2Code = 'good' | 'nochg' | 'nohost' | 'notfqdn' | 'numhost' | 'abuse' | 'dnserr' | '911' | 'badauth';

export interface HostResult {
  code: Dyndns2Code;
  /** Why, for the log, when it is not good or nochg. */
  why?: string;
}

export interface HostUpdateDeps extends UpdateDeps {
  /**
   * Whether the gateway's call budget is spent (then the answer is `abuse`, as dyndns2 servers say for "too many
   * updates").
   */
  budgetSpent: () => boolean;
}

export type WantedAddresses = Partial<Record<RecordType, string>>;

/** A host whose update needs the provider: what it wants, and its records as the zone view holds them. */
export interface PendingHost {
  zone: string;
  name: string;
  wanted: WantedAddresses;
  here: DnsRecord[];
}

export const isPending = (d: HostResult | PendingHost): d is PendingHost => 'zone' in d;

/**
 * The host's answer when it needs no provider call (every `nochg` and every refusal), or its
 * update still to be made (updateHosts).
 */
export function decideHost(
  name: string,
  wanted: WantedAddresses,
  key: string,
  deps: HostUpdateDeps,
): HostResult | PendingHost {
  const zone = deps.views.zoneOf(name);
  if (zone === undefined)
    return { code: 'nohost', why: `${name} is in no zone this gateway serves (${deps.views.names.join(', ')})` };
  const keys = deps.keys();
  const types = Object.keys(wanted) as RecordType[];
  const ungranted = types.find((type) => !grantsFor(keys, key, zone, name, type).length);
  if (ungranted) return { code: 'nohost', why: `the key ${key} may not change ${name} ${ungranted}` };
  const index = deps.views.index(zone);
  // A zone not read yet (the provider was out of reach at start) cannot say what is already so.
  if (!index) return { code: '911', why: `${zone} has not been read from the provider yet` };
  const here = index.nodes.get(name) ?? [];
  if (here.some((r) => r.type === 'CNAME'))
    return { code: 'dnserr', why: `${name} is a CNAME; an address record cannot be added beside it` };
  const holds = (type: RecordType) => {
    const set = here.filter((r) => r.type === type);
    // The zone's text is usually the canonical one already: compared first without parsing it.
    return (
      set.length === 1 && (set[0]!.value === wanted[type] || canonicalAddress(String(set[0]!.value)) === wanted[type])
    );
  };
  // Answered before the records others keep are looked at (two files read from disk): a value
  // already so is no change, whoever keeps the record, and this is the answer a router gets at
  // every reconnect.
  if (types.every(holds)) return { code: 'nochg' };
  const kept = keptRecords(deps.stateDir, zone, deps.hosts, keys);
  for (const type of types) {
    const refusal = kept({ action: 'update', after: { name, type, value: wanted[type]! } } as Change, key);
    if (refusal) return { code: 'nohost', why: refusal };
  }
  return { zone, name, wanted, here };
}

/**
 * The updates of one request in one zone as one message: one batch, so one read of the zone,
 * and their writes made together or not at all (the answer is the same for each of them).
 */
export function updateHosts(
  zone: string,
  hosts: PendingHost[],
  key: string,
  client: string,
  deps: HostUpdateDeps,
): Promise<HostResult> {
  if (deps.stopping?.()) return Promise.resolve({ code: '911', why: 'the gateway is stopping; send the update again' });
  if (deps.budgetSpent())
    return Promise.resolve({ code: 'abuse', why: 'the call budget (--max-calls-per-hour) is spent' });
  // What the update will take (the reading, the writes the view says are needed, their undoing
  // and the reading after them), weighed before anything is read: a budget too small for it answers `abuse`
  // at once instead of spending a reading on an update that cannot be made.
  const least = leastCalls(zone, hosts, deps);
  const poor = deps.affordCalls?.(least, true) ?? deps.keyCalls?.afford(key, least);
  if (poor) return Promise.resolve({ code: 'abuse', why: poor });
  const message: UpdateMessage = {
    id: 0,
    zone: { name: zone, type: TYPE_CODES.SOA, class: CLASS.IN },
    prerequisites: [],
    updates: hosts.flatMap(updatesOf),
    edns: false,
  };
  const run = deps.updates.enqueue(zone, { key, client, message });
  deps.inFlight?.add(run);
  void run.finally(() => deps.inFlight?.delete(run));
  return run.then((outcome) => codeOf(outcome, deps));
}

/** The calls the batch will weigh the update at (update/batch-evaluate.ts), as the zone view has the hosts' records. */
function leastCalls(zone: string, hosts: PendingHost[], deps: HostUpdateDeps): number {
  const reading = readPlan(zone, new Set(hosts.map((h) => h.name)), deps.views).calls;
  let writes = 0;
  for (const { name, wanted, here } of hosts) {
    const types = Object.keys(wanted) as RecordType[];
    const live = here
      .filter((r) => (types as string[]).includes(r.type))
      .map((r, i) => ({ name, type: r.type, ttl: r.ttl, value: String(r.value), entityID: `view-${i}` }));
    // The TTL each keeps (updatesOf): the view's, so an update in place weighs one call.
    const after = types.map((type) => ({
      name,
      type,
      ttl: here.find((r) => r.type === type)?.ttl,
      value: wanted[type]!,
    }));
    writes += callCount(stepsOf(planTo(live, after, zone).changes));
  }
  // The batch spends the reading, then weighs the writes, their undoing and the reading again
  // (update/batch-evaluate.ts).
  return 2 * reading + 2 * writes;
}

/**
 * Delete each RRset, add the one address with no TTL of its own: it keeps the TTL the provider holds for the RRset
 * (an explicit one stays, the provider's default stays the default), and a new one gets the provider's default.
 */
function updatesOf({ name, wanted }: PendingHost): UpdateRecord[] {
  const updates: UpdateRecord[] = [];
  for (const type of Object.keys(wanted) as RecordType[]) {
    updates.push({ name, type: TYPE_CODES[type], class: CLASS.ANY, ttl: 0 });
    updates.push({
      name,
      type: TYPE_CODES[type],
      class: CLASS.IN,
      ttl: 0,
      ttlAsHeld: true,
      data: { name, ttl: 0, type, value: wanted[type]! },
    });
  }
  return updates;
}

function codeOf(outcome: Outcome, deps: HostUpdateDeps): HostResult {
  if (outcome.rcode === RCODE_UPDATE.NOERROR) return { code: outcome.changed ? 'good' : 'nochg' };
  // A key past its share of the call budget (key-calls.ts) is told to stop, as for the budget.
  if (/has spent its share of the provider calls/.test(outcome.why)) return { code: 'abuse', why: outcome.why };
  // A key's records quota (key-quotas.ts) is its permission, as its grants are: `nohost`, which a
  // router reads as "not yours to create" and does not hammer, rather than `dnserr` (the provider's).
  if (/ may hold at most \d+ /.test(outcome.why)) return { code: 'nohost', why: outcome.why };
  // The grants and kept records were checked above: a refusal now is the provider's, of the value.
  if (outcome.rcode === RCODE_UPDATE.REFUSED && outcome.ede !== EDE.NOT_READY)
    return { code: 'dnserr', why: outcome.why };
  if (deps.budgetSpent() || /budget of \d+ provider calls/.test(outcome.why))
    return { code: 'abuse', why: outcome.why };
  return { code: '911', why: outcome.why };
}
