// Delivers notifications without ever holding up a cycle: each URL has two lanes, each a bounded
// queue worked in the background on its own, so that one never waits for the other. Events about
// the records and the zone (and every event of the daemon) take the first: at most `burst` at once
// and one more every `refillMs` after that (the rest is dropped and said so, once). Refusals
// (`refused`, which unauthenticated traffic can cause) take the second, with an allowance of their
// own: they wait for it, and beyond their queue are merged into the last one waiting, so they can
// neither spend, nor empty, nor hold up the first lane. The same event is sent once; a failed send
// is retried with growing pauses, then given up with a warning. Nothing here can fail the command:
// every problem is a warning naming the service and host, never the URL.
import { httpRequest } from '../http/request.js';
import { sleepOn, systemClock, type Clock } from '../lib/clock.js';
import type { Logger } from '../lib/log.js';
import { mailText } from './email/mail-text.js';
import { MailError, sendMail } from './email/smtp-session.js';
import { eventKey, type NotifyEvent } from './message.js';
import { parseNotifyTarget, SERVICES, type NotifyTarget } from './target.js';
import { counted } from '../lib/counted.js';
import { formatDuration } from '../lib/duration.js';

const seconds = (ms: number): string => formatDuration(ms, 's');

export const NOTIFY_LIMITS = {
  /** Messages waiting per URL; beyond, the newest are dropped. */
  queue: 50,
  /** Messages a URL may receive at once, and one more each refill. */
  burst: 10,
  refillMs: 6_000,
  /** The refusals' lane: messages waiting (beyond, merged into the last), at once, and one more each refill. */
  refusals: { queue: 10, burst: 3, refillMs: 60_000 },
  /** Attempts per message, and the pause before the second (doubled each time). */
  attempts: 3,
  firstRetryMs: 1_000,
  timeoutMs: 10_000,
  /** How long an event is remembered as sent, and how many are remembered. */
  dedupMs: 60 * 60_000,
  dedupEntries: 500,
  answerBytes: 64 * 1024,
};

/** An event waiting, with how many later ones were merged into it. */
interface Waiting {
  event: NotifyEvent;
  merged: number;
}

interface Lane {
  /** The events lane drops what its allowance does not cover; the refusals' lane waits for it. */
  waits: boolean;
  allowance: { queue: number; burst: number; refillMs: number };
  queue: Waiting[];
  tokens: number;
  refilledAt: number;
  dropped: number;
  /** An event taken off the queue is being delivered (sent, or waiting to be sent again). */
  delivering: boolean;
  running?: Promise<void>;
}

interface Channel {
  target: NotifyTarget;
  events: Lane;
  refusals: Lane;
}

/** The lane an event takes: refusals (which anyone who reaches the gateway can cause) apart from the rest. */
const laneOf = (channel: Channel, event: NotifyEvent): Lane =>
  event.event === 'refused' ? channel.refusals : channel.events;

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
    const lane = (waits: boolean, allowance: Lane['allowance']): Lane => ({
      waits,
      allowance,
      queue: [],
      tokens: allowance.burst,
      refilledAt: clock.now(),
      dropped: 0,
      delivering: false,
    });
    this.channels = urls.map((url, i) => ({
      target: parseNotifyTarget(url, `notification URL ${i + 1}`),
      events: lane(false, limits),
      refusals: lane(true, limits.refusals),
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
      for (const channel of this.channels)
        if (!channel.target.events || channel.target.events.has(event.event)) queueIn(laneOf(channel, event), event);
    }
    for (const channel of this.channels)
      for (const lane of [channel.events, channel.refusals]) if (lane.queue.length) this.start(channel.target, lane);
  }

  /** Works the lane unless it is worked already; an event queued while its worker was ending starts it again. */
  private start(target: NotifyTarget, lane: Lane): void {
    lane.running ??= this.work(target, lane).finally(() => {
      lane.running = undefined;
      if (lane.queue.length) this.start(target, lane);
    });
  }

  /**
   * Waits for the queues to empty, at most `ms` (a command about to exit). A wait is said in the log, and what was
   * still not delivered when the time was up: a stop that pauses without a word, or drops without one, looks broken.
   */
  async drain(ms: number): Promise<void> {
    const waiting = this.undelivered();
    if (waiting === 0) return;
    this.logger.info(`notify: delivering ${counted(waiting, 'notification')} before exit, at most ${seconds(ms)}`);
    let cancel = (): void => {};
    const deadline = new Promise<void>((resolve) => (cancel = this.clock.after(ms, resolve)));
    const running = this.channels.flatMap((c) => [c.events.running, c.refusals.running]);
    await Promise.race([Promise.all(running), deadline]);
    cancel();
    const left = this.undelivered();
    if (left) this.logger.warn(`notify: ${counted(left, 'notification')} not delivered: the ${seconds(ms)} were up`);
  }

  /** Events queued, and those being delivered (sent, or waiting to be sent again). */
  private undelivered(): number {
    let count = 0;
    for (const { events, refusals } of this.channels)
      for (const lane of [events, refusals]) count += lane.queue.length + (lane.delivering ? 1 : 0);
    return count;
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

  private async work(target: NotifyTarget, lane: Lane): Promise<void> {
    // Bounded: each pass takes one event off a bounded queue, or waits for the one token that lets the next go.
    while (lane.queue.length) {
      this.refill(lane);
      if (lane.tokens < 1) {
        if (!lane.waits) {
          lane.dropped += lane.queue.length;
          lane.queue.length = 0;
          break;
        }
        await sleepOn(this.clock, lane.allowance.refillMs - (this.clock.now() - lane.refilledAt));
        continue;
      }
      lane.tokens--;
      const { event, merged } = lane.queue.shift()!;
      lane.delivering = true;
      try {
        await this.deliver(target, merged ? mergedInto(event, merged) : event);
      } finally {
        lane.delivering = false;
      }
    }
    if (lane.dropped) {
      this.logger.warn(
        `${counted(lane.dropped, 'notification')} to ${target.shown} not sent: more than ${lane.allowance.burst} at ` +
          `once (one more is allowed every ${lane.allowance.refillMs / 1000}s)`,
      );
      lane.dropped = 0;
    }
  }

  private refill(lane: Lane): void {
    const gained = Math.floor((this.clock.now() - lane.refilledAt) / lane.allowance.refillMs);
    if (gained <= 0) return;
    lane.tokens = Math.min(lane.allowance.burst, lane.tokens + gained);
    lane.refilledAt += gained * lane.allowance.refillMs;
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
    if (target.mail) {
      const id = `${this.clock.now().toString(36)}.${Math.random().toString(36).slice(2, 10)}`;
      const message = mailText(event, target.mail.from, target.mail.to, new Date(this.clock.now()), id);
      try {
        return await sendMail({ ...target.mail, message, timeoutMs: this.limits.timeoutMs });
      } catch (error) {
        const retry = error instanceof MailError ? error.retry : true;
        throw Object.assign(new Error((error as Error).message), { retry });
      }
    }
    if (target.service === 'email') throw new Error(`${target.shown}: no mail settings`);
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
      // The URL is a secret, masked wherever it shows: named as the prefix names it ("ntfy at HOST"), said once.
      const shownUrl = (error as { url?: string }).url;
      const text = (error as Error).message;
      throw Object.assign(new Error(shownUrl ? text.split(shownUrl).join('the service') : text), { retry: true });
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

/** Puts an event in its lane: beyond the queue, dropped (and counted) or merged into the last one waiting. */
function queueIn(lane: Lane, event: NotifyEvent): void {
  if (lane.queue.length < lane.allowance.queue) lane.queue.push({ event, merged: 0 });
  else if (lane.waits) lane.queue.at(-1)!.merged++;
  else lane.dropped++;
}

/** The event, saying first how many more were merged into it (the message is cut at its end). */
const mergedInto = (event: NotifyEvent, merged: number): NotifyEvent => ({
  ...event,
  message: `(${merged} more refusal notifications merged into this one; the gateway's log has each) ${event.message}`,
});

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
