// The gateway's hourly budget of provider calls (--max-calls-per-hour; 600 unless set): every
// HTTP request to the provider (zone reads at each refresh and update, writes, rollbacks,
// retries, pages) is reserved before it is sent, with the agent's counter (src/state/budget.ts),
// in <state dir>/gateway/calls.json. Apart from the agent's count in state.json: the agent and
// the gateway on one state directory have budgets of their own (60 and 600 by default), so a
// busy gateway never starves the agent's address updates, nor the agent the gateway's, and
// the gateway never writes the file the agent's cycle holds its lock for. Two gateways on one
// state directory (one per zone, say) share the one count: the file is read before each call.
// An update's writes and what undoing them would cost are set aside in one piece before the
// first is sent (setAside): a budget spent half-way would leave the update half-made.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../lib/atomic-write.js';
import type { Transport, WireRequest, WireResponse } from '../../http/transport.js';
import type { Logger } from '../../lib/log.js';
import { BudgetSpentError, CallBudget } from '../../state/budget.js';
import { readStateFile, type StateFileType } from '../../state/state-file.js';
import { matching, object, oneOf, table, whole } from '../../state/shape.js';
import type { Plan } from '../../zone/plan/plan.js';
import { callCount, stepsOf } from '../../zone/plan/steps.js';
import { LIST_PAGE_LENGTH } from '../../zone/provider/zone-listing.js';

/**
 * What the cheapest update that changes something takes: a read, a write, the write undoing it
 * should it fail, and the read again that undoing takes (as an update is weighed before it is
 * read: update/batch-read.ts).
 */
const CHEAPEST_UPDATE_CALLS = 4;

interface CountsFile {
  version: 1;
  calls: Record<string, number>;
}

const budgetPath = (stateDir: string): string => join(stateDir, 'gateway', 'calls.json');

export class GatewayBudget {
  private readonly counts: { calls?: Record<string, number> };
  /** Calls set aside for a zone's update batch, used by that zone's writes. */
  private readonly setAsides = new Map<string, CallBudget>();
  /** Provider calls sent, by operation (service/dnslist, …); for the metrics. */
  readonly sent = new Map<string, number>();
  /** Calls refused because the budget was spent. */
  refused = 0;
  /** Set while the budget is known to be spent: when calls resume. */
  private spentUntil?: Date;

  constructor(
    private readonly stateDir: string,
    readonly limit: number,
    private readonly logger: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.counts = { calls: readCounts(budgetPath(stateDir)) };
  }

  /** Calls still allowed this hour. */
  left(): number {
    this.reload();
    return this.fresh().left();
  }

  /** When calls resume, while the budget is spent. */
  spent(): Date | undefined {
    if (this.spentUntil && this.spentUntil.getTime() <= this.now().getTime()) {
      this.spentUntil = undefined;
      this.logger.info('gateway: the call budget allows calls again; updates and refreshes resume');
    }
    return this.spentUntil;
  }

  /**
   * When calls resume while fewer are left this hour than the cheapest update takes
   * (CHEAPEST_UPDATE_CALLS), whether or not a call was refused yet: an update that
   * cannot afford its calls sends none, so spent() alone missed a budget at 0.
   */
  exhausted(): Date | undefined {
    const known = this.spent();
    if (known) return known;
    this.reload();
    const trial = new CallBudget({ calls: { ...(this.counts.calls ?? {}) } }, this.limit, this.now, () => undefined);
    if (trial.left() >= CHEAPEST_UPDATE_CALLS) return undefined;
    try {
      trial.reserve(CHEAPEST_UPDATE_CALLS);
      return undefined;
    } catch (error) {
      if (!(error instanceof BudgetSpentError)) throw error;
      return error.resumeAt;
    }
  }

  /** The transport with every request reserved first; `zone` names the zone whose set-aside calls it may use. */
  wrap(inner: Transport, zone?: string): Transport {
    return {
      send: async (request: WireRequest): Promise<WireResponse> => {
        this.take(zone);
        const operation = /\/(\w+\/\w+)\/?$/.exec(request.url.pathname)?.[1] ?? 'other';
        this.sent.set(operation, (this.sent.get(operation) ?? 0) + 1);
        return inner.send(request);
      },
      close: inner.close ? () => inner.close!() : undefined,
    };
  }

  /**
   * Sets aside the calls of a plan's writes, a read of the zone after them and the writes that
   * would undo them; returns why not when the budget cannot hold them (nothing is sent then).
   */
  setAside(zone: string, plan: Plan, rereads?: number): string | undefined {
    const writes = callCount(stepsOf(plan.changes));
    if (!writes) return undefined;
    // The undoing reads again what the batch read (`rereads` calls), else the plan's listing.
    const reread = rereads ?? Math.max(1, Math.ceil((plan.live.length + writes) / LIST_PAGE_LENGTH));
    this.reload();
    const budget = this.fresh();
    try {
      budget.reserve(2 * writes + reread);
    } catch (error) {
      if (!(error instanceof BudgetSpentError)) throw error;
      // Not "spent" (refreshes go on with the calls left); the update's answer says why.
      return this.spentForUpdate(2 * writes + reread, budget.left(), error.resumeAt);
    }
    this.setAsides.set(zone, budget);
    return undefined;
  }

  /**
   * Why `calls` more calls do not fit in what is left this hour, undefined when they do;
   * reserves nothing. For an update's writes (`forUpdate`), worded as setAside words it.
   */
  afford(calls: number, forUpdate = false): string | undefined {
    this.reload();
    // A trial on a copy of the counts: it says when that many calls will fit, and writes nothing.
    const trial = new CallBudget({ calls: { ...(this.counts.calls ?? {}) } }, this.limit, this.now, () => undefined);
    const left = trial.left();
    try {
      trial.reserve(calls);
      return undefined;
    } catch (error) {
      if (!(error instanceof BudgetSpentError)) throw error;
      return forUpdate ? this.spentForUpdate(calls, left, error.resumeAt) : error.message;
    }
  }

  private spentForUpdate(calls: number, left: number, resumeAt: Date): string {
    const resume = resumeAt.toISOString().replace(/\.\d+Z$/, 'Z');
    return (
      `the budget of ${this.limit} provider calls an hour is spent: ` +
      `this update (and undoing it, should a write fail) may take ${calls} calls and ${left} are left; ` +
      `calls resume at ${resume} (--max-calls-per-hour)`
    );
  }

  /** Gives back what a zone's batch set aside and did not use. */
  release(zone: string): void {
    const budget = this.setAsides.get(zone);
    if (!budget) return;
    this.setAsides.delete(zone);
    budget.settle();
    this.persist();
  }

  private take(zone: string | undefined): void {
    this.reload();
    const budget = (zone !== undefined && this.setAsides.get(zone)) || this.fresh();
    try {
      budget.take();
    } catch (error) {
      if (error instanceof BudgetSpentError) {
        this.refused++;
        this.noteSpent(error);
      }
      throw error;
    }
  }

  private noteSpent(error: BudgetSpentError): void {
    if (!this.spent())
      this.logger.warn(
        `gateway: ${error.message}; until then updates are answered SERVFAIL and zones are not re-read (queries are ` +
          `answered from the last reading)`,
      );
    this.spentUntil = error.resumeAt;
  }

  /** A counter over the shared counts that reserves exactly one call per take (it starts with none used). */
  private fresh(): CallBudget {
    return new CallBudget(this.counts, this.limit, this.now, () => this.persist());
  }

  /**
   * The counts as the file has them now: another gateway on this state directory (one per zone,
   * say) counts in it too, and the calls of both weigh on the one budget. Read before each call;
   * an unreadable file leaves the counts held in memory.
   */
  private reload(): void {
    try {
      this.counts.calls = readCounts(budgetPath(this.stateDir));
    } catch {
      // Kept: the counts in memory are at least this process's own.
    }
  }

  private persist(): void {
    mkdirSync(join(this.stateDir, 'gateway'), { recursive: true, mode: 0o700 });
    const file: CountsFile = { version: 1, calls: this.counts.calls ?? {} };
    writeFileAtomic(budgetPath(this.stateDir), `${JSON.stringify(file)}\n`, 0o600);
  }
}

/**
 * Any damage stops the gateway (ConfigError, exit 2), the file left in place: a gateway that
 * forgot its count could flood the provider. The counts cover the last two hours at most.
 */
const COUNTS_FILE: StateFileType<CountsFile> = {
  maxBytes: 1024 * 1024,
  refuse: 'always',
  advice: "the gateway's count of provider calls is not known: remove the file to start counting afresh",
  shape: object({
    version: oneOf(1),
    calls: table(whole(0), matching(/^\d+$/, 'a minute number')),
  }),
};

/** The counts kept by an earlier run (none when there is no file). */
function readCounts(path: string): Record<string, number> {
  // The gateway alone writes it, by replacing it; damage is refused, so nothing is set aside.
  return readStateFile(path, COUNTS_FILE, { setAside: false }).value?.calls ?? {};
}
