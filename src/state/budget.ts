// The hourly budget of provider calls the agent makes on its own (update, daemon): counted in
// the state by minute, so that no cycle, daemon, restart loop or misconfiguration can call
// the provider more often than --max-calls-per-hour. Calls are reserved in the state file
// before they are made (in growing blocks, so a cycle writes the file a few times, not once
// per call): a process killed mid-cycle has over-counted, never under-counted.
import { DdedgeError, ExitCode } from '../lib/errors.js';
import type { State } from './state.js';

const MINUTE_MS = 60_000;
/**
 * The one window of every call count (the agent's, the gateway's pool, each key's share): a call made during minute m
 * counts until the end of minute m + 60, so no 60 minutes ever hold more calls than the limit.
 */
export const CALL_WINDOW_MINUTES = 61;
const WINDOW_MS = CALL_WINDOW_MINUTES * MINUTE_MS;

export class BudgetSpentError extends DdedgeError {
  constructor(
    readonly limit: number,
    readonly resumeAt: Date,
  ) {
    super(
      `the budget of ${limit} provider calls an hour is spent; calls resume at ` +
        `${resumeAt.toISOString().replace(/\.\d+Z$/, 'Z')} (--max-calls-per-hour)`,
      ExitCode.transient,
    );
  }
}

export class CallBudget {
  private used = 0;
  private reserved = 0;
  private readonly reservations: [minute: string, count: number][] = [];

  /**
   * @param persist writes the state (with its counts) to disk; throws when it cannot, and then
   *                the call is not made.
   */
  constructor(
    private readonly state: Pick<State, 'calls'>,
    readonly limit: number,
    private readonly now: () => Date,
    private readonly persist: () => void,
  ) {}

  /** Calls made in this cycle. */
  get calls(): number {
    return this.used;
  }

  /** Accounts for one call about to be made; throws BudgetSpentError when none is left. */
  take(): void {
    if (this.used < this.reserved) {
      this.used++;
      return;
    }
    const now = this.now();
    const counts = this.window(now);
    const spent = Object.values(counts).reduce((a, b) => a + b, 0);
    const available = this.limit - spent;
    if (available <= 0) throw new BudgetSpentError(this.limit, this.resumeAt(counts));
    const block = Math.min(available, Math.max(1, this.used));
    const minute = String(Math.floor(now.getTime() / MINUTE_MS));
    counts[minute] = (counts[minute] ?? 0) + block;
    this.state.calls = counts;
    this.reservations.push([minute, block]);
    this.reserved += block;
    try {
      this.persist();
    } catch (error) {
      this.settle();
      throw error;
    }
    this.used++;
  }

  /** Calls the window still allows now, besides what this budget has reserved and not used. */
  left(): number {
    return Math.max(0, this.limit - Object.values(this.window(this.now())).reduce((a, b) => a + b, 0));
  }

  /** Calls still allowed to this budget now: those the window allows, and those it reserved and has not used. */
  available(): number {
    return this.left() + Math.max(0, this.reserved - this.used);
  }

  /**
   * Reserves `count` calls at once, all or none (the gateway's writes and their rollback, so
   * that a budget spent half-way never leaves a change half-made); the take()s that follow use
   * them. Throws BudgetSpentError, naming when that many calls are allowed, when fewer are left.
   */
  reserve(count: number): void {
    const now = this.now();
    const counts = this.window(now);
    const spent = Object.values(counts).reduce((a, b) => a + b, 0);
    if (this.limit - spent < count) throw new BudgetSpentError(this.limit, this.resumeAt(counts, count));
    if (count <= 0) return;
    const minute = String(Math.floor(now.getTime() / MINUTE_MS));
    counts[minute] = (counts[minute] ?? 0) + count;
    this.state.calls = counts;
    this.reservations.push([minute, count]);
    this.reserved += count;
    try {
      this.persist();
    } catch (error) {
      this.settle();
      throw error;
    }
  }

  /** Gives back what was reserved and not used, before the cycle's last write. */
  settle(): void {
    let unused = this.reserved - this.used;
    const counts = { ...this.state.calls };
    for (let i = this.reservations.length - 1; i >= 0 && unused > 0; i--) {
      const [minute, count] = this.reservations[i]!;
      const back = Math.min(unused, count);
      counts[minute] = Math.max(0, (counts[minute] ?? 0) - back);
      if (!counts[minute]) delete counts[minute];
      unused -= back;
    }
    this.state.calls = counts;
    this.reserved = this.used;
    this.reservations.length = 0;
  }

  /** The counts that still weigh on the budget at `now`; older ones are dropped. */
  private window(now: Date): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const [minute, count] of Object.entries(this.state.calls ?? {})) {
      const start = Number(minute) * MINUTE_MS;
      // Minutes far in the future come from a clock set back: they count for at most an hour.
      if (start + WINDOW_MS > now.getTime() && start < now.getTime() + WINDOW_MS && count > 0) counts[minute] = count;
    }
    return counts;
  }

  /**
   * When enough old calls have left the window for `need` more (never within the hour when `need` is beyond the limit:
   * an hour on).
   */
  private resumeAt(counts: Record<string, number>, need = 1): Date {
    if (need > this.limit) return new Date(this.now().getTime() + WINDOW_MS);
    let remaining = Object.values(counts).reduce((a, b) => a + b, 0);
    const minutes = Object.keys(counts)
      .map(Number)
      .sort((a, b) => a - b);
    for (const minute of minutes) {
      remaining -= counts[String(minute)]!;
      if (remaining <= this.limit - need) return new Date(minute * MINUTE_MS + WINDOW_MS);
    }
    return this.now();
  }
}
