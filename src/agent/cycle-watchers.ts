// What happens around a cycle for the people and tools watching it: a heartbeat to a
// monitor (Healthchecks-style), a hook command per changed record, notifications, and Prometheus metrics.
// None of them can fail a cycle: each failure is a warning.
import type { Config } from '../config/config.js';
import { httpRequest } from '../http/request.js';
import type { Logger } from '../lib/log.js';
import { redact } from '../lib/redact.js';
import { runCycle, type CycleOptions, type CycleReport } from './cycle.js';

const PING_TIMEOUT_MS = 10_000;

/** runCycle with the heartbeat, the hook and the metrics file that the configuration asks for. */
export async function runEdgeCycle(options: CycleOptions): Promise<CycleReport> {
  const { config, logger } = options;
  const live = !options.dryRun;
  if (live) await ping(config, logger, '/start', options);
  let report: CycleReport;
  try {
    report = await runCycle(options);
  } catch (error) {
    if (live) await ping(config, logger, '/fail', options);
    throw error;
  }
  if (live) {
    await ping(config, logger, report.exitCode === 0 ? '' : '/fail', options);
    if (config.edge.onChange) {
      const { runHook } = await import('./hook.js');
      for (const outcome of report.outcomes.filter((o) => o.action === 'updated'))
        await runHook(config.edge.onChange, config.edge.onChangeTimeoutMs, outcome, logger);
    }
    if (config.notify.length && report.notices?.length) {
      // Queued, not awaited: a slow or dead notification service never holds up a cycle.
      const { sharedNotifier } = await import('../notify/notifier.js');
      sharedNotifier(config.notify, logger).enqueue(report.notices);
    }
    if (config.edge.metricsFile) {
      const { writeMetrics } = await import('./metrics.js');
      try {
        writeMetrics(config.edge.metricsFile, report.state, config, report.exitCode);
      } catch (error) {
        logger.warn(
          `cannot write the metrics file ${config.edge.metricsFile}: ` +
            `${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        );
      }
    }
  }
  return report;
}

/** One heartbeat; an unreachable monitor is a warning, never a failure. */
async function ping(
  config: Config,
  logger: Logger,
  suffix: '' | '/start' | '/fail',
  options: CycleOptions,
): Promise<void> {
  if (!config.edge.pingUrl) return;
  // Once a daemon is stopping no request starts, the monitor's included.
  if (options.shutdown?.stopping) return logger.debug('heartbeat not sent: stopping');
  const url = config.edge.pingUrl.replace(/\/+$/, '') + suffix;
  try {
    const response = await httpRequest({
      url,
      timeoutMs: Math.min(config.timeoutMs, PING_TIMEOUT_MS),
      maxBytes: 64 * 1024,
      setting: '--ping-url',
    });
    if (response.status < 200 || response.status >= 300)
      logger.warn(`the heartbeat monitor answered HTTP ${response.status} to ${redact(url)}`);
    else logger.debug('heartbeat sent', { url: redact(url) });
  } catch (error) {
    logger.warn(`heartbeat not delivered (${(error as Error).message}); the update itself is not affected`);
  }
}
