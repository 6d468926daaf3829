// The status pages' actions ("update now", "read the zones again now") run at most once every
// 30 s whoever asks; a request within that time learns when the action last ran and when it may
// run again. Time is the fake clock's.
import { describe, expect, it } from 'vitest';
import { ACTION_EVERY_MS, ActionLimit } from '../../../src/probe/action-limit.js';
import { FakeClock } from '../../helpers/fake-clock.js';

describe('ActionLimit', () => {
  it('lets the first request run, refuses the next ones for 30 s saying when, then lets one run again', () => {
    const clock = new FakeClock();
    const limit = new ActionLimit(clock);
    const first = clock.now();
    expect(limit.take()).toEqual({ ran: true });
    clock.advance(1_000);
    expect(limit.take()).toEqual({ ran: false, lastAt: first, nextAt: first + ACTION_EVERY_MS });
    clock.advance(ACTION_EVERY_MS - 1_001);
    expect(limit.take()).toMatchObject({ ran: false, nextAt: first + 30_000 });
    clock.advance(1);
    expect(limit.take()).toEqual({ ran: true });
    expect(limit.take()).toEqual({ ran: false, lastAt: first + 30_000, nextAt: first + 60_000 });
  });

  it('a refused request does not push the next turn back', () => {
    const clock = new FakeClock();
    const limit = new ActionLimit(clock);
    limit.take();
    for (let i = 0; i < 29; i++) {
      clock.advance(1_000);
      expect(limit.take().ran).toBe(false);
    }
    clock.advance(1_000);
    expect(limit.take().ran).toBe(true);
  });

  it('a clock set back does not lock the action out for longer than 30 s', () => {
    let now = Date.UTC(2026, 0, 1, 12);
    const limit = new ActionLimit({ now: () => now, after: () => () => {} });
    expect(limit.take().ran).toBe(true);
    now -= 3_600_000;
    expect(limit.take().ran).toBe(true);
  });
});
