// The long-running agent: a cycle every interval. Transient failures back off; rejected
// credentials stop all provider calls until the configuration changes (re-read before each
// cycle, or at once on SIGHUP) or SIGUSR1 asks for a cycle. SIGTERM/SIGINT let the cycle
// in flight finish, then the daemon returns 0.
import type { Config } from '../config/config.js';
import { ExitCode, exitCodeOf } from '../errors.js';
import type { Logger } from '../log.js';
import type { CycleReport } from './cycle.js';
import { nextDelay } from './schedule.js';

export interface DaemonOptions {
  config: Config;
  /** Reads the configuration again (files, environment); throws ConfigError when it is invalid. */
  reload: () => Promise<Config>;
  cycle: (config: Config) => Promise<CycleReport>;
  logger: Logger;
  signals?: NodeJS.EventEmitter;
}

const TRANSIENT = new Set<number>([ExitCode.transient, ExitCode.partial, ExitCode.addressUnknown]);

export async function runDaemon(options: DaemonOptions): Promise<number> {
  const { logger } = options;
  const signals = options.signals ?? process;
  let config = options.config;
  let stopping = false;
  let forced = false;
  let wake: () => void = () => {};
  let blockedFingerprint: string | undefined;
  let failures = 0;

  const handlers: Record<string, () => void> = {
    SIGTERM: () => stop('SIGTERM'),
    SIGINT: () => stop('SIGINT'),
    SIGUSR1: () => {
      logger.info('SIGUSR1: running a cycle now');
      forced = true;
      wake();
    },
    SIGHUP: () => {
      logger.info('SIGHUP: reloading the configuration');
      forced = true;
      wake();
    },
  };
  const stop = (signal: string) => {
    logger.info(`${signal}: stopping after the current cycle`);
    stopping = true;
    wake();
  };
  for (const [signal, handler] of Object.entries(handlers)) signals.on(signal, handler);

  logger.info(`daemon started: ${config.hosts.join(', ')} every ${Math.round(config.intervalMs / 1000)}s`);
  try {
    while (!stopping) {
      config = await reloaded(config);
      const fingerprint = fingerprintOf(config);
      if (blockedFingerprint === fingerprint && !forced) {
        logger.debug('credentials were rejected; waiting for a configuration change, SIGHUP or SIGUSR1');
      } else {
        blockedFingerprint = undefined;
        forced = false;
        const exitCode = await runOneCycle(config);
        if (exitCode === ExitCode.auth) {
          blockedFingerprint = fingerprint;
          logger.error('credentials were rejected: no more provider calls until the configuration changes, SIGHUP or SIGUSR1');
        }
        failures = TRANSIENT.has(exitCode) ? failures + 1 : 0;
      }
      if (stopping) break;
      const delay = nextDelay(config.intervalMs, failures);
      if (failures) logger.info(`retrying in ${Math.round(delay / 1000)}s (failure ${failures} in a row)`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  } finally {
    for (const [signal, handler] of Object.entries(handlers)) signals.off(signal, handler);
  }
  logger.info('daemon stopped');
  return ExitCode.ok;

  async function runOneCycle(current: Config): Promise<number> {
    try {
      const report = await options.cycle(current);
      return report.exitCode;
    } catch (error) {
      logger.error(`cycle failed: ${(error as Error).message}`);
      const code = exitCodeOf(error);
      // An internal error or an unusable state directory must not become a tight loop.
      return code === ExitCode.auth ? code : ExitCode.transient;
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

/**
 * What a person would change to fix rejected credentials. Held in memory only, where the
 * configuration (and so the secrets) already is; never logged.
 */
function fingerprintOf(config: Config): string {
  return JSON.stringify([config.dyndns, config.api, config.hosts, config.service, config.via]);
}
