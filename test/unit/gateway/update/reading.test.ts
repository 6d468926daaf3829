// How a batch reads its names (reading.ts), counted on the gateway's view of the zone: one
// filtered listing a name while that takes fewer pages than the whole zone (each name at least
// one page, the apex always too many), else the whole zone; a filter found broader than the view
// said falls back to the whole zone; and an update naming, in prerequisites only, names whose
// listings would take more than four pages is refused before anything is read.
import { describe, expect, it } from 'vitest';
import { EDE } from '../../../../src/dns/wire/edns.js';
import { CLASS, TYPE_ANY, type UpdateRecord } from '../../../../src/gateway/update/message.js';
import { costlyPrerequisites, readAt, readPlan } from '../../../../src/gateway/update/reading.js';
import { RCODE_UPDATE } from '../../../../src/gateway/update/rules.js';
import { BroadFilterError } from '../../../../src/zone/provider/provider-zone.js';
import { LIST_PAGE_LENGTH } from '../../../../src/zone/provider/zone-listing.js';
import { addA, batchWorld, updateOf, ZONE } from '../../../helpers/update-batch.js';

/** `count` A records at hN.`parent`. */
const hosts = (count: number, parent: string) =>
  Array.from({ length: count }, (_, i) => ({ name: `h${i}.${parent}`, type: 'A', ttl: 300, value: '192.0.2.1' }));
const inUse = (name: string): UpdateRecord => ({ name, type: TYPE_ANY, class: CLASS.ANY, ttl: 0 });

/** A zone of 3.5 pages: 2.5 of them under big.example.com, one under mid.example.com, a few others. */
async function world(filterFinds = true) {
  const records = [
    ...hosts(2.5 * LIST_PAGE_LENGTH, 'big.example.com'),
    ...hosts(LIST_PAGE_LENGTH - 10, 'mid.example.com'),
    ...hosts(5, 'small.example.com'),
  ];
  const w = await batchWorld({ records });
  if (filterFinds) w.views.filterFinds.set(ZONE, true);
  return w;
}

describe('the plan of a reading', () => {
  it('reads nothing when no name is in the zone', async () => {
    const { views } = await world();
    expect(readPlan(ZONE, new Set(), views)).toEqual({ whole: false, calls: 0 });
  });

  it('reads the whole zone while the filter is not known to find names, or for the apex', async () => {
    expect(readPlan(ZONE, new Set(['a.example.com']), (await world(false)).views)).toEqual({ whole: true, calls: 4 });
    const { views } = await world();
    expect(readPlan(ZONE, new Set(['a.example.com', ZONE]), views)).toEqual({ whole: true, calls: 4 });
  });

  it('counts each name at least one page, and a parent of many the pages of its filter', async () => {
    const { views } = await world();
    expect(readPlan(ZONE, new Set(['a.example.com', 'b.example.com']), views)).toEqual({ whole: false, calls: 2 });
    expect(readPlan(ZONE, new Set(['big.example.com']), views)).toEqual({ whole: false, calls: 3 });
    expect(readPlan(ZONE, new Set(['mid.example.com', 'small.example.com']), views)).toEqual({
      whole: false,
      calls: 2,
    });
    // As many pages as the whole zone: the whole zone.
    expect(readPlan(ZONE, new Set(['big.example.com', 'a.example.com']), views)).toEqual({ whole: true, calls: 4 });
    expect(readPlan(ZONE, new Set(['a', 'b', 'c', 'd'].map((l) => `${l}.example.com`)), views)).toEqual({
      whole: true,
      calls: 4,
    });
  });
});

describe('a reading', () => {
  it('lists the names, allowing the pages of the whole zone less one', async () => {
    const { zone, views } = await world();
    const lefts: unknown[] = [];
    const provider = Object.assign(Object.create(zone) as typeof zone, {
      listNames: (names: Iterable<string>, options: unknown) => {
        lefts.push(options);
        return zone.listNames(names);
      },
    });
    const reading = { whole: false, calls: 1 };
    const read = await readAt(provider, ZONE, new Set(['h1.small.example.com', 'x.example.com']), reading, views);
    expect(read).toEqual({ atNames: [expect.objectContaining({ name: 'h1.small.example.com' })] });
    expect(lefts).toEqual([{ left: 3 }]);
    expect(reading).toEqual({ whole: false, calls: 1 });
  });

  it('reads the whole zone when asked, and when a filter proves broader than the view said', async () => {
    const { zone, views } = await world();
    const names = new Set(['h1.small.example.com']);
    const whole = await readAt(zone, ZONE, names, { whole: true, calls: 4 }, views);
    expect(whole.atNames.map((r) => r.name)).toEqual(['h1.small.example.com']);
    expect(whole.whole).toHaveLength(zone.live.length);

    const broad = Object.assign(Object.create(zone) as typeof zone, {
      listNames: async () => {
        throw new BroadFilterError('small', 9);
      },
    });
    const reading = { whole: false, calls: 1 };
    const read = await readAt(broad, ZONE, names, reading, views);
    expect(read.atNames.map((r) => r.name)).toEqual(['h1.small.example.com']);
    expect(reading).toEqual({ whole: true, calls: 4 });

    const failing = Object.assign(Object.create(zone) as typeof zone, {
      listNames: async () => {
        throw new Error('connection reset');
      },
    });
    const untouched = { whole: false, calls: 1 };
    await expect(readAt(failing, ZONE, names, untouched, views)).rejects.toThrow('connection reset');
    expect(untouched).toEqual({ whole: false, calls: 1 });
  });
});

describe('prerequisites at names an update does not change', () => {
  const costly = {
    rcode: RCODE_UPDATE.REFUSED,
    ede: EDE.PROHIBITED,
    why: expect.stringMatching(/than 4 provider calls/),
  };
  it('are refused when their listings would take more than 4 pages, naming the costliest', async () => {
    const w = await batchWorld({
      records: [...hosts(3 * LIST_PAGE_LENGTH, 'big.example.com'), ...hosts(3 * LIST_PAGE_LENGTH, 'other.example.com')],
    });
    w.views.filterFinds.set(ZONE, true);
    const message = (...names: string[]) => ({
      ...updateOf(addA('a.example.com', '192.0.2.1')),
      prerequisites: names.map(inUse),
    });
    expect(
      costlyPrerequisites(message('h1.other.example.com', 'big.example.com', 'h2.other.example.com'), ZONE, w.views),
    ).toEqual({
      ...costly,
      why: expect.stringMatching(
        /^checking the prerequisites at names this update does not change \(big\.example\.com among them\)/,
      ),
    });
    // Four pages are allowed: three for big, one for a single host.
    expect(costlyPrerequisites(message('big.example.com', 'h1.other.example.com'), ZONE, w.views)).toBeUndefined();
    // The same name twice is read once.
    expect(
      costlyPrerequisites(message('big.example.com', 'big.example.com', 'h1.other.example.com'), ZONE, w.views),
    ).toBeUndefined();
    // A name the update changes is read anyway, and one outside the zone never.
    const changes = {
      ...message('big.example.com', 'other.example.com'),
      updates: [addA('other.example.com', '192.0.2.1')],
    };
    expect(costlyPrerequisites(changes, ZONE, w.views)).toBeUndefined();
    expect(
      costlyPrerequisites(message('big.example.com', 'example.org', 'other.example.org'), ZONE, w.views),
    ).toBeUndefined();
  });

  it('are not weighed while the zone is read whole anyway', async () => {
    const w = await batchWorld({ records: hosts(6 * LIST_PAGE_LENGTH, 'big.example.com') });
    const message = { ...updateOf(addA('a.example.com', '192.0.2.1')), prerequisites: [inUse('big.example.com')] };
    expect(costlyPrerequisites(message, ZONE, w.views)).toBeUndefined();
    w.views.filterFinds.set(ZONE, true);
    expect(costlyPrerequisites(message, ZONE, w.views)).toEqual(costly);
    const small = await batchWorld({ records: hosts(4 * LIST_PAGE_LENGTH, 'big.example.com') });
    small.views.filterFinds.set(ZONE, true);
    expect(costlyPrerequisites(message, ZONE, small.views)).toBeUndefined();
  });
});
