// A list made at its expected length (src/lib/presized-list.ts): the same items as an array pushed to, whether
// fewer, as many or more come than were reserved.
import { describe, expect, it } from 'vitest';
import { PresizedList } from '../../../src/lib/presized-list.js';

const filled = (reserved: number | undefined, count: number) => {
  const list = new PresizedList<{ n: number }>();
  if (reserved !== undefined) list.reserve(reserved);
  for (let n = 0; n < count; n++) list.add({ n });
  return list;
};

describe('a list made at its expected length', () => {
  it('gives exactly the items added, in order, however many were reserved', () => {
    for (const [reserved, count] of [
      [undefined, 0],
      [undefined, 5],
      [0, 3],
      [10, 0],
      [10, 4],
      [10, 10],
      [10, 25],
    ] as const) {
      const list = filled(reserved, count);
      expect(list.count).toBe(count);
      const array = list.toArray();
      expect(array).toStrictEqual(Array.from({ length: count }, (_, n) => ({ n })));
      expect(array.length).toBe(count);
      expect(Object.keys(array)).toHaveLength(count);
      if (count) expect(list.at(count - 1)).toStrictEqual({ n: count - 1 });
    }
  });

  it('keeps what was added when asked to reserve after the first item', () => {
    const list = filled(undefined, 2);
    list.reserve(100);
    list.add({ n: 2 });
    expect(list.toArray()).toStrictEqual([{ n: 0 }, { n: 1 }, { n: 2 }]);
  });
});
