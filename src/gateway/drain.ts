// The gateway's stop: updates in flight finish and are answered (a half-made update would be left
// half-made) while new ones are refused, within DRAIN_MS; their answers go out; the last
// notifications get a little time, as the daemon gives them.
import { counted } from '../lib/counted.js';
import { type Clock, sleepOn, systemClock } from '../lib/clock.js';
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

/** Waits for the updates in flight (the caller refuses new ones from now on) and the notifications queued. */
export async function drainGateway(
  inFlight: ReadonlySet<Promise<unknown>>,
  notifier: Notifier | undefined,
  logger: Logger,
  clock: Clock = systemClock,
): Promise<void> {
  if (inFlight.size) logger.info(`gateway: stopping; waiting for ${counted(inFlight.size, 'update')} in flight`);
  let cancel = (): void => {};
  const deadline = new Promise<void>((resolve) => (cancel = clock.after(DRAIN_MS, resolve)));
  await Promise.race([Promise.allSettled([...inFlight]), deadline]);
  cancel();
  // The answers of those updates are signed and written after they settle: let them go out.
  await sleepOn(clock, ANSWERS_OUT_MS);
  await notifier?.drain(NOTIFY_STOP_WAIT_MS);
}
