// The gateway's own time, on a clock the test moves: the zones are read again every --refresh, and
// at the stop the updates in flight get DRAIN_MS (60 s) to finish, then 200 ms for their answers.
import { describe, expect, it } from 'vitest';
import { drainGateway, stopNowLine } from '../../../src/gateway/drain.js';
import { startRefreshLoop } from '../../../src/gateway/refresh-loop.js';
import { silentLogger } from '../../../src/lib/log.js';
import { FakeClock } from '../../helpers/fake-clock.js';

describe("the gateway's refresh loop", () => {
  it('reads again every --refresh, and not once after it is stopped', () => {
    const clock = new FakeClock();
    let reads = 0;
    const stop = startRefreshLoop(() => void reads++, 300_000, clock);
    clock.advance(299_999);
    expect(reads).toBe(0);
    clock.advance(1);
    expect(reads).toBe(1);
    clock.advance(600_000);
    expect(reads).toBe(3);
    stop();
    clock.advance(900_000);
    expect([reads, clock.pending]).toEqual([3, 0]);
  });
});

describe("the gateway's stop", () => {
  it('waits for an update in flight, then gives its answer 200 ms to go out', async () => {
    const clock = new FakeClock();
    let finish = () => {};
    const update = new Promise<void>((resolve) => (finish = resolve));
    let drained = false;
    const draining = drainGateway(new Set([update]), undefined, silentLogger, clock).then(() => (drained = true));
    await clock.advanceAsync(30_000);
    expect(drained).toBe(false);
    finish();
    await clock.advanceAsync(199);
    expect(drained).toBe(false);
    await clock.advanceAsync(1);
    await draining;
    expect(drained).toBe(true);
  });

  it('stops waiting for an update that never ends after 60 s', async () => {
    const clock = new FakeClock();
    let drained = false;
    const draining = drainGateway(new Set([new Promise(() => {})]), undefined, silentLogger, clock).then(
      () => (drained = true),
    );
    await clock.advanceAsync(59_999);
    expect(drained).toBe(false);
    await clock.advanceAsync(201);
    await draining;
    expect(drained).toBe(true);
  });

  it('says what it leaves when it stops waiting after 60 s', async () => {
    const clock = new FakeClock();
    const lines: string[] = [];
    const logger = { ...silentLogger, warn: (line: string) => void lines.push(line) };
    let finish = () => {};
    const done = new Promise<void>((resolve) => (finish = resolve));
    const inFlight = new Set<Promise<unknown>>([done, new Promise(() => {})]);
    void done.finally(() => inFlight.delete(done));
    const draining = drainGateway(inFlight, undefined, logger, clock);
    finish();
    await clock.advanceAsync(60_200);
    await draining;
    expect(lines).toEqual([
      'gateway: stopped waiting after 60s; 1 update in flight is left unanswered, its change maybe made at the ' +
        'provider, in whole or in part (read the zone before sending it again)',
    ]);
  });

  it('stops waiting at once at a second signal, without the 200 ms for answers', async () => {
    const clock = new FakeClock(0);
    let now = (_signal: string) => {};
    const stoppedNow = new Promise<string>((resolve) => (now = resolve));
    const draining = drainGateway(new Set([new Promise(() => {})]), undefined, silentLogger, clock, stoppedNow);
    await clock.advanceAsync(10_000);
    now('SIGINT');
    await draining;
    expect(clock.now()).toBe(10_000);
  });

  it('says how long it waits, and what a second signal leaves', async () => {
    const lines: string[] = [];
    const logger = { ...silentLogger, info: (line: string) => void lines.push(line) };
    const clock = new FakeClock();
    const draining = drainGateway(new Set([Promise.resolve(), Promise.resolve()]), undefined, logger, clock);
    await clock.advanceAsync(200);
    await draining;
    expect(lines).toEqual([
      'gateway: stopping; waiting for 2 updates in flight to finish and be answered, at most 60s ' +
        '(Ctrl-C or SIGTERM again stops at once)',
    ]);
    expect(stopNowLine('SIGTERM', 2)).toBe(
      'gateway: SIGTERM again: stopping at once; 2 updates in flight are left unanswered, their changes maybe ' +
        'made at the provider, in whole or in part (read the zone before sending them again)',
    );
    expect(stopNowLine('SIGINT', 0)).toBe(
      'gateway: SIGINT again: stopping at once; nothing in flight is left; notifications still queued are not sent',
    );
  });
});
