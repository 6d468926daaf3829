// Refusals worth a notification: `threshold` from one key within the window make one, then that
// key is quiet for a while.
import { describe, expect, it } from 'vitest';
import { REFUSAL_BURST, RefusalBursts } from '../../../../src/gateway/limits/refusal-bursts.js';
import type { Refusal } from '../../../../src/gateway/limits/refusal-log.js';

const refusal: Refusal = { time: '', rcode: 'REFUSED', what: 'update of home.example.com', why: 'no grant' };

function clocked() {
  let now = Date.parse('2026-01-01T00:00:00Z');
  return { bursts: new RefusalBursts(REFUSAL_BURST, () => now), advance: (ms: number) => (now += ms) };
}

describe('RefusalBursts', () => {
  it('tells of the fifth refusal of a key within five minutes, once, naming the last', () => {
    const { bursts, advance } = clocked();
    for (let i = 0; i < 4; i++) {
      expect(bursts.note('k1', 'example.com', refusal)).toBeUndefined();
      advance(60_000);
    }
    expect(bursts.note('k1', 'example.com', refusal)).toEqual({
      event: 'refused',
      time: '2026-01-01T00:04:00.000Z',
      host: 'example.com',
      key: 'k1',
      message:
        '5 refused within 5 min, the last: update of home.example.com: REFUSED: no grant ' +
        '(no more of these for this key for 60 min)',
    });
    // Quiet for an hour after telling.
    for (let i = 0; i < 10; i++) expect(bursts.note('k1', 'example.com', refusal)).toBeUndefined();
    advance(60 * 60_000);
    for (let i = 0; i < 4; i++) expect(bursts.note('k1', undefined, refusal)).toBeUndefined();
    expect(bursts.note('k1', undefined, refusal)).toMatchObject({ key: 'k1' });
  });

  it('forgets refusals older than the window, and counts keys apart (unsigned ones together)', () => {
    const { bursts, advance } = clocked();
    for (let i = 0; i < 4; i++) bursts.note('k1', 'example.com', refusal);
    advance(5 * 60_000);
    expect(bursts.note('k1', 'example.com', refusal)).toBeUndefined();
    for (let i = 0; i < 4; i++) expect(bursts.note(undefined, undefined, refusal)).toBeUndefined();
    expect(bursts.note('k2', undefined, refusal)).toBeUndefined();
    const told = bursts.note(undefined, undefined, refusal);
    expect(told).toMatchObject({ key: 'unsigned' });
    expect(told).not.toHaveProperty('host');
  });

  it('remembers at most `keys` keys, forgetting the oldest', () => {
    let now = 0;
    const bursts = new RefusalBursts({ ...REFUSAL_BURST, threshold: 2, keys: 2 }, () => now);
    bursts.note('a', undefined, refusal);
    bursts.note('b', undefined, refusal);
    bursts.note('c', undefined, refusal);
    now += 1;
    expect(bursts.note('a', undefined, refusal)).toBeUndefined();
    expect(bursts.note('c', undefined, refusal)).toMatchObject({ key: 'c' });
  });
});
