// The daemon and the containers' names: a change is served by a cycle of those names alone, a
// burst of changes by one such cycle once it has settled, and the full cycle stays due when it was.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { CycleReport } from '../../../src/agent/cycle.js';
import { CONTAINER_SETTLE_MS, runDaemon } from '../../../src/agent/daemon.js';
import { loadConfig } from '../../../src/config/load.js';
import { silentLogger } from '../../../src/lib/log.js';
import { emptyState } from '../../../src/state/state.js';
import { FakeClock, until } from '../../helpers/fake-clock.js';

const INTERVAL = 300_000;

function harness() {
  const config = {
    ...loadConfig({
      flags: { ip: '81.0.2.15', host: ['h.example.com'] },
      env: { DDEDGE_DYNDNS_USER: 'u', DDEDGE_DYNDNS_KEY: 'k-123456' },
      purpose: 'cycle',
    }),
    intervalMs: INTERVAL,
  };
  const signals = new EventEmitter();
  const clock = new FakeClock();
  const cycles: { only: boolean; at: number }[] = [];
  let changed: (() => void) | undefined;
  const done = runDaemon({
    config,
    reload: async () => config,
    logger: silentLogger,
    signals,
    clock,
    containerAsker: (ask) => {
      changed = ask;
    },
    cycle: async (_config, { containersOnly }): Promise<CycleReport> => {
      cycles.push({ only: containersOnly, at: clock.now() });
      return { outcomes: [], exitCode: 0, state: emptyState() };
    },
  });
  return { clock, cycles, done, signals, change: () => changed?.() };
}

describe('the daemon with containers', () => {
  it('serves a burst of 20 changes with one cycle of the names, and keeps the full cycle when it was due', async () => {
    const h = harness();
    await until(() => h.cycles.length === 1 && h.clock.pending === 1);
    const start = h.clock.now();
    const fullDue = h.clock.nextDue!;
    h.clock.advance(1000);
    for (let i = 0; i < 20; i++) {
      h.change();
      h.clock.advance(100);
    }
    await until(() => h.clock.pending === 2);
    expect(h.cycles).toHaveLength(1);
    h.clock.advance(CONTAINER_SETTLE_MS);
    await until(() => h.cycles.length === 2 && h.clock.pending === 1);
    expect(h.cycles[1]!.only).toBe(true);
    // Not before the burst settled: the last change came at +2.9 s.
    expect(h.cycles[1]!.at).toBeGreaterThanOrEqual(start + 2900 + CONTAINER_SETTLE_MS);
    // The full cycle runs when it was due, not an interval after the names' cycle.
    expect(h.clock.nextDue).toBe(fullDue);
    h.clock.advance(fullDue - h.clock.now());
    await until(() => h.cycles.length === 3);
    expect(h.cycles[2]!.only).toBe(false);
    h.signals.emit('SIGTERM');
    await expect(h.done).resolves.toBe(0);
    expect(h.clock.pending).toBe(0);
  });

  it('runs the cycle of a change that came during a cycle right after it', async () => {
    const h = harness();
    await until(() => h.cycles.length === 1 && h.clock.pending === 1);
    h.change();
    h.change();
    h.clock.advance(CONTAINER_SETTLE_MS);
    await until(() => h.cycles.length === 2 && h.clock.pending === 1);
    expect(h.cycles.map((c) => c.only)).toEqual([false, true]);
    h.signals.emit('SIGTERM');
    await h.done;
  });
});
