// The long-running agent: a cycle every interval. Transient failures back off; rejected
// credentials stop all provider calls until the configuration changes (re-read before each
// cycle, or at once on SIGHUP) or SIGUSR1 asks for a cycle; a signal that arrives during a
// cycle is served right after it. SIGTERM/SIGINT let the requests in flight finish but start
// no new one (see shutdown.ts); a second one aborts them. Then the daemon returns 0.
import type { Config } from '../config/config.js';
import { ExitCode, exitCodeOf } from '../lib/errors.js';
import type { Logger } from '../lib/log.js';
import type { CycleReport } from './cycle.js';
import { planNextCycle } from './next-cycle.js';
import { BACKOFF_BASE_MS, nextDelay } from './schedule.js';
import { Shutdown } from './shutdown.js';

/** What a cycle of the daemon is told besides the configuration. */
export interface CycleContext {
  shutdown: Shutdown;
  /** A person asked for this cycle (SIGUSR1, SIGHUP): records the provider refused are tried again. */
  asked: boolean;
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
}

const TRANSIENT = new Set<number>([ExitCode.transient, ExitCode.partial, ExitCode.addressUnknown]);

export async function runDaemon(options: DaemonOptions): Promise<number> {
  const { logger } = options;
  const signals = options.signals ?? process;
  let config = options.config;
  let stopping = false;
  let forced = false;
  /** The signal that asked for the next cycle: its result is logged, for the person who sent it. */
  let askedBy: string | undefined;
  let inCycle = false;
  const shutdown = new Shutdown();
  let wake: () => void = () => {};
  let blockedFingerprint: string | undefined;
  let failures = 0;
  /** Set when the last cycle met a spent call budget: when calls resume. */
  let budgetResumesAt: number | undefined;

  const handlers: Record<string, () => void> = {
    SIGTERM: () => stop('SIGTERM'),
    SIGINT: () => stop('SIGINT'),
    SIGUSR1: () => askForCycle('SIGUSR1'),
    SIGHUP: () => {
      logger.info(
        inCycle
          ? 'SIGHUP: the configuration will be reloaded when this cycle ends'
          : 'SIGHUP: reloading the configuration',
      );
      forced = true;
      askedBy = 'SIGHUP';
      wake();
    },
  };
  /** `by` names who asked, in the log: a signal, or the status page's button. */
  const askForCycle = (by: string) => {
    logger.info(inCycle ? `${by}: another cycle will run when this one ends` : `${by}: running a cycle now`);
    forced = true;
    askedBy = by;
    wake();
  };
  const stop = (signal: string) => {
    if (shutdown.request()) {
      logger.info(`${signal} again: aborting the requests in flight`);
    } else {
      logger.info(
        inCycle
          ? `${signal}: stopping; the requests in flight may finish, no new one starts (${signal} again aborts them)`
          : `${signal}: stopping`,
      );
    }
    stopping = true;
    wake();
  };
  for (const [signal, handler] of Object.entries(handlers)) signals.on(signal, handler);
  options.cycleAsker?.(askForCycle);

  logger.info(`daemon started: ${config.hosts.join(', ')} every ${Math.round(config.intervalMs / 1000)}s`);
  try {
    while (!stopping) {
      config = await reloaded(config);
      const fingerprint = fingerprintOf(config);
      if (blockedFingerprint === fingerprint && !forced) {
        logger.debug('credentials were rejected; waiting for a configuration change, SIGHUP or SIGUSR1');
        budgetResumesAt = undefined;
      } else {
        blockedFingerprint = undefined;
        const asked = forced;
        const signal = askedBy;
        forced = false;
        askedBy = undefined;
        const { exitCode, resumeAt } = await runOneCycle(config, asked, signal);
        budgetResumesAt = resumeAt;
        if (exitCode === ExitCode.auth) {
          blockedFingerprint = fingerprint;
          logger.error(
            'credentials were rejected: no more provider calls until the configuration changes, SIGHUP or SIGUSR1',
          );
        }
        // A spent budget is no failure to back off from: retrying before calls resume only logs the same error.
        failures = TRANSIENT.has(exitCode) && budgetResumesAt === undefined ? failures + 1 : 0;
      }
      if (stopping) break;
      // SIGUSR1 or SIGHUP during the cycle: served now, not after the interval.
      if (forced) continue;
      const delay =
        budgetResumesAt === undefined
          ? nextDelay(config.intervalMs, failures)
          : untilResume(budgetResumesAt, config.intervalMs);
      if (budgetResumesAt !== undefined)
        logger.info(
          `the provider call budget is spent: next cycle in ${Math.round(delay / 1000)}s, at ` +
            `${isoSeconds(Date.now() + delay)}`,
        );
      else if (failures) logger.info(`retrying in ${Math.round(delay / 1000)}s (failure ${failures} in a row)`);
      planNextCycle(Date.now() + delay);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  } finally {
    planNextCycle(undefined);
    options.cycleAsker?.(undefined);
    for (const [signal, handler] of Object.entries(handlers)) signals.off(signal, handler);
  }
  logger.info('daemon stopped');
  return ExitCode.ok;

  async function runOneCycle(
    current: Config,
    asked: boolean,
    signal: string | undefined,
  ): Promise<{ exitCode: number; resumeAt?: number }> {
    inCycle = true;
    try {
      const report = await options.cycle(current, { shutdown, asked });
      // Unchanged records log nothing: without this line a signal's cycle would be silent.
      if (signal) logger.info(`${signal}: cycle done: ${describeCycle(report)}`);
      return { exitCode: report.exitCode, resumeAt: budgetResumeOf(report) };
    } catch (error) {
      logger.error(`cycle failed: ${(error as Error).message}`);
      const code = exitCodeOf(error);
      // An internal error or an unusable state directory must not become a tight loop.
      return { exitCode: code === ExitCode.auth ? code : ExitCode.transient };
    } finally {
      inCycle = false;
    }
  }

  async function reloaded(current: Config): Promise<Config> {
    try {
      return await options.reload();
    } catch (error) {
      logger.error(`configuration not reloaded, keeping the previous one: ${(error as Error).message}`);
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
function untilResume(resumeAt: number, intervalMs: number): number {
  return Math.min(intervalMs, Math.max(BACKOFF_BASE_MS, resumeAt - Date.now()));
}

const isoSeconds = (ms: number): string => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');

/** "home.example.com A 81.0.2.15 unchanged; exit 0", or counts when there are many records. */
function describeCycle(report: CycleReport): string {
  const { outcomes } = report;
  if (outcomes.length <= 5)
    return `${outcomes.map((o) => `${o.host} ${o.type} ${o.address} ${o.action}`).join('; ') || 'no record'}; exit ${report.exitCode}`;
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
