// A batch whose writes failed: its own writes that were made are taken back (batch-undo.ts),
// its DHCID records put back, the journal told whether the zone is as read, and its updates
// answered. The update that held the failing write is answered SERVFAIL (REFUSED when the
// provider refused the change itself and the zone is back as read): none is half-made. The
// others of the batch go round again when the provider refused a value, else get SERVFAIL.
// A batch whose lost answer left it partly made or unknown keeps its DHCID records
// (answerUnsettled).
import { ApiError } from '../../api/errors.js';
import { EDE } from '../../dns/wire/edns.js';
import type { ApplyOutcome } from '../../zone/apply/apply.js';
import type { Change } from '../../zone/plan/plan.js';
import type { Step } from '../../zone/plan/steps.js';
import type { ZoneProvider } from '../../zone/provider/provider-zone.js';
import type { LiveRecord } from '../../zone/record.js';
import type { DhcidBatch } from '../dhcid/batch.js';
import { heldAt, journalResult, type JournaledUpdate } from '../journal/batch-journal.js';
import { undoWrites } from './batch-undo.js';
import type { BatchDeps, Outcome, PendingUpdate } from './batch-deps.js';
import { waitingOn, type Accepted, type Evaluated } from './batch-evaluate.js';
import { readNames, type BatchRead } from './batch-read.js';
import { bystanderReason, holdsFailedWrite } from './failed-write.js';
import type { Settled } from './lost-answer.js';
import { readAt } from './reading.js';
import { RCODE_UPDATE } from './rules.js';

/** How a batch's writes failed. */
export interface FailedWrites {
  failure: NonNullable<ApplyOutcome['failure']>;
  /** The writes the provider answered as made. */
  done: Step[];
  /** What a read after a lost answer showed: none of the batch's writes held (or they were undone). */
  settled?: Settled;
  batchId?: string;
  journaled: JournaledUpdate[];
}

/** Takes back the batch's failed writes and answers its updates; resolves with those that go round again. */
export async function rollBackBatch(
  zone: string,
  batch: PendingUpdate[],
  provider: ZoneProvider,
  read: BatchRead,
  evaluated: Evaluated,
  failed: FailedWrites,
  deps: BatchDeps,
): Promise<PendingUpdate[]> {
  const { failure, done, settled } = failed;
  evaluated.dhcid.restore(deps.logger);
  const refused =
    failure.error instanceof ApiError && ['refused', 'bad-request', 'not-found'].includes(failure.error.kind);
  // Settled (read again after a lost answer, none of the batch's writes held): back as read.
  const rolledBack = settled ? true : done.length ? await rollBack(provider, zone, read, done, deps) : true;
  const undone = settled
    ? `; the zone read again ` +
      `${
        settled.undone
          ? `held ${settled.undone} of the batch's writes, which were ` + `undone`
          : "holds none of the batch's writes"
      }: nothing was changed`
    : done.length
      ? rolledBack
        ? '; the writes made before it were undone'
        : '; undoing the writes made before it failed too'
      : '';
  const why = `the provider ${refused ? 'refused' : 'failed'} a write (${(failure.error as Error).message})${undone}`;
  journalResult(
    deps.stateDir,
    zone,
    failed.batchId,
    rolledBack ? 'not made' : 'unknown',
    failed.journaled,
    deps.logger,
  );
  // Shown again after the DHCID records went back, so that none of the batch's is answered.
  if (settled?.now) deps.views.showNames(zone, read.names, settled.now);
  else await readNames(provider, zone, read.names, read.reading, deps).catch(() => undefined);
  const own: Outcome = {
    rcode: refused && rolledBack ? RCODE_UPDATE.REFUSED : RCODE_UPDATE.SERVFAIL,
    ede: refused ? EDE.PROHIBITED : EDE.NETWORK_ERROR,
    why,
  };
  const bystander: Outcome = {
    rcode: RCODE_UPDATE.SERVFAIL,
    ede: refused ? EDE.OTHER : EDE.NETWORK_ERROR,
    why: bystanderReason(refused, undone),
  };
  return answerFailed(batch, evaluated, { failure, done, refused, rolledBack }, { own, bystander });
}

/**
 * Answers the accepted updates of a failed batch; resolves with those that go round again.
 * An update whose own writes were not the failing one is not shown another key's record. When
 * the provider refused a value (it will refuse it again) and the zone is back as read, such an
 * update goes round again without the one refused, as the contingent ones do: a client is not
 * failed for another's bad record. Bounded: a round that retries answers at least the refused
 * update, so each retry has one update fewer. A provider that failed (down, 5xx) is not asked
 * again at once: those are told to send again. When undoing failed too (the provider refusing
 * that as well: a plan full of another key's records), an update none of whose names and types
 * was written is as it was read: it goes round too, against a fresh read. One whose writes may
 * remain is told it failed.
 */
function answerFailed(
  batch: PendingUpdate[],
  evaluated: Evaluated,
  how: { failure: FailedWrites['failure']; done: Step[]; refused: boolean; rolledBack: boolean },
  answers: { own: Outcome; bystander: Outcome },
): PendingUpdate[] {
  const offends = evaluated.accepted.map(({ changes }) => holdsFailedWrite(changes, how.failure.step));
  const retry = how.refused && offends.includes(true);
  const untouched = (changes: Change[]) => how.rolledBack || !how.done.some((step) => holdsFailedWrite(changes, step));
  const again: PendingUpdate[] = [];
  evaluated.accepted.forEach(({ pending, changes }, i) => {
    if (offends[i]) pending.resolve(answers.own);
    else if (retry && untouched(changes)) again.push(pending);
    else pending.resolve(answers.bystander);
  });
  return [...again, ...waitingOn(evaluated)].sort((a, b) => batch.indexOf(a) - batch.indexOf(b));
}

/**
 * Takes back the batch's own writes that were made (`done`, batch-undo.ts); true when that worked.
 * Only the batch's names are read again: its writes are all there.
 */
async function rollBack(
  provider: ZoneProvider,
  zone: string,
  read: BatchRead,
  done: Step[],
  deps: BatchDeps,
): Promise<boolean> {
  try {
    const { atNames: now } = await readAt(provider, zone, read.names, read.reading, deps.views);
    return await undoWrites(provider, zone, now, read.live, done, deps.logger);
  } catch {
    return false;
  }
}

/**
 * Answers the updates of a batch whose lost answer left it partly made or unknown
 * (settleLostAnswer), and keeps the journal with what the provider holds. The DHCID records stay
 * as saved: beside a record the provider holds (or may hold), the client's DHCID is what lets
 * that client (and only it) send again; a batch not made takes them back (rollBackBatch).
 */
export function answerUnsettled(
  zone: string,
  settled: Settled,
  batch: { accepted: Accepted[]; journaled: JournaledUpdate[]; batchId: string; dhcid: DhcidBatch },
  deps: BatchDeps,
): void {
  const names = batch.journaled.flatMap((u) => u.changes.map((c) => (c.after ?? c.before)!));
  const holds = settled.now ? heldAt([...settled.now, ...dhcidRecordsAt(batch.dhcid, names)], names) : undefined;
  const may = settled.outcome === 'unknown' ? 'may hold' : 'holds';
  deps.logger.warn(
    `gateway: the DHCID records of the failed batch of ${zone} are kept: the provider ${may} some of its writes`,
  );
  const partly = settled.outcome === 'partly made' ? holds : undefined;
  journalResult(deps.stateDir, zone, batch.batchId, settled.outcome, batch.journaled, deps.logger, partly);
  const lost = "the provider's answer to a write was lost";
  const why =
    settled.outcome === 'partly made'
      ? `${lost}; read again, the zone held part of the batch and undoing it failed: part of it is made (the ` +
        `gateway's journal says what the provider holds)`
      : `${lost} and the zone could not be read again (${settled.unread ?? 'unknown'}): whether it was made is not ` +
        `known; send it again (the gateway reads the zone first)`;
  const failed: Outcome = { rcode: RCODE_UPDATE.SERVFAIL, ede: EDE.NETWORK_ERROR, why };
  for (const { pending } of batch.accepted) pending.resolve(failed);
}

/** The DHCID records the batch leaves at `names`, in the listing's shape, for the journal. */
function dhcidRecordsAt(dhcid: DhcidBatch, names: { name: string; type: string }[]): LiveRecord[] {
  const at = new Set(names.filter((n) => n.type === 'DHCID').map((n) => n.name));
  const asListed =
    (name: string) =>
    (r: { ttl: number; data: string }): LiveRecord => ({
      name,
      type: 'DHCID',
      ttl: r.ttl,
      value: Buffer.from(r.data, 'hex').toString('base64'),
      entityID: 'gateway',
    });
  return [...at].flatMap((name) => (dhcid.held.get(name) ?? []).map(asListed(name)));
}
