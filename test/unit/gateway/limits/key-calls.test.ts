// Each key's share of the hourly call budget, on a clock the test moves: half the budget where
// the keys file holds several keys, all of it for a lone key, what `quota "KEY" calls N;` says
// otherwise; charges count for an hour, by the minute, then no longer.
import { describe, expect, it } from 'vitest';
import type { GatewayKeys } from '../../../../src/gateway/keys/keys-file.js';
import { KeyCalls } from '../../../../src/gateway/limits/key-calls.js';
import { CallBudget } from '../../../../src/state/budget.js';

const keysOf = (names: string[], quotas: Record<string, number> = {}) =>
  ({
    keys: new Map(names.map((n) => [n, {}])),
    quotas: new Map(Object.entries(quotas).map(([k, calls]) => [k, { calls }])),
  }) as unknown as GatewayKeys;

function keyCalls(budget: number, keys: GatewayKeys) {
  let now = 1_700_000_000_000 - (1_700_000_000_000 % 60_000);
  return {
    calls: new KeyCalls(
      budget,
      () => keys,
      () => now,
    ),
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('KeyCalls', () => {
  it('gives a key half the budget beside others, a lone key all of it, a quota what it says', () => {
    expect(keyCalls(40, keysOf(['a', 'b'])).calls.share('a')).toBe(20);
    expect(keyCalls(40, keysOf(['a'])).calls.share('a')).toBe(40);
    expect(keyCalls(40, keysOf(['a', 'b'], { b: 35 })).calls.share('b')).toBe(35);
  });

  it('refuses what does not fit the share, naming the numbers; another key is not held up', () => {
    const { calls } = keyCalls(40, keysOf(['a', 'b']));
    calls.charge('a', 18);
    expect(calls.afford('a', 2)).toBeUndefined();
    expect(calls.afford('a', 3)).toMatch(
      /the key a has spent its share of the provider calls \(18 of the 20 it may make an hour; this update may take 3\)/,
    );
    expect(calls.afford('b', 20)).toBeUndefined();
  });

  it('counts a charge until the end of the minute an hour after the one it was made in, then forgets it', () => {
    const { calls, advance } = keyCalls(40, keysOf(['a', 'b']));
    calls.charge('a', 10);
    advance(30 * 60_000);
    calls.charge('a', 5);
    expect(calls.used('a')).toBe(15);
    advance(31 * 60_000 - 1);
    expect(calls.used('a')).toBe(15);
    advance(1);
    expect(calls.used('a')).toBe(5);
    advance(30 * 60_000);
    expect(calls.used('a')).toBe(0);
  });

  it("counts a call exactly as long as the gateway's pool (state/budget.ts) does: one window", () => {
    const start = 1_700_000_000_000 - (1_700_000_000_000 % 60_000) + 59_000;
    let now = start;
    const state: { calls?: Record<string, number> } = {};
    const pool = new CallBudget(
      state,
      10,
      () => new Date(now),
      () => {},
    );
    const calls = new KeyCalls(
      10,
      () => keysOf(['a']),
      () => now,
    );
    pool.take();
    pool.settle();
    calls.charge('a', 1);
    for (let minutes = 0; minutes <= 62; minutes++) {
      now = start + minutes * 60_000;
      expect(calls.used('a'), `${minutes} minutes on`).toBe(10 - pool.left());
    }
  });

  it('charges nothing for zero or fewer calls', () => {
    const { calls } = keyCalls(40, keysOf(['a', 'b']));
    calls.charge('a', 0);
    calls.charge('a', -3);
    expect(calls.used('a')).toBe(0);
  });
});
