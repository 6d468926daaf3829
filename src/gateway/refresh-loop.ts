// The zones read again every --refresh (and at once from the status page's button): each zone's
// view shows what the provider holds, records gone from the provider stop counting against
// their key's quota, and a zone changed with no update of the gateway's under way is said to
// the --notify URLs (changed elsewhere). A spent budget pauses the readings (call-budget.ts said
// so once); queries are answered from the last reading meanwhile.
import { type Clock, every, systemClock } from '../lib/clock.js';
import { BudgetSpentError } from '../state/budget.js';
import type { GatewaySettings } from './run-settings.js';
import type { StartedGateway } from './start.js';

/** Reads every zone again now; a reading still under way (a slow provider) is not doubled. */
export function zonesReader(
  gateway: StartedGateway,
  settings: GatewaySettings,
  inFlight: ReadonlySet<Promise<unknown>>,
): () => void {
  const { budget, views, owners, dhcid, notifier, checkFilter } = gateway;
  const reading = new Set<string>();
  return () => {
    if (budget.spent()) return;
    for (const zone of settings.zones) {
      if (reading.has(zone)) continue;
      reading.add(zone);
      const since = owners.version(zone);
      const before = { serial: views.serial(zone), own: views.ownChanges(zone), quiet: inFlight.size === 0 };
      views
        .refresh(zone)
        // A record gone from the provider (deleted elsewhere) no longer counts against its key's quota.
        .then(async (live) => {
          owners.prune(zone, live, [...dhcid.of(zone).values()].flat(), since);
          // Changed with no update of the gateway's under way, before or during the reading: made elsewhere.
          const serial = views.serial(zone);
          if (
            notifier &&
            serial !== before.serial &&
            before.quiet &&
            inFlight.size === 0 &&
            views.ownChanges(zone) === before.own
          ) {
            notifier.enqueue([
              {
                event: 'zone-changed',
                time: new Date().toISOString(),
                host: zone,
                old: String(before.serial),
                new: String(serial),
                message:
                  `${zone} changed at the provider, not through the gateway (serial ${before.serial} -> ` +
                  `${serial}); the gateway now serves what the provider holds`,
              },
            ]);
          }
          await checkFilter(zone, live);
        })
        .catch(
          (error: unknown) =>
            error instanceof BudgetSpentError ||
            settings.logger.warn(`gateway: re-reading ${zone} failed: ${(error as Error).message}`),
        )
        .finally(() => reading.delete(zone));
    }
  };
}

/** Reads the zones again every --refresh until the returned function stops it. */
export function startRefreshLoop(readAgain: () => void, refreshMs: number, clock: Clock = systemClock): () => void {
  return every(clock, refreshMs, readAgain);
}
