// The long-running agent: a cycle every interval. Transient failures back off; rejected
// credentials stop all provider calls until the configuration changes (re-read before each
// cycle, or at once on SIGHUP) or SIGUSR1 asks for a cycle; a signal that arrives during a
// cycle is served right after it. SIGTERM/SIGINT let the requests in flight finish but start
// no new one (see shutdown.ts); a second one aborts them. Then the daemon returns 0.
import type { Config } from '../config/config.js';
import { systemClock, type Clock } from '../lib/clock.js';
import { ExitCode, exitCodeOf } from '../lib/errors.js';
import type { Logger } from '../lib/log.js';
import type { CycleReport } from './cycle.js';
import { planNextCycle } from './next-cycle.js';
import { BACKOFF_BASE_MS, nextDelay } from './schedule.js';
import { Shutdown } from './shutdown.js';

/** What a cycle of the daemon is told besides the configuration. */
interface CycleContext {
  shutdown: Shutdown;
  /**
   * A signal asked (SIGUSR1, SIGHUP): records the provider refused are tried again. The status page's button never
   * does: its cycle keeps each refused record to its backoff, so pressing it cannot spend the call budget on them.
   */
  retryRefused: boolean;
  /** A cycle for the containers' names alone (they changed): the hosts of DDEDGE_HOSTS wait for their interval. */
  containersOnly: boolean;
}

export interface DaemonOptions {
  config: Config;
  /** Reads the configuration again (files, environment); throws ConfigError when it is invalid. */
  reload: () => Promise<Config>;
  cycle: (config: Config, context: CycleContext) => Promise<CycleReport>;
  logger: Logger;
  signals?: NodeJS.EventEmitter;
  /**
   * Given the way to ask for a cycle in-process (the status page's button) while the daemon runs; undefined once it
   * stops.
   */
  cycleAsker?: (ask: ((by: string) => void) | undefined) => void;
  /** The waits between cycles (interval, backoff, the budget's resumption) run on it (default: the system's). */
  clock?: Clock;
  /**
   * Given the way to say that containers' names changed (--containers) while the daemon runs; undefined once it stops.
   * A burst of changes is one cycle: it runs CONTAINER_SETTLE_MS after the last change, at most CONTAINER_WAIT_MS
   * after the first.
   */
  containerAsker?: (ask: (() => void) | undefined) => void;
}

/** A compose file's containers start within a few seconds of each other: their names wait for the last. */
export const CONTAINER_SETTLE_MS = 2_000;
const CONTAINER_WAIT_MS = 10_000;

const TRANSIENT = new Set<number>([ExitCode.transient, ExitCode.partial, ExitCode.addressUnknown]);

export function runDaemon(options: DaemonOptions): Promise<number> {
  return new Daemon(options).run();
}

/** One daemon's run: its signals, its cycles and the waits between them. */
class Daemon {
  private readonly logger: Logger;
  private readonly signals: NodeJS.EventEmitter;
  private readonly clock: Clock;
  private readonly shutdown = new Shutdown();
  private readonly handlers: Record<string, () => void>;
  private config: Config;
  private stopping = false;
  private forced = false;
  /** The signal that asked for the next cycle: its result is logged, for the person who sent it. */
  private askedBy: string | undefined;
  /** A signal (not the page's button) asked for the next cycle: it retries refused records. */
  private retryRefused = false;
  private inCycle = false;
  private wake: () => void = () => {};
  private blockedFingerprint: string | undefined;
  private failures = 0;
  /** Set when the last cycle met a spent call budget: when calls resume. */
  private budgetResumesAt: number | undefined;
  /** When the next full cycle is due, while a cycle of the containers' names cut the wait for it short. */
  private fullDueAt: number | undefined;
  /** Containers' names changed: when the first change came, and the timer of their cycle. */
  private containersSince: number | undefined;
  private cancelSettle: () => void = () => {};
  private containersDue = false;

  constructor(private readonly options: DaemonOptions) {
    this.logger = options.logger;
    this.signals = options.signals ?? process;
    this.clock = options.clock ?? systemClock;
    this.config = options.config;
    this.handlers = {
      SIGTERM: () => this.stop('SIGTERM'),
      SIGINT: () => this.stop('SIGINT'),
      SIGUSR1: () => {
        this.retryRefused = true;
        this.askForCycle('SIGUSR1');
      },
      SIGHUP: () => {
        this.logger.info(
          this.inCycle
            ? 'SIGHUP: the configuration will be reloaded when this cycle ends'
            : 'SIGHUP: reloading the configuration',
        );
        this.forced = true;
        this.retryRefused = true;
        this.askedBy = 'SIGHUP';
        this.wake();
      },
    };
  }

  async run(): Promise<number> {
    for (const [signal, handler] of Object.entries(this.handlers)) this.signals.on(signal, handler);
    this.options.cycleAsker?.(this.askForCycle);
    this.options.containerAsker?.(this.containersChanged);
    this.logger.info(
      `daemon started: ${this.config.hosts.join(', ') || "the containers' names"} every ` +
        `${Math.round(this.config.intervalMs / 1000)}s`,
    );
    try {
      let containersOnly = false;
      while (!this.stopping) {
        await this.turn(containersOnly);
        if (this.stopping) break;
        // SIGUSR1 or SIGHUP during the cycle: served now, not after the interval.
        containersOnly = false;
        if (this.forced) continue;
        containersOnly = await this.waitForNextCycle();
      }
    } finally {
      planNextCycle(undefined);
      this.cancelSettle();
      this.options.cycleAsker?.(undefined);
      this.options.containerAsker?.(undefined);
      for (const [signal, handler] of Object.entries(this.handlers)) this.signals.off(signal, handler);
    }
    this.logger.info('daemon stopped');
    return ExitCode.ok;
  }

  /** `by` names who asked, in the log: a signal, or the status page's button. */
  private readonly askForCycle = (by: string): void => {
    this.logger.info(this.inCycle ? `${by}: another cycle will run when this one ends` : `${by}: running a cycle now`);
    this.forced = true;
    this.askedBy = by;
    this.wake();
  };

  /** Containers' names changed: a cycle of them once the burst has settled (see CONTAINER_SETTLE_MS). */
  private readonly containersChanged = (): void => {
    const now = this.clock.now();
    this.containersSince ??= now;
    this.cancelSettle();
    const delay = Math.min(CONTAINER_SETTLE_MS, Math.max(0, this.containersSince + CONTAINER_WAIT_MS - now));
    this.cancelSettle = this.clock.after(delay, () => {
      this.containersSince = undefined;
      this.containersDue = true;
      this.wakeForContainers();
    });
  };

  private wakeForContainers: () => void = () => {};

  private stop(signal: string): void {
    if (this.shutdown.request()) {
      this.logger.info(`${signal} again: aborting the requests in flight`);
    } else {
      this.logger.info(
        this.inCycle
          ? `${signal}: stopping; the requests in flight may finish, no new one starts (${signal} again aborts them)`
          : `${signal}: stopping`,
      );
    }
    this.stopping = true;
    this.wake();
  }

  /** The configuration read again, and a cycle unless rejected credentials are unchanged. */
  private async turn(containersOnly: boolean): Promise<void> {
    this.config = await this.reloaded(this.config);
    const fingerprint = fingerprintOf(this.config);
    if (this.blockedFingerprint === fingerprint && !this.forced) {
      this.logger.debug('credentials were rejected; waiting for a configuration change, SIGHUP or SIGUSR1');
      this.budgetResumesAt = undefined;
      return;
    }
    this.blockedFingerprint = undefined;
    const asked = { retryRefused: this.retryRefused, containersOnly };
    this.containersDue = false;
    const signal = this.askedBy;
    this.forced = false;
    this.retryRefused = false;
    this.askedBy = undefined;
    const { exitCode, resumeAt } = await this.runOneCycle(this.config, asked, signal);
    this.budgetResumesAt = resumeAt;
    if (exitCode === ExitCode.auth) {
      this.blockedFingerprint = fingerprint;
      this.logger.error(
        'credentials were rejected: no more provider calls until the configuration changes, SIGHUP or SIGUSR1',
      );
    }
    // A spent budget is no failure to back off from: retrying before calls resume only logs the same error.
    this.failures = TRANSIENT.has(exitCode) && this.budgetResumesAt === undefined ? this.failures + 1 : 0;
  }

  /**
   * The interval, a backoff or the budget's resumption, cut short by a signal, or by containers' names that changed
   * (true: a cycle of those alone, the full one still due when it was).
   */
  private async waitForNextCycle(): Promise<boolean> {
    if (this.containersDue && this.fullDueAt === undefined) this.fullDueAt = this.clock.now() + this.nextDelay();
    if (this.containersDue) return true;
    const delay = this.fullDueAt === undefined ? this.nextDelay() : Math.max(0, this.fullDueAt - this.clock.now());
    const resumesAt = this.budgetResumesAt;
    const at = this.clock.now() + delay;
    if (resumesAt !== undefined)
      this.logger.info(
        `the provider call budget is spent: next cycle in ${Math.round(delay / 1000)}s, at ${isoSeconds(at)}`,
      );
    else if (this.failures)
      this.logger.info(`retrying in ${Math.round(delay / 1000)}s (failure ${this.failures} in a row)`);
    planNextCycle(at);
    const forContainers = await new Promise<boolean>((resolve) => {
      const cancel = this.clock.after(delay, () => resolve(false));
      this.wake = () => {
        cancel();
        resolve(false);
      };
      this.wakeForContainers = () => {
        cancel();
        resolve(true);
      };
    });
    this.wakeForContainers = () => {};
    const containersOnly = forContainers && !this.forced && !this.stopping;
    this.fullDueAt = containersOnly ? at : undefined;
    return containersOnly;
  }

  /** The wait before the next full cycle: the interval, a backoff, or the budget's resumption. */
  private nextDelay(): number {
    const { intervalMs } = this.config;
    const resumesAt = this.budgetResumesAt;
    return resumesAt === undefined
      ? nextDelay(intervalMs, this.failures)
      : untilResume(resumesAt, intervalMs, this.clock.now());
  }

  private async runOneCycle(
    current: Config,
    asked: Omit<CycleContext, 'shutdown'>,
    signal: string | undefined,
  ): Promise<{ exitCode: number; resumeAt?: number }> {
    this.inCycle = true;
    try {
      const report = await this.options.cycle(current, { shutdown: this.shutdown, ...asked });
      // Unchanged records log nothing: without this line a signal's cycle would be silent.
      if (signal) this.logger.info(`${signal}: cycle done: ${describeCycle(report)}`);
      return { exitCode: report.exitCode, resumeAt: budgetResumeOf(report) };
    } catch (error) {
      this.logger.error(`cycle failed: ${(error as Error).message}`);
      const code = exitCodeOf(error);
      // An internal error or an unusable state directory must not become a tight loop.
      return { exitCode: code === ExitCode.auth ? code : ExitCode.transient };
    } finally {
      this.inCycle = false;
    }
  }

  private async reloaded(current: Config): Promise<Config> {
    try {
      return await this.options.reload();
    } catch (error) {
      this.logger.error(`configuration not reloaded, keeping the previous one: ${(error as Error).message}`);
      return current;
    }
  }
}

/** When calls resume, if a record of the cycle failed on a spent call budget (the latest such time). */
function budgetResumeOf(report: CycleReport): number | undefined {
  let latest: number | undefined;
  for (const { action, error } of report.outcomes) {
    // The budget's error class lives in a chunk loaded on demand; its own field tells it apart.
    const resumeAt =
      action === 'failed' && error instanceof Error && 'resumeAt' in error
        ? (error as { resumeAt: unknown }).resumeAt
        : undefined;
    if (resumeAt instanceof Date && !Number.isNaN(resumeAt.getTime()))
      latest = Math.max(latest ?? 0, resumeAt.getTime());
  }
  return latest;
}

/**
 * The wait until calls resume, never beyond the interval nor sooner than a first retry (a clock set back must not make
 * a tight loop).
 */
function untilResume(resumeAt: number, intervalMs: number, now: number): number {
  return Math.min(intervalMs, Math.max(BACKOFF_BASE_MS, resumeAt - now));
}

const isoSeconds = (ms: number): string => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');

/** "home.example.com A 81.0.2.15 unchanged; exit 0", or counts when there are many records. */
function describeCycle(report: CycleReport): string {
  const { outcomes } = report;
  if (outcomes.length <= 5)
    return (
      `${outcomes.map((o) => `${o.host} ${o.type} ${o.address} ${o.action}`).join('; ') || 'no record'}; exit ` +
      `${report.exitCode}`
    );
  const counts = new Map<string, number>();
  for (const o of outcomes) counts.set(o.action, (counts.get(o.action) ?? 0) + 1);
  return `${[...counts].map(([action, n]) => `${n} ${action}`).join(', ')}; exit ${report.exitCode}`;
}

/**
 * What a person would change to fix rejected credentials. Held in memory only, where the
 * configuration (and so the secrets) already is; never logged.
 */
function fingerprintOf(config: Config): string {
  return JSON.stringify([config.dyndns, config.api, config.hosts, config.service, config.via]);
}
