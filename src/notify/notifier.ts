// Delivers notifications without ever holding up a cycle: each URL has its own bounded queue,
// worked in the background; the same event is sent once; each URL gets at most BURST messages
// at once and one more every REFILL_MS after that (the rest is dropped and said so, once); a
// failed send is retried with growing pauses, then given up with a warning. Nothing here can
// fail the command: every problem is a warning naming the service and host, never the URL.
import { httpRequest } from '../http/request.js';
import { sleepOn, systemClock, type Clock } from '../lib/clock.js';
import type { Logger } from '../lib/log.js';
import { eventKey, type NotifyEvent } from './message.js';
import { parseNotifyTarget, SERVICES, type NotifyTarget } from './target.js';

export const NOTIFY_LIMITS = {
  /** Messages waiting per URL; beyond, the newest are dropped. */
  queue: 50,
  /** Messages a URL may receive at once, and one more each refill. */
  burst: 10,
  refillMs: 6_000,
  /** Attempts per message, and the pause before the second (doubled each time). */
  attempts: 3,
  firstRetryMs: 1_000,
  timeoutMs: 10_000,
  /** How long an event is remembered as sent, and how many are remembered. */
  dedupMs: 60 * 60_000,
  dedupEntries: 500,
  answerBytes: 64 * 1024,
};

interface Channel {
  target: NotifyTarget;
  queue: NotifyEvent[];
  tokens: number;
  refilledAt: number;
  dropped: number;
  running?: Promise<void>;
}

export interface DeliveryResult {
  target: string;
  ok: boolean;
  detail: string;
}

export class Notifier {
  private readonly channels: Channel[];
  private readonly sent = new Map<string, number>();

  constructor(
    urls: string[],
    private readonly logger: Logger,
    private readonly limits = NOTIFY_LIMITS,
    /** The rate limit, the dedup window, the retries' pauses and drain()'s bound run on it. */
    private readonly clock: Clock = systemClock,
  ) {
    this.channels = urls.map((url, i) => ({
      target: parseNotifyTarget(url, `notification URL ${i + 1}`),
      queue: [],
      tokens: limits.burst,
      refilledAt: clock.now(),
      dropped: 0,
    }));
  }

  /** Each URL as logs show it ("webhook at host"): never the URL itself. */
  get shown(): string[] {
    return this.channels.map((c) => c.target.shown);
  }

  /** Queues the events for every URL and returns at once. */
  enqueue(events: NotifyEvent[]): void {
    for (const event of events) {
      const key = eventKey(event);
      const at = this.sent.get(key);
      if (at !== undefined && this.clock.now() - at < this.limits.dedupMs) continue;
      this.remember(key);
      for (const channel of this.channels) {
        if (channel.queue.length >= this.limits.queue) {
          channel.dropped++;
          continue;
        }
        channel.queue.push(event);
      }
    }
    for (const channel of this.channels)
      channel.running ??= this.work(channel).finally(() => (channel.running = undefined));
  }

  /** Waits for the queues to empty, at most `ms` (a one-shot command before it exits). */
  async drain(ms: number): Promise<void> {
    let cancel = (): void => {};
    const deadline = new Promise<void>((resolve) => (cancel = this.clock.after(ms, resolve)));
    await Promise.race([Promise.all(this.channels.map((c) => c.running)), deadline]);
    cancel();
  }

  /** Sends one event to every URL now, with no retry (ddedge notify test), and says how each went. */
  async test(event: NotifyEvent): Promise<DeliveryResult[]> {
    return Promise.all(
      this.channels.map(async (c) => {
        try {
          return { target: c.target.shown, ok: true, detail: await this.send(c.target, event) };
        } catch (error) {
          return { target: c.target.shown, ok: false, detail: (error as Error).message };
        }
      }),
    );
  }

  private async work(channel: Channel): Promise<void> {
    // Bounded: each pass takes one event off a queue of at most `queue` entries.
    while (channel.queue.length) {
      this.refill(channel);
      if (channel.tokens < 1) {
        channel.dropped += channel.queue.length;
        channel.queue.length = 0;
        break;
      }
      channel.tokens--;
      const event = channel.queue.shift()!;
      await this.deliver(channel.target, event);
    }
    if (channel.dropped) {
      this.logger.warn(
        `${channel.dropped} notification(s) to ${channel.target.shown} not sent: more than ${this.limits.burst} at ` +
          `once (one more is allowed every ${this.limits.refillMs / 1000}s)`,
      );
      channel.dropped = 0;
    }
  }

  private refill(channel: Channel): void {
    const gained = Math.floor((this.clock.now() - channel.refilledAt) / this.limits.refillMs);
    if (gained <= 0) return;
    channel.tokens = Math.min(this.limits.burst, channel.tokens + gained);
    channel.refilledAt += gained * this.limits.refillMs;
  }

  private async deliver(target: NotifyTarget, event: NotifyEvent): Promise<void> {
    let pause = this.limits.firstRetryMs;
    for (let attempt = 1; attempt <= this.limits.attempts; attempt++) {
      try {
        await this.send(target, event);
        this.logger.debug(`notification "${event.event}" sent to ${target.shown}`);
        return;
      } catch (error) {
        const last = attempt === this.limits.attempts || !(error as { retry?: boolean }).retry;
        if (last) {
          this.logger.warn(
            `notification "${event.event}" to ${target.shown} not delivered (${(error as Error).message}); the ` +
              `update itself is not affected`,
          );
          return;
        }
        await sleepOn(this.clock, pause);
        pause *= 2;
      }
    }
  }

  /** One request; throws with `retry` set when trying again may help (network, 429, 5xx). */
  private async send(target: NotifyTarget, event: NotifyEvent): Promise<string> {
    const outgoing = SERVICES[target.service].build(target.endpoint, event);
    let status: number;
    try {
      const response = await httpRequest({
        url: outgoing.url.toString(),
        method: outgoing.method,
        headers: outgoing.headers,
        body: outgoing.body,
        timeoutMs: this.limits.timeoutMs,
        maxBytes: this.limits.answerBytes,
        setting: target.shown,
      });
      status = response.status;
    } catch (error) {
      throw Object.assign(new Error((error as Error).message), { retry: true });
    }
    if (status >= 200 && status < 300) return `HTTP ${status}`;
    throw Object.assign(new Error(`${target.shown} answered HTTP ${status}`), {
      retry: status === 429 || status >= 500,
    });
  }

  private remember(key: string): void {
    this.sent.set(key, this.clock.now());
    // Oldest first out: a Map keeps insertion order.
    while (this.sent.size > this.limits.dedupEntries) this.sent.delete(this.sent.keys().next().value!);
  }
}

let shared: Notifier | undefined;

/**
 * The process's notifier (the daemon's cycles share its queues, dedup and rate limits); made again when the URLs
 * change.
 */
export function sharedNotifier(urls: string[], logger: Logger): Notifier {
  const key = JSON.stringify(urls);
  if (!shared || (shared as unknown as { key?: string }).key !== key)
    shared = Object.assign(new Notifier(urls, logger), { key });
  return shared;
}

/** Waits (at most `ms`) for what the process's notifier still has to send; nothing when it never sent. */
export async function drainShared(ms: number): Promise<void> {
  await shared?.drain(ms);
}
