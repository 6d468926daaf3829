import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { CycleReport } from '../../../src/agent/cycle.js';
import { runDaemon } from '../../../src/agent/daemon.js';
import { BACKOFF_BASE_MS, nextDelay } from '../../../src/agent/schedule.js';
import { loadConfig } from '../../../src/config/load.js';
import type { Config } from '../../../src/config/config.js';
import { ConfigError } from '../../../src/lib/errors.js';
import { silentLogger } from '../../../src/lib/log.js';
import { emptyState } from '../../../src/state/state.js';
import { FakeClock, settle, until } from '../../helpers/fake-clock.js';

describe('schedule', () => {
  it('waits the interval with ±10% jitter when all is well', () => {
    expect(nextDelay(300_000, 0, () => 0)).toBe(270_000);
    expect(nextDelay(300_000, 0, () => 1)).toBe(330_000);
    expect(nextDelay(300_000, 0, () => 0.5)).toBe(300_000);
  });
  it('backs off exponentially after transient failures, capped at the interval', () => {
    const mid = () => 0.5;
    expect([1, 2, 3, 4, 5, 6].map((n) => nextDelay(300_000, n, mid))).toEqual([
      BACKOFF_BASE_MS,
      30_000,
      60_000,
      120_000,
      240_000,
      300_000,
    ]);
  });
});

const config = (): Config =>
  loadConfig({
    flags: { ip: '81.0.2.15', host: ['h.example.com'] },
    env: { DDEDGE_DYNDNS_USER: 'u', DDEDGE_DYNDNS_KEY: 'k-123456' },
    purpose: 'cycle',
  });

/** Drives a daemon whose cycles are scripted, with signals sent and its clock moved by the test. */
function harness(exitCodes: number[], options: { reload?: () => Promise<Config> } = {}) {
  const signals = new EventEmitter();
  const clock = new FakeClock();
  const cycles: number[] = [];
  const done = runDaemon({
    config: { ...config(), intervalMs: 60_000 },
    reload: options.reload ?? (async () => ({ ...config(), intervalMs: 60_000 })),
    logger: silentLogger,
    signals,
    clock,
    cycle: async (): Promise<CycleReport> => {
      const code = exitCodes[cycles.length] ?? 0;
      cycles.push(code);
      return { outcomes: [], exitCode: code, state: emptyState() };
    },
  });
  /** Until the daemon has run `n` cycles. */
  const cyclesRun = (n: number) => until(() => cycles.length >= n);
  /** Until the daemon waits on its clock for the `n`th time. */
  const waiting = (n: number) => until(() => clock.scheduled >= n);
  /** How long the daemon waits, from now. */
  const wait = () => clock.nextDue! - clock.now();
  return { signals, clock, cycles, cyclesRun, waiting, wait, done };
}

describe('daemon', () => {
  it('runs a cycle at start, another on SIGUSR1, and exits 0 on SIGTERM', async () => {
    const h = harness([0, 0]);
    await h.waiting(1);
    expect(h.cycles).toHaveLength(1);
    h.signals.emit('SIGUSR1');
    await h.waiting(2);
    expect(h.cycles).toHaveLength(2);
    h.signals.emit('SIGTERM');
    await expect(h.done).resolves.toBe(0);
    expect(h.signals.listenerCount('SIGTERM')).toBe(0);
    expect(h.clock.pending).toBe(0);
  });

  it('waits the interval, with its jitter, between cycles on its clock', async () => {
    const h = harness([0, 0]);
    await h.waiting(1);
    const wait = h.wait();
    expect(wait).toBeGreaterThanOrEqual(54_000);
    expect(wait).toBeLessThanOrEqual(66_000);
    await h.clock.advanceAsync(wait - 1);
    expect(h.cycles).toHaveLength(1);
    await h.clock.advanceAsync(1);
    await h.waiting(2);
    expect(h.cycles).toHaveLength(2);
    h.signals.emit('SIGTERM');
    await h.done;
  });

  it('backs off after transient failures (15 s, then 30 s, with jitter), then waits the interval', async () => {
    const h = harness([4, 4, 0]);
    const within = (ms: number, base: number) => ms >= base * 0.9 && ms <= base * 1.1;
    await h.waiting(1);
    expect(within(h.wait(), BACKOFF_BASE_MS)).toBe(true);
    await h.clock.advanceAsync(h.wait());
    await h.waiting(2);
    expect(h.cycles).toEqual([4, 4]);
    expect(within(h.wait(), 2 * BACKOFF_BASE_MS)).toBe(true);
    await h.clock.advanceAsync(h.wait());
    await h.waiting(3);
    expect(h.cycles).toEqual([4, 4, 0]);
    expect(within(h.wait(), 60_000)).toBe(true);
    h.signals.emit('SIGTERM');
    await h.done;
  });

  it('finishes the cycle in flight before stopping on SIGINT', async () => {
    const signals = new EventEmitter();
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    let cycleEnded = false;
    let stopped = false;
    const done = runDaemon({
      config: config(),
      reload: async () => config(),
      logger: silentLogger,
      signals,
      clock: new FakeClock(),
      cycle: async () => {
        signals.emit('SIGINT');
        await finished;
        cycleEnded = true;
        return { outcomes: [], exitCode: 0, state: emptyState() };
      },
    }).finally(() => (stopped = true));
    await until(() => signals.listenerCount('SIGINT') > 0);
    await settle();
    expect(stopped).toBe(false);
    finish();
    await expect(done).resolves.toBe(0);
    expect(cycleEnded).toBe(true);
  });

  it('makes no provider call after rejected credentials until the configuration changes or SIGUSR1 asks', async () => {
    let key = 'k-123456';
    const reload = async () =>
      loadConfig({
        flags: { ip: '81.0.2.15', host: ['h.example.com'] },
        env: { DDEDGE_DYNDNS_USER: 'u', DDEDGE_DYNDNS_KEY: key },
        purpose: 'cycle',
      });
    const h = harness([3, 3, 0], { reload });
    await h.waiting(1);
    expect(h.cycles).toEqual([3]);
    // An interval passes: the configuration is read again, unchanged, and no cycle runs.
    await h.clock.advanceAsync(h.wait());
    await h.waiting(2);
    expect(h.cycles).toEqual([3]);
    h.signals.emit('SIGHUP'); // a reload that changes nothing still counts as a person asking
    await h.waiting(3);
    expect(h.cycles).toEqual([3, 3]);
    key = 'k-new-key';
    h.signals.emit('SIGHUP');
    await h.waiting(4);
    expect(h.cycles).toEqual([3, 3, 0]);
    h.signals.emit('SIGTERM');
    await h.done;
  });

  it("the status page's button asks for a cycle that keeps refused records to their backoff; SIGUSR1's retries them", async () => {
    const signals = new EventEmitter();
    const clock = new FakeClock();
    const retried: boolean[] = [];
    let ask: ((by: string) => void) | undefined;
    const done = runDaemon({
      config: { ...config(), intervalMs: 60_000 },
      reload: async () => ({ ...config(), intervalMs: 60_000 }),
      logger: silentLogger,
      signals,
      clock,
      cycleAsker: (asker) => (ask = asker),
      cycle: async (_config, context): Promise<CycleReport> => {
        retried.push(context.retryRefused);
        return { outcomes: [], exitCode: 0, state: emptyState() };
      },
    });
    await until(() => clock.scheduled >= 1);
    ask!('update now (status page)');
    await until(() => clock.scheduled >= 2);
    signals.emit('SIGUSR1');
    await until(() => clock.scheduled >= 3);
    expect(retried).toEqual([false, false, true]);
    signals.emit('SIGTERM');
    await expect(done).resolves.toBe(0);
  });

  it('keeps the previous configuration when a reload is invalid', async () => {
    let calls = 0;
    const h = harness([0, 0], {
      reload: async () => {
        calls++;
        if (calls > 1) throw new ConfigError('bad');
        return config();
      },
    });
    await h.waiting(1);
    h.signals.emit('SIGUSR1');
    await h.waiting(2);
    expect(calls).toBe(2);
    expect(h.cycles).toEqual([0, 0]);
    h.signals.emit('SIGTERM');
    await expect(h.done).resolves.toBe(0);
  });
});
