// `ddedge gateway --zone Z --keys FILE`: reads the keys file and every served zone (exit 2 for a
// bad file, a zone the account does not hold, a port in use: start.ts), answers DNS until SIGTERM
// or SIGINT (doors.ts), re-reads each zone every --refresh (refresh-loop.ts), and reloads the
// keys file on SIGHUP (keeping the keys it had when the new file has an error). Every provider
// call is counted against the gateway's own hourly budget (call-budget.ts); --listen serves
// /healthz, /metrics and /status (operations.ts) with the daemon's HTTP endpoint. At the stop,
// updates in flight are answered first (drain.ts).
import { counted } from '../lib/counted.js';
import { secondsOn, systemClock } from '../lib/clock.js';
import { openDoors, updateDepsOf, type OpenDoors } from './doors.js';
import { drainGateway, stopNowLine } from './drain.js';
import { startRefreshLoop, zonesReader } from './refresh-loop.js';
import type { GatewaySettings } from './run-settings.js';
import { startGateway, type StartedGateway } from './start.js';

export type { GatewaySettings } from './run-settings.js';

/**
 * The start (keys file, zones read), unless a second signal comes first: the start only reads, so
 * nothing is left half-made by leaving it unfinished; undefined then.
 */
async function startOrStopNow(settings: GatewaySettings): Promise<StartedGateway | undefined> {
  const started = startGateway(settings);
  if (!settings.stoppedNow) return started;
  let starting = true;
  const now = settings.stoppedNow.then((signal) => {
    if (starting)
      settings.logger.warn(`gateway: ${signal} again while starting: stopping at once; the start is left unfinished`);
    return undefined;
  });
  try {
    return await Promise.race([started, now]);
  } finally {
    starting = false;
  }
}

export async function runGateway(settings: GatewaySettings): Promise<number> {
  const { logger } = settings;
  const clock = settings.clock ?? systemClock;
  const gateway = await startOrStopNow(settings);
  if (!gateway) return 0;
  const { budget, notifier } = gateway;
  const open: OpenDoors = { servers: [] };
  let stopping = false;
  const inFlight = new Set<Promise<unknown>>();
  const updateDeps = updateDepsOf(gateway, settings, { stopping: () => stopping, inFlight });
  let stoppedNow = false;
  void settings.stoppedNow?.then((signal) => {
    stoppedNow = true;
    logger.warn(stopNowLine(signal, inFlight.size));
  });
  // The zones' re-reading, set once the gateway answers (before, the button has nothing to do).
  let readAgain = () => {};
  try {
    const shown = await openDoors(gateway, settings, updateDeps, open, () => readAgain());
    // SIGHUP is taken before the line below says it is: a reload right after start (systemd, a
    // script waiting for that line) would otherwise meet Node's default action and end the gateway.
    settings.onReload?.(gateway.reloadKeys);
    if (notifier)
      logger.info(
        `gateway: notifications of refused-update bursts and zones changed elsewhere to ${notifier.shown.join(', ')}`,
      );
    logger.info(
      `gateway: answering DNS for ${settings.zones.join(', ')} on ${shown.join(', ')} (UDP and TCP); ` +
        `${counted(gateway.keys().keys.size, 'key')}; at most ${budget.limit} provider calls an hour ` +
        `(${budget.left()} left); pid ${process.pid} (SIGHUP reloads the keys file)`,
    );
    settings.ready?.(shown);
    readAgain = zonesReader(gateway, settings, inFlight);
    const stopRefreshing = startRefreshLoop(readAgain, settings.refreshMs, clock);
    await settings.stopped;
    stopRefreshing();
    // New updates are refused from now on; those in flight finish and are answered.
    stopping = true;
    gateway.stats.stopping = true;
    await drainGateway(inFlight, notifier, logger, clock, settings.stoppedNow);
    if (!stoppedNow) logger.info('gateway: stopped');
    return 0;
  } finally {
    gateway.stats.listening = [];
    await Promise.all([...open.servers.map((s) => s.close()), open.endpoint?.close(), open.door?.close()]);
    clearInterval(gateway.saveReplays);
    gateway.replays.save(secondsOn(clock), logger);
    await gateway.wire.close?.();
  }
}
