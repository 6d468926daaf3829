// Whether the provider's service/dnslist `filter` finds the entries at a name. The spec says only
// "filter O"; the gateway reads an update's names through it as a substring of the full name (as
// the sandbox matches it). A provider that matched it otherwise (against the name relative to the
// zone, say) would answer every filtered reading empty, and complete: a delete would be a no-op
// answered NOERROR, an add a duplicate. So at start, with the zone just read whole, one filtered
// listing of a name it holds must show every entry there; if not, that zone is read whole for
// every update (what the gateway did before it read names one by one), and that is said once.
import type { Logger } from '../runtime/log.js';
import { BroadFilterError, type ZoneProvider } from '../zone/provider-zone.js';
import type { LiveRecord } from '../zone/record.js';

/** True when a filtered listing of a name `live` holds shows every entry `live` has there. */
export async function filterFindsNames(provider: ZoneProvider, zone: string, live: LiveRecord[], logger: Logger): Promise<boolean> {
  // The longest name is the least likely to be part of others: its listing is the shortest.
  const name = live.map((r) => r.name).filter((n) => n !== zone).reduce<string | undefined>((a, b) => (a === undefined || b.length > a.length ? b : a), undefined);
  // A zone of apex records only: no name to probe with, and nothing to read but the apex (always read whole).
  if (name === undefined) return true;
  const expected = live.filter((r) => r.name === name).map((r) => r.entityID);
  let why: string;
  try {
    const found = new Set((await provider.listNames([name], { left: 1 })).map((r) => r.entityID));
    const missing = expected.filter((id) => !found.has(id));
    if (!missing.length) return true;
    why = `service/dnslist with filter ${name} listed ${found.size} of the ${expected.length} entries the zone holds there`;
  } catch (error) {
    why = error instanceof BroadFilterError ? `service/dnslist with filter ${name} listed more than the entries there (${error.pages} pages)` : `service/dnslist with filter ${name} failed (${(error as Error).message})`;
  }
  logger.warn(`gateway: ${zone}: ${why}: the provider's filter does not find a name's entries as the gateway reads it (a substring of the full name); every update of ${zone} reads the whole zone instead`);
  return false;
}
