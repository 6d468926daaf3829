import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runEdgeCycle } from '../../agent/cycle-watchers.js';
import type { Config } from '../../config/config.js';
import type { Logger } from '../../lib/log.js';
import { runDaemon } from '../../agent/daemon.js';
import { ConfigError } from '../../lib/errors.js';
import { collectAfterCycle, collectBeforeExit, keepLongRunningHeapSmall } from '../../lib/long-running-heap.js';
import { acquireLock } from '../../state/lock.js';
import type { CommandContext } from '../command.js';
import { setup } from '../setup.js';

export async function run(context: CommandContext): Promise<number> {
  // A log collector that stops reading must not stop the cycles nor SIGTERM (process-output.ts).
  context.io.outputNeverBlocks?.(collectBeforeExit);
  keepLongRunningHeapSmall();
  const { config, logger } = await setup(context, 'cycle');
  let current = config;
  usableStateDir(config.stateDir);
  // An engine URL it cannot use stops the daemon before anything starts, in the engine reader's words (exit 2).
  if (config.containers)
    (await import('../../containers/engine/engine-url.js')).parseEngineUrl(
      config.containers.url,
      config.containers.setting,
    );
  // The HTTP endpoint (--listen) is started first, so that a taken port stops the daemon at once (exit 2).
  // The page's button asks the daemon directly (logged as the page's, not as a signal); before the daemon runs, it does
  // nothing.
  let askForCycle: ((by: string) => void) | undefined;
  const updateNow = () => askForCycle?.('update now (status page)');
  const endpoint = config.listen
    ? await (await import('../../agent/endpoint.js')).startAgentEndpoint({
        listen: config.listen,
        tls: config.listenTls,
        config: () => current,
        logger,
        updateNow,
      })
    : undefined;
  // The containers' names (--containers): the engine followed from the start; its rules are those of the start.
  let namesChanged: (() => void) | undefined;
  const containers = config.containers
    ? await (await import('../../agent/container-source.js')).followContainers(config, logger, () => namesChanged?.())
    : undefined;
  try {
    return await runDaemon({
      config,
      logger,
      cycleAsker: (ask) => (askForCycle = ask),
      containerAsker: (ask) => (namesChanged = ask),
      reload: async () => {
        const next = (await setup(context, 'cycle')).config;
        sayIfContainersChanged(config, next, logger);
        current = next;
        return next;
      },
      cycle: async (next, { shutdown, retryRefused, containersOnly }) => {
        current = next;
        try {
          const names = containers?.cycleInput(containersOnly);
          const report = await runEdgeCycle({ config: next, logger, shutdown, retryRefused, containers: names });
          await warnOfPersistExpiry(next, logger);
          return report;
        } finally {
          collectAfterCycle();
        }
      },
    });
  } finally {
    await containers?.stop();
    await endpoint?.close();
    // The last cycle's messages (an address change just before SIGTERM) get a short while to go out.
    if (current.notify.length) await (await import('../../notify/notifier.js')).drainShared(NOTIFY_STOP_WAIT_MS);
  }
}

/**
 * The DNS-PERSIST-01 records `acme persist` keeps in this state directory, 14 days before their persistUntil: a
 * warning in the log and a notification, once per persistUntil. Loaded only where such records are kept.
 */
async function warnOfPersistExpiry(config: Config, logger: Logger): Promise<void> {
  if (!existsSync(join(config.stateDir, 'acme', 'persisted.json'))) return;
  // Never a failure of the cycle: the records themselves were sent.
  try {
    const { persistExpiryNotices } = await import('../../agent/persist-watch.js');
    const events = await persistExpiryNotices(config.stateDir, new Date(), logger);
    if (events.length && config.notify.length)
      (await import('../../notify/notifier.js')).sharedNotifier(config.notify, logger).enqueue(events);
  } catch (error) {
    logger.warn(`the DNS-PERSIST-01 records were not checked for expiry: ${(error as Error).message}`);
  }
}

/**
 * The engine is followed as the start's settings say (--containers, -traefik, -grace): a reload that changes
 * them says so rather than leave the person who changed them to wonder, or to believe a bad URL was taken.
 */
function sayIfContainersChanged(start: Config, next: Config, logger: Logger): void {
  const shown = (c: Config) => JSON.stringify(c.containers && { ...c.containers, setting: undefined });
  if (shown(start) === shown(next)) return;
  logger.warn(
    'containers: the container settings changed; they take effect when the daemon starts again (the engine of the ' +
      'start is followed meanwhile)',
  );
}

/** Short: a service manager waits for the stop, and a dead notification service must not hold it up. */
const NOTIFY_STOP_WAIT_MS = 5_000;

/**
 * A state directory that cannot be created or written is exit 2 at start, as for `update`
 * (the cycles would only retry it). Taking the lock and giving it back is exactly that test;
 * a lock held by another cycle is left to the first cycle to meet.
 */
function usableStateDir(dir: string): void {
  try {
    acquireLock(dir).release();
  } catch (error) {
    if (error instanceof ConfigError) throw error;
  }
}
