// One UPDATE, from its message to the provider's writes and the answer: the zone must be served
// (NOTAUTH), the message signed by a known key (the TSIG guard answers bad signatures before
// this runs), then, under the zone's lock (the same lock `zone apply` takes, so the two never
// interleave), a fresh read of the zone, RFC 2136's evaluation (update-rules.ts), the zone
// engine's plan and apply. A write the provider refuses half-way is rolled back (the zone
// engine's plan from what is there now back to what was read) and answered SERVFAIL, or REFUSED
// when the provider refused the change itself. Every non-NOERROR answer carries an EDE.
import { join } from 'node:path';
import { ApiError } from '../api/errors.js';
import { appendAdditional, EDE, edeOption, optRecord } from '../dns/edns.js';
import { DnsError } from '../dns/errors.js';
import { encodeMessage } from '../dns/message.js';
import { OUR_EDNS_SIZE } from '../dns/responder.js';
import type { Signer } from '../dns/tsig-server.js';
import type { Logger } from '../log.js';
import { acquireLock } from '../state/lock.js';
import { applyPlan } from '../zone/apply.js';
import { planZone } from '../zone/plan.js';
import type { ZoneProvider } from '../zone/provider-zone.js';
import { isZoneType } from '../zone/record.js';
import { grantsFor } from './grants.js';
import { writeJournal } from './journal.js';
import { keptRecords } from './kept-records.js';
import type { GatewayKeys } from './keys-file.js';
import { OPCODE_UPDATE, readUpdate } from './update-message.js';
import { evaluateUpdate, managedRecords, RCODE_UPDATE } from './update-rules.js';
import type { ZoneViews } from './zone-views.js';

export interface UpdateDeps {
  views: ZoneViews;
  providerOf: (zone: string) => ZoneProvider;
  keys: () => GatewayKeys;
  stateDir: string;
  /** The agent's hosts as configured (--host / DDEDGE_HOSTS); the state file adds its own. */
  hosts: string[];
  logger: Logger;
  /** Set once the gateway is stopping: updates not yet started are refused, those in flight finish. */
  stopping?: () => boolean;
  /** Updates being made; the gateway waits for them before it exits. */
  inFlight?: Set<Promise<unknown>>;
}

/** Records (prerequisites and updates) one UPDATE may carry: far more than any client sends (external-dns batches 100s). */
const MAX_RECORDS = 1000;

/** Updates of one zone run one after another in this process; the lock file keeps other processes out. */
const queues = new Map<string, Promise<unknown>>();

export async function handleUpdate(packet: Buffer, signer: Signer | undefined, client: string, deps: UpdateDeps): Promise<Buffer> {
  // Not decodeMessage: an update's records may carry no data (a delete of an A RRset), which a query's reader refuses.
  let message;
  try {
    message = readUpdate(packet);
  } catch (error) {
    if (!(error instanceof DnsError)) throw error;
    return encodeMessage({ id: packet.readUInt16BE(0), response: true, opcode: OPCODE_UPDATE, rcode: RCODE_UPDATE.FORMERR, questions: [] });
  }
  const answer = (rcode: number, ede?: { code: number; why: string }) => {
    const bare = encodeMessage({ id: message.id, response: true, opcode: OPCODE_UPDATE, rcode, questions: [message.zone] });
    return message.edns ? appendAdditional(bare, optRecord({ udpSize: OUR_EDNS_SIZE, options: ede ? [edeOption(ede.code, ede.why)] : [] })) : bare;
  };
  const zone = deps.views.names.find((z) => z === message.zone.name);
  if (!zone || message.zone.class !== 1 || message.zone.type !== 6) return answer(RCODE_UPDATE.NOTAUTH, { code: EDE.NOT_AUTHORITATIVE, why: `${message.zone.name || '.'} is not a zone this gateway serves` });
  if (!signer) return answer(RCODE_UPDATE.NOTAUTH, { code: EDE.PROHIBITED, why: 'updates must be signed with a TSIG key' });
  // Each record may cost a provider call: a message of thousands is refused before any is read.
  if (message.prerequisites.length + message.updates.length > MAX_RECORDS) return answer(RCODE_UPDATE.REFUSED, { code: EDE.PROHIBITED, why: `an update may carry at most ${MAX_RECORDS} records; split it` });
  if (deps.stopping?.()) return answer(RCODE_UPDATE.REFUSED, { code: EDE.NOT_READY, why: 'the gateway is stopping; send the update again' });
  const key = signer.key.name;
  const previous = queues.get(zone) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(() => updateLocked(zone, key, client, message, deps));
  queues.set(zone, run);
  deps.inFlight?.add(run);
  void run.catch(() => undefined).finally(() => deps.inFlight?.delete(run));
  const outcome = await run.catch((error: unknown) => {
    deps.logger.error(`gateway: update of ${zone} by key ${key} failed: ${(error as Error).message}`);
    return { rcode: RCODE_UPDATE.SERVFAIL, ede: EDE.OTHER, why: 'internal error; see the gateway log' };
  });
  return answer(outcome.rcode, outcome.rcode === 0 ? undefined : { code: outcome.ede, why: outcome.why });
}

interface Outcome {
  rcode: number;
  ede: number;
  why: string;
}

async function updateLocked(zone: string, key: string, client: string, message: ReturnType<typeof readUpdate>, deps: UpdateDeps): Promise<Outcome> {
  let lock;
  try {
    lock = acquireLock(join(deps.stateDir, 'zone-locks', zone));
  } catch (error) {
    return { rcode: RCODE_UPDATE.SERVFAIL, ede: EDE.NOT_READY, why: `the zone is locked by another change (${(error as Error).message})` };
  }
  try {
    const provider = deps.providerOf(zone);
    let live;
    try {
      live = await provider.list();
    } catch (error) {
      return { rcode: RCODE_UPDATE.SERVFAIL, ede: EDE.NETWORK_ERROR, why: `cannot read the zone from the provider: ${(error as Error).message}` };
    }
    deps.views.show(zone, live);
    const keys = deps.keys();
    // A delete of every type at a name (type ANY) needs a grant that names no type.
    const evaluation = evaluateUpdate(message, live, zone, (owner, type) => grantsFor(keys, key, zone, owner, type).length > 0);
    if (!evaluation.ok) return { rcode: evaluation.rcode, ede: evaluation.ede, why: evaluation.why };
    // SOA, the apex NS and types ddedge does not manage stay as the provider has them.
    const owner = ({ name, type }: { name: string; type: string }) => (type === 'SOA' || (type === 'NS' && name === zone) || !isZoneType(type) ? 'left to the provider' : undefined);
    const plan = planZone(live, { zone, records: evaluation.wanted.map((r) => ({ ...r, where: 'update' })), notes: [] }, owner);
    if (!plan.changes.length) return { rcode: 0, ede: 0, why: '' };
    const kept = keptRecords(deps.stateDir, deps.hosts, keys);
    for (const change of plan.changes) {
      const why = kept(change, key);
      if (why) return { rcode: RCODE_UPDATE.REFUSED, ede: EDE.PROHIBITED, why };
    }
    const outcome = await applyPlan(provider, plan, 'calls', deps.logger);
    if (!outcome.failure) {
      deps.logger.info(`gateway: key ${key} changed ${zone}: ${plan.changes.map((c) => `${c.action} ${(c.after ?? c.before)!.name} ${(c.after ?? c.before)!.type}`).join(', ')}`);
      try {
        writeJournal(deps.stateDir, { zone, key, client, changes: plan.changes });
      } catch (error) {
        deps.logger.error(`gateway: the journal could not be written: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
      await deps.views.refresh(zone).catch(() => undefined);
      return { rcode: 0, ede: 0, why: '' };
    }
    const refused = outcome.failure.error instanceof ApiError && ['refused', 'bad-request', 'not-found'].includes(outcome.failure.error.kind);
    const rolledBack = outcome.done.length ? await rollBack(provider, zone, live, owner, deps) : true;
    const why = `the provider ${refused ? 'refused' : 'failed'} a write (${(outcome.failure.error as Error).message})${outcome.done.length ? (rolledBack ? '; the writes made before it were undone' : '; undoing the writes made before it failed too') : ''}`;
    await deps.views.refresh(zone).catch(() => undefined);
    return { rcode: refused && rolledBack ? RCODE_UPDATE.REFUSED : RCODE_UPDATE.SERVFAIL, ede: refused ? EDE.PROHIBITED : EDE.NETWORK_ERROR, why };
  } finally {
    lock.release();
  }
}

/** Brings the zone back to the listing read before the update; true when that worked. */
async function rollBack(provider: ZoneProvider, zone: string, before: Parameters<typeof managedRecords>[0], owner: Parameters<typeof planZone>[2], deps: UpdateDeps): Promise<boolean> {
  try {
    const now = await provider.list();
    const back = planZone(now, { zone, records: managedRecords(before, zone).map((r) => ({ ...r, where: 'rollback' })), notes: [] }, owner);
    const outcome = await applyPlan(provider, back, 'calls', deps.logger);
    return !outcome.failure;
  } catch {
    return false;
  }
}
