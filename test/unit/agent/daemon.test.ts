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

/** Drives a daemon whose cycles are scripted, with signals sent by the test. */
function harness(exitCodes: number[], options: { reload?: () => Promise<Config> } = {}) {
  const signals = new EventEmitter();
  const cycles: number[] = [];
  let waiting: (() => void) | undefined;
  const cycleRan = () => new Promise<void>((resolve) => (waiting = resolve));
  const done = runDaemon({
    config: { ...config(), intervalMs: 60_000 },
    reload: options.reload ?? (async () => ({ ...config(), intervalMs: 60_000 })),
    logger: silentLogger,
    signals,
    cycle: async (): Promise<CycleReport> => {
      const code = exitCodes[cycles.length] ?? 0;
      cycles.push(code);
      setImmediate(() => waiting?.());
      return { outcomes: [], exitCode: code, state: emptyState() };
    },
  });
  return { signals, cycles, cycleRan, done };
}

const tick = () => new Promise((r) => setTimeout(r, 20));

describe('daemon', () => {
  it('runs a cycle at start, another on SIGUSR1, and exits 0 on SIGTERM', async () => {
    const h = harness([0, 0]);
    await tick();
    expect(h.cycles).toHaveLength(1);
    h.signals.emit('SIGUSR1');
    await tick();
    expect(h.cycles).toHaveLength(2);
    h.signals.emit('SIGTERM');
    await expect(h.done).resolves.toBe(0);
    expect(h.signals.listenerCount('SIGTERM')).toBe(0);
  });

  it('finishes the cycle in flight before stopping on SIGINT', async () => {
    const signals = new EventEmitter();
    let finished = false;
    const done = runDaemon({
      config: config(),
      reload: async () => config(),
      logger: silentLogger,
      signals,
      cycle: async () => {
        signals.emit('SIGINT');
        await new Promise((r) => setTimeout(r, 50));
        finished = true;
        return { outcomes: [], exitCode: 0, state: emptyState() };
      },
    });
    await expect(done).resolves.toBe(0);
    expect(finished).toBe(true);
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
    await tick();
    expect(h.cycles).toEqual([3]);
    h.signals.emit('SIGHUP'); // a reload that changes nothing still counts as a person asking
    await tick();
    expect(h.cycles).toEqual([3, 3]);
    key = 'k-new-key';
    h.signals.emit('SIGHUP');
    await tick();
    expect(h.cycles).toEqual([3, 3, 0]);
    h.signals.emit('SIGTERM');
    await h.done;
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
    await tick();
    h.signals.emit('SIGUSR1');
    await tick();
    expect(h.cycles).toEqual([0, 0]);
    h.signals.emit('SIGTERM');
    await expect(h.done).resolves.toBe(0);
  });
});
