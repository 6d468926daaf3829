// When refusals become a "refused" notification, on a clock the test moves: `threshold` of one
// key's refusals within the window make one, then that key is quiet for `quietMs`; refusals
// older than the window do not count; keys are counted apart; the memory of keys is bounded.
import { describe, expect, it } from 'vitest';
import { REFUSAL_BURST, RefusalBursts } from '../../../../src/gateway/limits/refusal-bursts.js';

const refusal = { time: '', rcode: 'REFUSED', what: 'update unsigned, from 192.0.2.1', why: 'unsigned' };

function bursts(limits = REFUSAL_BURST) {
  let now = 1_700_000_000_000;
  const counter = new RefusalBursts(limits, () => now);
  return {
    /** Notes `n` refusals of `key`; the notifications they made. */
    refuse: (n: number, key?: string) =>
      Array.from({ length: n }, () => counter.note(key, 'example.com', refusal)).filter((e) => e !== undefined),
    advance: (ms: number) => {
      now += ms;
    },
    at: () => new Date(now).toISOString(),
  };
}

describe('RefusalBursts', () => {
  it('tells nothing below the threshold, one notification at it, stamped with the clock', () => {
    const b = bursts();
    expect(b.refuse(REFUSAL_BURST.threshold - 1)).toEqual([]);
    const told = b.refuse(1);
    expect(told).toEqual([
      {
        event: 'refused',
        time: b.at(),
        host: 'example.com',
        key: 'unsigned',
        message: expect.stringContaining('5 refused within 5 min, the last: update unsigned'),
      },
    ]);
  });

  it('stays quiet for quietMs after telling, then tells again for a new burst', () => {
    const b = bursts();
    expect(b.refuse(REFUSAL_BURST.threshold)).toHaveLength(1);
    expect(b.refuse(3 * REFUSAL_BURST.threshold)).toEqual([]);
    b.advance(REFUSAL_BURST.quietMs - 1);
    expect(b.refuse(REFUSAL_BURST.threshold)).toEqual([]);
    b.advance(1);
    expect(b.refuse(REFUSAL_BURST.threshold - 1)).toEqual([]);
    expect(b.refuse(1)).toHaveLength(1);
  });

  it('forgets refusals older than the window', () => {
    const b = bursts();
    expect(b.refuse(REFUSAL_BURST.threshold - 1)).toEqual([]);
    b.advance(REFUSAL_BURST.windowMs);
    expect(b.refuse(1)).toEqual([]);
    b.advance(REFUSAL_BURST.windowMs - 1);
    expect(b.refuse(REFUSAL_BURST.threshold - 2)).toEqual([]);
    expect(b.refuse(1)).toHaveLength(1);
  });

  it("counts each key apart: one key's burst neither tells nor silences another", () => {
    const b = bursts();
    expect(b.refuse(REFUSAL_BURST.threshold - 1, 'a')).toEqual([]);
    expect(b.refuse(REFUSAL_BURST.threshold - 1, 'b')).toEqual([]);
    expect(b.refuse(1, 'a')).toMatchObject([{ key: 'a' }]);
    expect(b.refuse(1, 'b')).toMatchObject([{ key: 'b' }]);
  });

  it('remembers at most `keys` keys: the oldest is forgotten first', () => {
    const b = bursts({ ...REFUSAL_BURST, keys: 2 });
    expect(b.refuse(REFUSAL_BURST.threshold - 1, 'first')).toEqual([]);
    b.refuse(1, 'second');
    b.refuse(1, 'third');
    expect(b.refuse(1, 'first')).toEqual([]);
  });
});
