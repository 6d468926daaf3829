// What the engine watch's tests share: a fake engine per test, a watch on it that records its
// news and log lines, and the state the news add up to (what the consumer would hold).
import { afterEach } from 'vitest';
import type { Clock } from '../../../../src/lib/clock.js';
import type { Logger } from '../../../../src/lib/log.js';
import type { EngineLimits } from '../../../../src/containers/engine/limits.js';
import type { ContainerNews, ContainerSeen, ContainerWatch } from '../../../../src/containers/engine/news.js';
import { watchContainers } from '../../../../src/containers/engine/watch.js';
import { FakeDockerEngine, type FakeEngineOptions } from '../../../helpers/fake-docker-engine.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { waitUntil } from '../../../helpers/wait.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

export async function fakeEngine(options: FakeEngineOptions = {}): Promise<FakeDockerEngine> {
  const engine = await new FakeDockerEngine(options).listen();
  cleanups.push(() => engine.close());
  return engine;
}

export interface Watched {
  news: ContainerNews[];
  lines: string[];
  clock: FakeClock;
  watch: ContainerWatch;
  /** Waits until the news (or log lines) satisfy `condition`. */
  until(condition: (news: ContainerNews[]) => boolean, what: string): Promise<void>;
}

export function capturingLogger(lines: string[]): Logger {
  const at = (level: string) => (message: string) => void lines.push(`${level}: ${message}`);
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}

export function watchOn(url: string, bounds: Partial<EngineLimits> = {}, clock: Clock = new FakeClock()): Watched {
  const news: ContainerNews[] = [];
  const lines: string[] = [];
  const watch = watchContainers({ url, clock, logger: capturingLogger(lines), bounds }, (n) => news.push(n));
  cleanups.push(() => watch.stop());
  return {
    news,
    lines,
    clock: clock as FakeClock,
    watch,
    until: (condition, what) => waitUntil(() => condition(news), what),
  };
}

/** The running containers by id after all the news, as the consumer would hold them. */
export function stateOf(news: readonly ContainerNews[]): Map<string, ContainerSeen> {
  const state = new Map<string, ContainerSeen>();
  for (const item of news) {
    if (item.kind === 'running') {
      state.clear();
      for (const c of item.containers) state.set(c.id, c);
    } else if (item.kind === 'started') state.set(item.container.id, item.container);
    else if (item.kind === 'stopped') state.delete(item.id);
  }
  return state;
}

/** The news after the last `running`, as short strings ("started web", "stopped <id>"). */
export function since(news: readonly ContainerNews[], nth = -1): string[] {
  const runs = news.flatMap((n, i) => (n.kind === 'running' ? [i] : []));
  const from = runs.at(nth) ?? 0;
  return news.slice(from + 1).map((n) => {
    if (n.kind === 'started') return `started ${n.container.name}`;
    if (n.kind === 'stopped') return `stopped ${n.id.slice(-4)}`;
    return n.kind;
  });
}

export const kinds = (news: readonly ContainerNews[]): string[] => news.map((n) => n.kind);
