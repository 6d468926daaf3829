// Following a container engine: the running containers, then each start and stop as the engine
// reports it, in its order. A connection is: ping (the engine's time), open the events stream
// from a second before that time, list, say `running`, then the events read meanwhile and after.
// Opening the stream before the listing, from a time before it, means no event is lost between
// the two: one that the listing already shows is said again after it (the consumer is
// idempotent). When the engine goes away, `lost` is said once, and the watch connects again
// after a wait that grows while it fails; nothing is asked of the engine while the stream is open.
import type { Clock } from '../../lib/clock.js';
import { escapeControls, outsideText } from '../../lib/outside-text.js';
import { parseStrictJson } from '../../lib/strict-json.js';
import type { StreamLine } from '../../http/stream.js';
import type { EngineClient } from './engine-client.js';
import type { EngineLimits } from './limits.js';
import { LineQueue } from './line-queue.js';
import { readRunning } from './listing.js';
import type { ContainerNews, ContainerWatch } from './news.js';
import { engineOf, type EngineSettings } from './settings.js';
import { readEvent } from './shapes.js';

/**
 * Starts watching the engine of `settings.url`; `onNews` gets what it says, in order. Throws a
 * ConfigError at once for a URL that is refused; an engine that cannot be reached is `lost`.
 */
export function watchContainers(settings: EngineSettings, onNews: (news: ContainerNews) => void): ContainerWatch {
  const controller = new AbortController();
  const { client, limits } = engineOf(settings, controller.signal);
  const watch = new EngineWatch(client, limits, settings, onNews, controller);
  const done = watch.run();
  return {
    async stop() {
      watch.stop();
      await done;
    },
  };
}

class EngineWatch {
  private stopped = false;
  /** Whether `lost` was said for the present absence. */
  private lostSaid = false;
  private lastReason = '';
  private failures = 0;
  private warnings = 0;
  private cancelWait = (): void => {};
  private readonly clock: Clock;

  constructor(
    private readonly client: EngineClient,
    private readonly limits: EngineLimits,
    private readonly settings: EngineSettings,
    private readonly onNews: (news: ContainerNews) => void,
    private readonly controller: AbortController,
  ) {
    this.clock = settings.clock;
  }

  stop(): void {
    this.stopped = true;
    this.controller.abort();
    this.cancelWait();
  }

  /** Connects, follows, and connects again until stopped; each turn ends in a wait or the stop. */
  async run(): Promise<void> {
    while (!this.stopped) {
      const began = this.clock.now();
      let reason = 'the engine ended its events stream';
      try {
        await this.connection();
      } catch (error) {
        reason = escapeControls(error instanceof Error ? error.message : String(error));
      }
      if (this.stopped) return;
      if (this.clock.now() - began >= this.limits.stableMs) this.failures = 0;
      const waitMs = Math.min(this.limits.firstRetryMs * 2 ** Math.min(this.failures, 30), this.limits.maxRetryMs);
      this.failures++;
      this.away(reason, waitMs);
      await this.wait(waitMs);
    }
  }

  /** Says `lost` once per absence; logs each new reason, and the same one again only at debug. */
  private away(reason: string, waitMs: number): void {
    const line = `containers: ${reason}; connecting again in ${waitMs / 1000} s`;
    if (reason === this.lastReason) this.settings.logger.debug(line);
    else this.settings.logger.warn(line);
    this.lastReason = reason;
    if (this.lostSaid) return;
    this.lostSaid = true;
    this.say({ kind: 'lost', reason });
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const cancel = this.clock.after(ms, resolve);
      // A stop during the wait ends it at once.
      this.cancelWait = () => {
        cancel();
        resolve();
      };
    });
  }

  /** One connection: resolves when the engine ends the stream, throws when it fails. */
  private async connection(): Promise<void> {
    this.warnings = 0;
    // Ends this connection's requests: at a stop, or when its stream fails.
    const ending = new AbortController();
    const stop = () => ending.abort();
    this.controller.signal.addEventListener('abort', stop, { once: true });
    try {
      await this.follow(this.client.withSignal(ending.signal), ending);
    } finally {
      this.controller.signal.removeEventListener('abort', stop);
    }
  }

  private async follow(client: EngineClient, ending: AbortController): Promise<void> {
    const ping = await client.ping();
    const since = ping.engineSeconds === undefined ? undefined : ping.engineSeconds - 1;
    const stream = await client.openEvents(since);
    const queue = new LineQueue(this.limits.maxQueued, this.limits.maxQueuedChars);
    const handling = this.handle(client, queue, ping.server);
    // A failed listing or look-up ends the stream, and with it the reading below.
    handling.catch(() => stream.close());
    let readFailure: unknown;
    try {
      for await (const line of stream.lines(this.limits.maxLineBytes)) {
        if (!queue.push(line)) {
          const { maxQueued, maxQueuedChars } = this.limits;
          throw new Error(`more than ${maxQueued} engine events (or ${maxQueuedChars} characters of them) are waiting`);
        }
      }
    } catch (error) {
      readFailure = error;
      ending.abort();
    } finally {
      queue.end();
      stream.close();
    }
    // After a failed read, the reason is the stream's, not that of the listing it aborted.
    await (readFailure === undefined ? handling : handling.catch(() => {}));
    if (readFailure !== undefined) throw readFailure;
  }

  /** The listing, then each event in the order read. */
  private async handle(client: EngineClient, queue: LineQueue, server: string): Promise<void> {
    const containers = await readRunning(client, this.limits, (m) => this.warn(m));
    if (this.stopped) return;
    this.settings.logger.info(
      `containers: following ${server} at ${this.client.shown}: ${containers.length} running container(s)`,
    );
    this.lostSaid = false;
    this.lastReason = '';
    this.say({ kind: 'running', containers });
    for (let line = await queue.next(); line && !this.stopped; line = await queue.next()) {
      await this.handleLine(client, line);
    }
  }

  private async handleLine(client: EngineClient, line: StreamLine): Promise<void> {
    if ('tooLong' in line) {
      this.warn(`an event of ${line.tooLong} bytes, over the ${this.limits.maxLineBytes}-byte limit, was skipped`);
      return;
    }
    // An engine asked for JSON sequences would put a record separator before each.
    const text = line.text.startsWith('\x1e') ? line.text.slice(1) : line.text;
    if (!text.trim()) return;
    let parsed: unknown;
    try {
      parsed = parseStrictJson(text);
    } catch {
      this.warn(`an event that is not JSON was skipped: ${outsideText(line.text, 80)}`);
      return;
    }
    const { value, problem } = readEvent(parsed, this.limits);
    if (problem) this.warn(problem);
    if (!value) return;
    if (value.kind === 'stopped') return this.say({ kind: 'stopped', id: value.id });
    // A start whose event does not carry the container's name and labels: the listing has them.
    const container = value.container ?? (await readRunning(client, this.limits, (m) => this.warn(m), value.id))[0];
    if (container && !this.stopped) this.say({ kind: 'started', container });
  }

  /** A problem with the engine's output; past the bound, the rest of this connection's go to debug. */
  private warn(message: string): void {
    this.warnings++;
    if (this.warnings <= this.limits.maxWarnings) this.settings.logger.warn(`containers: ${message}`);
    else this.settings.logger.debug(`containers: ${message}`);
    if (this.warnings === this.limits.maxWarnings) {
      this.settings.logger.warn('containers: further problems with the engine are logged at debug until it reconnects');
    }
  }

  private say(news: ContainerNews): void {
    if (this.stopped) return;
    try {
      this.onNews(news);
    } catch (error) {
      this.settings.logger.error(`containers: handling the engine's news failed: ${(error as Error).message}`);
    }
  }
}
