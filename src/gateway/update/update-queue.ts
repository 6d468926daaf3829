// Updates of each zone, made in batches: while one batch is being written, the updates that
// arrive wait, and the next batch takes all of them with one fresh read of the zone (so a burst
// of 50 updates within a second costs at most 5 reads), as far as their records fit a batch
// (limits.ts). One queue serves both doors (RFC 2136 and dyndns2): the gateway makes one and
// hands it to each, so nothing a door makes escapes what the other holds to.
import { EDE } from '../../dns/wire/edns.js';
import { applyBatch } from './batch.js';
import type { BatchDeps, Outcome, PendingUpdate, UpdateRequest } from './batch-deps.js';
import { MAX_BATCH_RECORDS, MAX_KEY_RECORDS, recordsOf } from './limits.js';
import { RCODE_UPDATE } from './rules.js';

/**
 * How many updates at the head of the queue the next batch takes: at least one, then as long as
 * their records fit MAX_BATCH_RECORDS.
 */
function batchLength(queue: PendingUpdate[]): number {
  let records = recordsOf(queue[0]!.message);
  let n = 1;
  while (n < queue.length && records + recordsOf(queue[n]!.message) <= MAX_BATCH_RECORDS)
    records += recordsOf(queue[n++]!.message);
  return n;
}

export class UpdateQueue {
  /** Each zone's updates waiting for a batch. */
  private readonly queues = new Map<string, PendingUpdate[]>();
  /** Zones whose batches are being made. */
  private readonly running = new Set<string>();
  /** Records of each key's updates waiting or being made (limits.ts). */
  private readonly queuedByKey = new Map<string, number>();
  /** Numbers the records the batches' updates create, so that no two share an ID. */
  private created = 0;

  constructor(private readonly deps: BatchDeps) {}

  /** Queues an update of `zone`; resolves with its outcome once its batch is written. */
  enqueue(zone: string, update: UpdateRequest): Promise<Outcome> {
    const records = recordsOf(update.message);
    const queued = this.queuedByKey.get(update.key) ?? 0;
    if (queued && queued + records > MAX_KEY_RECORDS) {
      const why =
        `the key ${update.key} has updates of ${queued} records waiting to be made (at most ` +
        `${MAX_KEY_RECORDS} at once); send this one again once they are answered`;
      return Promise.resolve({ rcode: RCODE_UPDATE.REFUSED, ede: EDE.NOT_READY, why });
    }
    this.queuedByKey.set(update.key, queued + records);
    return new Promise((resolve) => {
      let answered = false;
      const done = (outcome: Outcome) => {
        // Counted off once, however often an update is answered (a batch that throws answers all of it again).
        if (answered) return;
        answered = true;
        const left = (this.queuedByKey.get(update.key) ?? records) - records;
        if (left > 0) this.queuedByKey.set(update.key, left);
        else this.queuedByKey.delete(update.key);
        resolve(outcome);
      };
      const queue = this.queues.get(zone) ?? [];
      queue.push({ ...update, resolve: done });
      this.queues.set(zone, queue);
      if (!this.running.has(zone)) void this.work(zone);
    });
  }

  private async work(zone: string): Promise<void> {
    this.running.add(zone);
    try {
      for (let queue = this.queues.get(zone); queue?.length; queue = this.queues.get(zone)) {
        const batch = queue.splice(0, batchLength(queue));
        try {
          this.requeue(zone, await applyBatch(zone, batch, this.deps, this.newRecordId));
        } catch (error) {
          this.deps.logger.error(`gateway: updates of ${zone} failed: ${(error as Error).stack ?? String(error)}`);
          for (const p of batch)
            p.resolve({ rcode: RCODE_UPDATE.SERVFAIL, ede: EDE.OTHER, why: 'internal error; see the gateway log' });
        }
      }
    } finally {
      this.running.delete(zone);
    }
  }

  /**
   * Puts updates back at the head of the zone's queue, in the order they came, for the next
   * batch. Bounded: a failed batch answers at least one update it accepted, so each update comes
   * back fewer times than the batch it arrived in had updates.
   */
  private requeue(zone: string, updates: PendingUpdate[]): void {
    if (!updates.length) return;
    const queue = this.queues.get(zone) ?? [];
    queue.unshift(...updates);
    this.queues.set(zone, queue);
  }

  /** An ID for a record a batch's update creates; it never reaches the provider. */
  private readonly newRecordId = (): string => {
    this.created = (this.created + 1) % Number.MAX_SAFE_INTEGER;
    return `pending:${this.created}`;
  };
}
