// Whether the provider's service/dnslist `filter` finds the entries at a name. The spec says only
// "filter O"; the gateway reads an update's names through it as a substring of the full name (as
// the sandbox matches it). A provider that matched it otherwise (against the name relative to the
// zone, say) would answer every filtered reading empty, and complete: a delete would be a no-op
// answered NOERROR, an add a duplicate. So at start, with the zone just read whole, one filtered
// listing of a name it holds must show every entry there; if not, that zone is read whole for
// every update (what the gateway did before it read names one by one), and that is said once.
import type { Logger } from '../../lib/log.js';
import { BroadFilterError, type ZoneProvider } from '../../zone/provider/provider-zone.js';
import type { LiveRecord } from '../../zone/record.js';

/**
 * True when a filtered listing of a name `live` holds shows every entry `live` has there; false
 * (said once, here) when it does not; undefined when the listing failed (asked again at the
 * next refresh; the zone is read whole meanwhile).
 */
export async function filterFindsNames(
  provider: ZoneProvider,
  zone: string,
  live: LiveRecord[],
  logger: Logger,
): Promise<boolean | undefined> {
  // The longest name is the least likely to be part of others: its listing is the shortest.
  const name = live
    .map((r) => r.name)
    .filter((n) => n !== zone)
    .reduce<string | undefined>((a, b) => (a === undefined || b.length > a.length ? b : a), undefined);
  // A zone of apex records only: no name to probe with (the apex is always read whole); asked again at the next
  // refresh.
  if (name === undefined) return undefined;
  const expected = live.filter((r) => r.name === name).map((r) => r.entityID);
  let why: string;
  try {
    const found = new Set((await provider.listNames([name], { left: 1 })).map((r) => r.entityID));
    const missing = expected.filter((id) => !found.has(id));
    if (!missing.length) return true;
    why =
      `service/dnslist with filter ${name} listed ${found.size} of the ${expected.length} entries the zone ` +
      `holds there`;
  } catch (error) {
    if (!(error instanceof BroadFilterError)) {
      logger.info(
        `gateway: ${zone}: checking the provider's filter failed (${(error as Error).message}); updates read the ` +
          `whole zone until a refresh checks it`,
      );
      return undefined;
    }
    why = `service/dnslist with filter ${name} listed more than the entries there (${error.pages} pages)`;
  }
  logger.warn(
    `gateway: ${zone}: ${why}: the provider's filter does not find a name's entries as the gateway reads it (a ` +
      `substring of the full name); every update of ${zone} reads the whole zone instead`,
  );
  return false;
}
