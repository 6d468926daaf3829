// The replay cache's bounds: an entry lives until its window closes and no longer, and a cache
// full of open windows refuses to forget one (that would let its message be replayed).
import { describe, expect, it } from 'vitest';
import { ReplayCache } from '../../../../src/dns/server/replay-cache.js';

describe('ReplayCache', () => {
  it('gives back what it remembers until the window closes, then forgets it', () => {
    const cache = new ReplayCache<string>(4);
    expect(cache.remember('k:mac', 1300, 'answer', 1000)).toBe(true);
    expect(cache.get('k:mac', 1300)).toBe('answer');
    expect(cache.get('k:mac', 1301)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('when full, drops closed windows to make room, and refuses while every window is open', () => {
    const cache = new ReplayCache<number>(2);
    expect(cache.remember('a', 100, 1, 0)).toBe(true);
    expect(cache.remember('b', 200, 2, 0)).toBe(true);
    expect(cache.remember('c', 300, 3, 50)).toBe(false);
    expect(cache.get('a', 50)).toBe(1);
    expect(cache.remember('c', 300, 3, 150)).toBe(true);
    expect(cache.size).toBe(2);
    expect(cache.get('b', 150)).toBe(2);
  });
});
