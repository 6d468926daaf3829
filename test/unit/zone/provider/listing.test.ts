// The bounds of a zone listing (src/zone/provider/zone-listing.ts) over providers that page oddly: every
// loop stops, and only a listing proved complete by the provider's own count is complete.
import { describe, expect, it } from 'vitest';
import {
  LIST_PAGE_LENGTH,
  listAll,
  MAX_LIST_PAGES,
  type ListedPage,
} from '../../../../src/zone/provider/zone-listing.js';

interface Entry {
  id: string;
}
const entries = (from: number, count: number): Entry[] =>
  Array.from({ length: count }, (_, i) => ({ id: String(from + i) }));

/** A provider over `count` entries with pages of `size` (whatever was asked), counting calls. */
function provider(count: number, size: number, withTotal = true) {
  const asked: number[] = [];
  const fetchPage = async (page: number): Promise<ListedPage<Entry>> => {
    asked.push(page);
    const from = (page - 1) * size;
    return { items: entries(from, Math.max(0, Math.min(size, count - from))), ...(withTotal ? { total: count } : {}) };
  };
  return { fetchPage, asked };
}
const list = (fetchPage: (page: number, length: number) => Promise<ListedPage<Entry>>) =>
  listAll(fetchPage, (e) => e.id, 'service/dnslist');

describe('a zone listing', () => {
  it('follows total across pages of the size the provider really gives, past 8 pages', async () => {
    for (const [count, size, pages] of [
      [0, 1000, 1],
      [1000, 1000, 1],
      [1001, 1000, 2],
      [10_000, 1000, 10],
      [2_500, 100, 25],
      [3, 1, 3],
    ] as const) {
      const p = provider(count, size);
      const listing = await list(p.fetchPage);
      expect(listing.incomplete, `${count} in pages of ${size}`).toBeUndefined();
      expect(listing.items).toHaveLength(count);
      expect(p.asked).toHaveLength(pages);
    }
  });

  it('a provider that never stops (new entries on every page, no total) is stopped at the absolute bound', async () => {
    const asked: number[] = [];
    const listing = await list(async (page) => {
      asked.push(page);
      return { items: entries(page * LIST_PAGE_LENGTH, LIST_PAGE_LENGTH) };
    });
    expect(asked).toHaveLength(MAX_LIST_PAGES);
    expect(listing.incomplete).toMatch(/gave no total .* did not stop after 500 pages/);
  });

  it('an empty page before the announced count is reached: incomplete, no further call', async () => {
    const asked: number[] = [];
    const listing = await list(async (page) => {
      asked.push(page);
      return { items: page <= 2 ? entries(page * 1000, 1000) : [], total: 3_000 };
    });
    expect(listing.incomplete).toMatch(/listed 2000 of the 3000 entries it announced/);
    expect(asked).toEqual([1, 2, 3]);
  });

  it('a total beyond what ddedge reads is said at once, after one call', async () => {
    const p = provider(MAX_LIST_PAGES * LIST_PAGE_LENGTH + 1, 1000);
    const listing = await list(p.fetchPage);
    expect(listing.incomplete).toMatch(
      /announced 500001 entries in pages of 1000: more than the 500 pages ddedge reads/,
    );
    expect(p.asked).toEqual([1]);
  });

  it('without a total, even a listing that ends with a short page is not known to be complete', async () => {
    const p = provider(1_504, 1000, false);
    const listing = await list(p.fetchPage);
    expect(listing.items).toHaveLength(1_504);
    expect(listing.incomplete).toMatch(/gave no total/);
  });

  it('an entity shown twice (pages that overlap, or twice on one page) makes the listing incomplete', async () => {
    // Page 2 starts one entry early: entry 999 moved while the zone was listed.
    const overlap = await list(async (page) => ({
      items: page === 1 ? entries(0, 1000) : entries(999, 500),
      total: 1500,
    }));
    expect(overlap.incomplete).toBe(
      'service/dnslist listed entity 999 twice (pages overlap): the zone changed while it was read; run it again',
    );
    expect(overlap.items).toHaveLength(1000);
    const onOnePage = await list(async () => ({ items: [...entries(0, 3), { id: '1' }], total: 4 }));
    expect(onOnePage.incomplete).toMatch(/^service\/dnslist listed entity 1 twice/);
    expect(onOnePage.items.map((e) => e.id)).toEqual(['0', '1', '2']);
  });

  it('a page that repeats the page before is said as such; pages whose IDs only join alike are not one', async () => {
    const repeated = await list(async () => ({ items: entries(0, 1000), total: 3000 }));
    expect(repeated.incomplete).toMatch(/^service\/dnslist answered page 2 with the entries of page 1/);
    // Entity IDs are the provider's text: a comma in one does not make two pages the same.
    const pages = [
      [{ id: 'a,b' }, { id: 'c' }],
      [{ id: 'a' }, { id: 'b,c' }],
    ];
    const commas = await listAll(
      async (page) => ({ items: pages[page - 1] ?? [], total: 4 }),
      (e: Entry) => e.id,
      'service/dnslist',
    );
    expect(commas.incomplete).toBeUndefined();
    expect(commas.items.map((e) => e.id)).toEqual(['a,b', 'c', 'a', 'b,c']);
  });
});
