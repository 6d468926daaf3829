// The gateway's stop: updates in flight finish and are answered (a half-made update would be left
// half-made) while new ones are refused, within DRAIN_MS; their answers go out; the last
// notifications get a little time, as the daemon gives them. A second signal ends the wait at once,
// and the log says what that leaves.
import { counted } from '../lib/counted.js';
import { type Clock, sleepOn, systemClock } from '../lib/clock.js';
import { formatDuration } from '../lib/duration.js';
import type { Logger } from '../lib/log.js';
import type { Notifier } from '../notify/notifier.js';

/**
 * The longest wait for updates in flight at SIGTERM: a write and its rollback, each within --timeout,
 * fit in it by default.
 */
const DRAIN_MS = 60_000;
/** The time given to the last answers to go out once their updates settled. */
const ANSWERS_OUT_MS = 200;
/** The longest wait at SIGTERM for notifications still queued. */
const NOTIFY_STOP_WAIT_MS = 5_000;

/**
 * Waits for the updates in flight (the caller refuses new ones from now on) and the notifications queued;
 * `stoppedNow` (a second signal) ends the wait at once.
 */
export async function drainGateway(
  inFlight: ReadonlySet<Promise<unknown>>,
  notifier: Notifier | undefined,
  logger: Logger,
  clock: Clock = systemClock,
  stoppedNow: Promise<unknown> = new Promise(() => {}),
): Promise<void> {
  if (inFlight.size)
    logger.info(
      `gateway: stopping; waiting for ${counted(inFlight.size, 'update')} in flight to finish and be answered, ` +
        `at most ${formatDuration(DRAIN_MS, 's')} (Ctrl-C or SIGTERM again stops at once)`,
    );
  let cancel = (): void => {};
  const deadline = new Promise<void>((resolve) => (cancel = clock.after(DRAIN_MS, resolve)));
  const now = stoppedNow.then(() => 'now' as const);
  const ended = await Promise.race([Promise.allSettled([...inFlight]), deadline, now]);
  cancel();
  if (ended === 'now') return;
  if (inFlight.size)
    logger.warn(`gateway: stopped waiting after ${formatDuration(DRAIN_MS, 's')}; ${left(inFlight.size)}`);
  const answersAndNotifications = async () => {
    // The answers of those updates are signed and written after they settle: let them go out.
    await sleepOn(clock, ANSWERS_OUT_MS);
    await notifier?.drain(NOTIFY_STOP_WAIT_MS);
  };
  await Promise.race([answersAndNotifications(), now]);
}

/** The line said at a second signal: the stop no longer waits, and what that leaves. */
export function stopNowLine(signal: string, inFlight: number): string {
  return `gateway: ${signal} again: stopping at once; ${
    inFlight ? left(inFlight) : 'nothing in flight is left; notifications still queued are not sent'
  }`;
}

/** What updates still in flight when the stop ends are left as. */
const left = (inFlight: number): string =>
  `${counted(inFlight, 'update')} in flight ${inFlight === 1 ? 'is' : 'are'} left unanswered, ` +
  `${inFlight === 1 ? 'its change' : 'their changes'} maybe made at the provider, in whole or in part ` +
  `(read the zone before sending ${inFlight === 1 ? 'it' : 'them'} again)`;
