// The engine's news turned into the names to act on, for the daemon: each piece of news that
// changes a name (came, changed target) and each grace that ends is told to `onChange`, which
// asks for a cycle of those names. The graces end on the clock the caller passes; a timer is
// set for the next one only, and none while the engine is lost.
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/log.js';
import { outsideText } from '../lib/outside-text.js';
import type { DesiredNames } from './desired-names.js';
import { containerLabel } from './labels.js';
import type { ContainerNews, ContainerWatch } from './engine/news.js';

export interface NameWatchOptions {
  /** Starts following the engine (or a test's fake), telling each piece of news. */
  watch: (onNews: (news: ContainerNews) => void) => ContainerWatch;
  names: DesiredNames;
  clock: Clock;
  logger: Logger;
  /** Names whose records must change now: they came, changed target, or their grace ended. */
  onChange: (names: string[]) => void;
}

export interface NameWatch {
  stop(): Promise<void>;
}

export function startNameWatch(options: NameWatchOptions): NameWatch {
  const { names, clock, logger, onChange } = options;
  let cancelTimer: (() => void) | undefined;
  let lost = false;
  let stopped = false;
  const schedule = () => {
    cancelTimer?.();
    cancelTimer = undefined;
    const next = names.nextExpiry();
    if (next === undefined || stopped) return;
    cancelTimer = clock.after(Math.max(0, next - clock.now()), () => {
      cancelTimer = undefined;
      const gone = names.expire();
      if (gone.length) {
        logger.info(`grace over for ${gone.join(', ')}: no running container gives them as they were`);
        onChange(gone);
      }
      schedule();
    });
  };
  const watch = options.watch((news) => {
    if (stopped) return;
    if (news.kind === 'lost') {
      if (!lost) logger.warn(`the container engine is not reachable (${news.reason}); every name is kept meanwhile`);
      lost = true;
    } else if (lost) {
      lost = false;
      logger.info('the container engine is reachable again');
    }
    logger.debug(`containers: ${describeNews(news)}`);
    const changed = names.take(news);
    // The running set may also end graces (a restart's names, known from before).
    const gone = news.kind === 'running' ? names.expire() : [];
    schedule();
    if (changed.length || gone.length) onChange([...new Set([...changed, ...gone])]);
  });
  return {
    async stop() {
      stopped = true;
      cancelTimer?.();
      await watch.stop();
    },
  };
}

function describeNews(news: ContainerNews): string {
  switch (news.kind) {
    case 'running':
      return `${news.containers.length} running`;
    case 'started':
      return `${containerLabel(news.container)} started`;
    case 'stopped':
      return `${outsideText(news.id.slice(0, 12), 12)} stopped`;
    default:
      return `engine lost (${outsideText(news.reason, 200)})`;
  }
}
