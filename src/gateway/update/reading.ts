// How a batch of updates reads afresh what the provider holds at its names, and what that may
// cost. service/dnslist's `filter` matches every entry whose name contains it: a name that is a
// suffix of many others (a parent such as dyn.example.com, the apex) lists much of the zone, page
// after page (a prerequisite at a short name may take 151 pages, and four such updates would spend
// the hourly budget). So the cost is weighed before reading, from the gateway's view of the
// zone (the same substring match, counted on the last reading), and bounded while reading (each
// name's first page tells its total): a batch never takes more pages of filtered listings than
// reading the whole zone once would, and when it would, it reads the whole zone instead. Every
// page is counted against the call budget as it is sent (call-budget.ts).
import { EDE } from '../../dns/wire/edns.js';
import { atOrBelow } from '../../lib/names.js';
import { LIST_PAGE_LENGTH } from '../../zone/provider/zone-listing.js';
import { BroadFilterError, type ZoneProvider } from '../../zone/provider/provider-zone.js';
import type { LiveRecord } from '../../zone/record.js';
import type { UpdateMessage } from './message.js';
import { RCODE_UPDATE } from './rules.js';
import type { ZoneViews } from '../dns/zone-views.js';

/**
 * Pages of service/dnslist one update may cause for names it only names in prerequisites (it
 * changes nothing there, so its grants say nothing of them): RFC 2136 lets any key check any
 * name of the zone, as BIND does, but not at the cost of the whole zone's pages each time.
 */
const MAX_PREREQUISITE_PAGES = 4;

export interface Reading {
  /** The whole zone is read (one listing), not the names one by one. */
  whole: boolean;
  /** The calls the reading is expected to take (the view's count), for the budget's check. */
  calls: number;
}

/** service/dnslist pages the whole zone takes (as last read). */
const wholePages = (zone: string, views: ZoneViews): number =>
  Math.max(1, Math.ceil(views.size(zone) / LIST_PAGE_LENGTH));

/**
 * The pages the filtered listings of `names` are expected to take, counted on the view; counting
 * stops once past `atMost` (each name takes at least its first page).
 */
function filteredPages(zone: string, names: Iterable<string>, views: ZoneViews, atMost: number): number {
  let pages = 0;
  for (const name of names) {
    if (name === zone) return Number.POSITIVE_INFINITY;
    pages += Math.max(1, Math.ceil(views.filterMatches(zone, name, atMost * LIST_PAGE_LENGTH) / LIST_PAGE_LENGTH));
    if (pages > atMost) return pages;
  }
  return pages;
}

/**
 * How a batch reads its names: one filtered listing each while that takes fewer pages than the whole zone, else the
 * whole zone.
 */
export function readPlan(zone: string, names: Set<string>, views: ZoneViews): Reading {
  // Nothing of the zone to read (every name it names is outside it): nothing is read.
  if (!names.size) return { whole: false, calls: 0 };
  const whole = wholePages(zone, views);
  if (views.filterFinds.get(zone) !== true) return { whole: true, calls: whole };
  const filtered = filteredPages(zone, names, views, whole);
  return filtered >= whole ? { whole: true, calls: whole } : { whole: false, calls: filtered };
}

/**
 * The records the provider holds at `names`, read afresh (the whole listing too when the zone
 * was read whole). A filtered reading is allowed the pages of the whole zone less one: a name
 * whose listing would take more (the view was out of date) ends it, and the whole zone is read
 * instead; `reading.whole` says so afterwards, for the reading again after the writes.
 */
export async function readAt(
  provider: ZoneProvider,
  zone: string,
  names: Set<string>,
  reading: Reading,
  views: ZoneViews,
): Promise<{ atNames: LiveRecord[]; whole?: LiveRecord[] }> {
  if (!reading.whole) {
    try {
      return { atNames: await provider.listNames(names, { left: wholePages(zone, views) - 1 }) };
    } catch (error) {
      if (!(error instanceof BroadFilterError)) throw error;
      reading.whole = true;
      reading.calls = wholePages(zone, views);
    }
  }
  const live = await provider.list();
  return { atNames: live.filter((r) => names.has(r.name)), whole: live };
}

/**
 * Why an update is refused before anything is read: the names it only names in prerequisites
 * would take more than MAX_PREREQUISITE_PAGES pages to read (undefined when they would not, or
 * when the whole zone takes no more).
 */
export function costlyPrerequisites(
  message: UpdateMessage,
  zone: string,
  views: ZoneViews,
): { rcode: number; ede: number; why: string } | undefined {
  const changed = new Set(message.updates.map((u) => u.name));
  const only = [...new Set(message.prerequisites.map((p) => p.name))].filter(
    (n) => !changed.has(n) && atOrBelow(n, zone),
  );
  // A zone read whole for every update (filter-probe.ts) costs no more for them.
  if (!only.length || views.filterFinds.get(zone) !== true || wholePages(zone, views) <= MAX_PREREQUISITE_PAGES)
    return undefined;
  // Name by name, stopping once past the bound: at most MAX_PREREQUISITE_PAGES + 1 names are counted on the view.
  let pages = 0;
  let costly = only[0]!;
  let most = 0;
  for (const name of only) {
    const own = filteredPages(zone, [name], views, MAX_PREREQUISITE_PAGES);
    if (own > most) [most, costly] = [own, name];
    pages += own;
    if (pages > MAX_PREREQUISITE_PAGES) break;
  }
  if (pages <= MAX_PREREQUISITE_PAGES) return undefined;
  return {
    rcode: RCODE_UPDATE.REFUSED,
    ede: EDE.PROHIBITED,
    why:
      `checking the prerequisites at names this update does not change (${costly} among them) would take more ` +
      `than ${MAX_PREREQUISITE_PAGES} provider calls: the provider's filter for such a name lists much of the zone; ` +
      `name fewer or longer names, or change the name the prerequisite is on`,
  };
}
