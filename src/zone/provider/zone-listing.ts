// Every entry of a zone, page after page, and whether the listing is known to be complete.
// A plan deletes what the listing does not show, so a short listing is a destructive one (a
// provider that ignores `page` and gives no `total` must not shrink a 1,504-entry zone to 1,000
// with exit 0). Completeness is proved by the provider's own count (`total`), every
// entity seen exactly once and the count unchanged from the first page to the last; anything
// less is reported as incomplete, with the reason, and drives no change.
import { DdedgeError, ExitCode } from '../../lib/errors.js';
import { SeenIds } from './seen-ids.js';
import { PresizedList } from '../../lib/presized-list.js';

/** Asked of the provider on every page (the spec's default, sent so that a short page means the end). */
export const LIST_PAGE_LENGTH = 1000;
/**
 * Pages one listing may take, whatever the provider says: 100,000 entries even at 200 per
 * page (a provider that shortens pages), and a bound on a provider that never stops.
 */
export const MAX_LIST_PAGES = 500;
/** Pages beyond what `total` announces, before the listing is called incomplete. */
const PAGE_MARGIN = 2;

export interface ListedPage<T> {
  items: T[];
  /** The provider's count of the whole listing, when it gave one. */
  total?: number;
}

export interface Listing<T> {
  items: T[];
  /** Why the listing is not known to be complete; undefined when it is. */
  incomplete?: string;
  /** Pages asked for. */
  pages: number;
}

/** A listing not known to be complete, where completeness was required: exit 4, nothing changed. */
export class IncompleteListingError extends DdedgeError {
  constructor(message: string) {
    super(message, ExitCode.transient);
  }
}

/** Reads pages from 1 until `total` entries were seen, checking each against the others. */
export async function listAll<T>(
  fetchPage: (page: number, pageLength: number) => Promise<ListedPage<T>>,
  idOf: (item: T) => string,
  what: string,
): Promise<Listing<T>> {
  // Made for the announced count once page 1 tells it.
  const items = new PresizedList<T>();
  const seen = new SeenIds(items, idOf);
  let total: number | undefined;
  let bound = MAX_LIST_PAGES;
  let previous: string[] = [];
  for (let page = 1; page <= bound; page++) {
    const answer = await fetchPage(page, LIST_PAGE_LENGTH);
    const done = (incomplete?: string): Listing<T> => ({ items: items.toArray(), incomplete, pages: page });
    const ids = answer.items.map(idOf);
    if (page === 1) {
      total = validTotal(answer.total);
      if (total !== undefined) {
        const pages = pagesFor(total, answer.items.length, what);
        if (typeof pages === 'string') return done(pages);
        bound = pages;
        items.reserve(total);
      }
    } else if (total !== undefined && validTotal(answer.total) !== total) {
      return done(
        `${what} announced ${total} entries on page 1 and ${answer.total ?? 'no count'} on page ${page}: the zone ` +
          `changed while it was read; run it again`,
      );
    }
    if (ids.length && sameIds(ids, previous)) {
      return done(
        `${what} answered page ${page} with the entries of page ${page - 1} (it does not follow \`page\`); ` +
          `${items.count} entries seen${total === undefined ? ', and no total' : ` of ${total}`}`,
      );
    }
    previous = ids;
    const twice = takePage(answer.items, ids, items, seen);
    if (twice !== undefined)
      return done(
        `${what} listed entity ${twice} twice (pages overlap): the zone changed while it was read; run it again`,
      );
    if (total === undefined) {
      // Without the provider's count a short page may be the end, or a provider that caps pages.
      if (ids.length < LIST_PAGE_LENGTH)
        return done(
          `${what} gave no total (queryInfo.total), so the ${items.count} entries listed are not known to be all ` +
            `of them`,
        );
      continue;
    }
    if (items.count > total)
      return done(
        `${what} listed ${items.count} entries, more than the ${total} it announced: the zone changed while it was ` +
          `read; run it again`,
      );
    if (items.count === total) return done();
    if (ids.length === 0)
      return done(`${what} listed ${items.count} of the ${total} entries it announced (page ${page} was empty)`);
  }
  return {
    items: items.toArray(),
    pages: bound,
    incomplete:
      total === undefined
        ? `${what} gave no total (queryInfo.total) and did not stop after ${bound} pages`
        : `${what} listed ${items.count} of the ${total} entries it announced in ${bound} pages`,
  };
}

/**
 * Adds a page's entries to `items`, their IDs to `seen`; the first ID seen before, if any (pages that overlap: an
 * entry moved while the zone was listed), with the entries before it added. A function of its own: the loop over
 * 1,000 entries is optimized by itself, not with the whole listing around it (which was compiled three times).
 */
function takePage<T>(
  page: readonly T[],
  ids: readonly string[],
  items: PresizedList<T>,
  seen: SeenIds<T>,
): string | undefined {
  for (let i = 0; i < ids.length; i++) {
    if (!seen.add(ids[i]!)) return ids[i];
    items.add(page[i]!);
  }
  return undefined;
}

/**
 * The pages a listing of `total` entries may take, from its first page's length (the provider
 * may shorten pages) and a margin; or why ddedge does not read that many.
 */
function pagesFor(total: number, firstLength: number, what: string): number | string {
  const perPage = Math.min(LIST_PAGE_LENGTH, firstLength || LIST_PAGE_LENGTH);
  const needed = Math.ceil(total / perPage);
  if (needed > MAX_LIST_PAGES || total > MAX_LIST_PAGES * LIST_PAGE_LENGTH)
    return (
      `${what} announced ${total} entries in pages of ${perPage}: more than the ${MAX_LIST_PAGES} pages ` +
      'ddedge reads'
    );
  return needed + PAGE_MARGIN;
}

/** Whether a page lists the very entities of the page before, in the same order. */
function sameIds(ids: readonly string[], previous: readonly string[]): boolean {
  if (ids.length !== previous.length) return false;
  for (let i = 0; i < ids.length; i++) if (ids[i] !== previous[i]) return false;
  return true;
}

function validTotal(total: unknown): number | undefined {
  const n = typeof total === 'string' && /^\d+$/.test(total) ? Number(total) : total;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}
