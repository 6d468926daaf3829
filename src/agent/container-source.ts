// The containers' names for the agent's cycles: for the daemon, followed from the engine (a
// change asks for a cycle of the names); for `update`, read once from the containers running
// then. Either way the names kept before (the state directory's list) are held until the engine
// is heard, and a stopped container's grace runs on across runs.
import type { Config } from '../config/config.js';
import { DesiredNames, type KnownName } from '../containers/desired-names.js';
import type { ContainerNews, ContainerSeen, ContainerWatch } from '../containers/engine/news.js';
import { startNameWatch } from '../containers/name-watch.js';
import { namingRules } from '../containers/naming-rules.js';
import { systemClock, type Clock } from '../lib/clock.js';
import { ConfigError } from '../lib/errors.js';
import type { Logger } from '../lib/log.js';
import { readContainerNames } from '../state/container-names.js';
import type { ContainerCycle } from './cycle.js';

export interface ContainerSource {
  /** What the next cycle keeps; `only`: a cycle of the names alone. */
  cycleInput(only: boolean): ContainerCycle;
  stop(): Promise<void>;
}

export interface WatchedOptions {
  config: Config;
  logger: Logger;
  clock: Clock;
  /** Follows the engine (or a test's fake). */
  watch: (onNews: (news: ContainerNews) => void) => ContainerWatch;
  /** The names changed: a cycle of them is due. */
  onChange: () => void;
}

/** For the daemon: the engine followed until stop(). */
export function watchedContainerNames(options: WatchedOptions): ContainerSource {
  const { config, logger, clock } = options;
  const names = seededNames(config, logger, clock);
  const watch = startNameWatch({ watch: options.watch, names, clock, logger, onChange: () => options.onChange() });
  const { zones } = namingRules(config);
  return {
    cycleInput: (only) => ({ wanted: names.wanted(), only, zones }),
    stop: () => watch.stop(),
  };
}

/** For the daemon: the engine of --containers followed (its code loaded only then). */
export async function followContainers(config: Config, logger: Logger, onChange: () => void): Promise<ContainerSource> {
  const { watchContainers } = await import('../containers/engine/watch.js');
  const { url = '', setting } = config.containers ?? {};
  return watchedContainerNames({
    config,
    logger,
    clock: systemClock,
    watch: (onNews) => watchContainers({ url, setting, clock: systemClock, logger }, onNews),
    onChange,
  });
}

/**
 * For `update`: the containers running now. An engine that cannot be read keeps every name as it was (none is let
 * go), and is said as an error the command's exit code shows.
 */
export async function runningContainerNames(
  config: Config,
  logger: Logger,
): Promise<{ cycle: ContainerCycle; unreadable?: string }> {
  const { listRunningContainers } = await import('../containers/engine/listing.js');
  const { url = '', setting } = config.containers ?? {};
  try {
    const running = await listRunningContainers({ url, setting, clock: systemClock, logger });
    return { cycle: listedContainerNames(config, logger, systemClock, running) };
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    const unreadable = `the container engine could not be read (${(error as Error).message}); every name is kept`;
    logger.error(`containers: ${unreadable}`);
    const names = seededNames(config, logger, systemClock);
    return { cycle: { wanted: names.wanted(), zones: namingRules(config).zones }, unreadable };
  }
}

/** For `update`: the containers running now, the names held before and their graces. */
export function listedContainerNames(
  config: Config,
  logger: Logger,
  clock: Clock,
  running: readonly ContainerSeen[],
): ContainerCycle {
  const names = seededNames(config, logger, clock);
  names.take({ kind: 'running', containers: running });
  names.expire();
  return { wanted: names.wanted(), zones: namingRules(config).zones };
}

function seededNames(config: Config, logger: Logger, clock: Clock): DesiredNames {
  const grace = config.containers?.graceMs ?? 0;
  const names = new DesiredNames(namingRules(config), grace, clock, (m) => logger.warn(m));
  const { file, damage } = readContainerNames(config.stateDir);
  if (damage) logger.warn(damage);
  names.seed(
    file.names.map(
      (n): KnownName => ({
        name: n.name,
        containers: n.containers,
        ...(n.target ? { target: n.target } : {}),
        ...(n.heldUntil ? { heldUntil: Date.parse(n.heldUntil) } : {}),
      }),
    ),
  );
  return names;
}
