// The containers' names kept within a cycle, against a zone in memory: one listing and one write
// per record that changes, nothing at all when nothing changed, a record made before a container
// gave its name never deleted, and only the records ddedge created (written down before the
// call that creates them) deleted once a name is let go.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCycle } from '../../../src/agent/cycle.js';
import type { WantedName } from '../../../src/containers/desired-names.js';
import { loadConfig } from '../../../src/config/load.js';
import { createLogger } from '../../../src/lib/log.js';
import { writeState } from '../../../src/state/state.js';
import { readHistory } from '../../../src/state/history.js';
import { tempDir } from '../../helpers/cli.js';
import { MemoryZone } from '../../helpers/memory-zone.js';

const NOW = Date.UTC(2026, 0, 1, 12);

function agent(zone: MemoryZone, start = NOW, ipv6 = false) {
  const dir = tempDir();
  let now = start;
  const six = ipv6 ? { ipv6: true, ip6: '2a00:1450:4003::15' } : {};
  const config = loadConfig({
    flags: { ip: '81.0.2.15', host: ['home.example.com'], 'state-dir': dir, via: 'api', ...six },
    env: { DDEDGE_API_USER: 'user', DDEDGE_API_PASSWORD: 'password-not-used' },
    purpose: 'cycle',
  });
  // The agent's own host is current: the cycles here cost only what the containers' names cost.
  writeState(dir, {
    version: 1,
    records: {
      'home.example.com/A': {
        host: 'home.example.com',
        type: 'A',
        address: '81.0.2.15',
        sentAt: new Date(start).toISOString(),
        via: 'api',
      },
    },
    lastCycleExitCode: 0,
  });
  const log: string[] = [];
  const logger = createLogger({ level: 'info', format: 'text', write: (t) => log.push(t) });
  const cycle = (
    wanted: WantedName[],
    options: { only?: boolean; dryRun?: boolean; ip?: string; retryRefused?: boolean } = {},
  ) =>
    runCycle({
      config: options.ip ? { ...config, ip: options.ip } : config,
      logger,
      now: () => new Date(now),
      dryRun: options.dryRun,
      retryRefused: options.retryRefused,
      containers: { wanted, only: options.only, zones: ['example.com'], zoneProvider: () => zone },
    });
  const file = () => JSON.parse(readFileSync(join(dir, 'containers.json'), 'utf8'));
  return { dir, cycle, log, file, later: (ms: number) => (now += ms) };
}

const name = (n: string, extra: Partial<WantedName> = {}): WantedName => ({
  name: n,
  containers: ['container web (c0)'],
  ...extra,
});

describe("a cycle keeps the containers' names", () => {
  it('creates a new name with one listing and one write, then costs nothing while nothing changes', async () => {
    const zone = new MemoryZone([]);
    const { cycle, file } = agent(zone);
    const first = await cycle([name('cloud.example.com')]);
    expect(first.exitCode).toBe(0);
    expect(zone.calls).toEqual(['list', 'create cloud.example.com A 81.0.2.15']);
    expect(zone.held()).toEqual(['cloud.example.com A 81.0.2.15']);
    expect(file().owned).toEqual([
      expect.objectContaining({ name: 'cloud.example.com', type: 'A', value: '81.0.2.15' }),
    ]);
    expect(first.containers?.changes).toEqual([
      { name: 'cloud.example.com', event: 'added', containers: ['container web (c0)'] },
    ]);
    zone.calls.length = 0;
    for (let i = 0; i < 5; i++) {
      const again = await cycle([name('cloud.example.com')]);
      expect(again.exitCode).toBe(0);
    }
    expect(zone.calls).toEqual([]);
  });

  it('writes a burst of 20 new names with one listing and one write each', async () => {
    const zone = new MemoryZone([]);
    const { cycle } = agent(zone);
    const burst = Array.from({ length: 20 }, (_, i) => name(`s${i}.example.com`));
    const report = await cycle(burst, { only: true });
    expect(report.exitCode).toBe(0);
    expect(zone.calls.filter((c) => c === 'list')).toHaveLength(1);
    expect(zone.writes()).toHaveLength(20);
    expect(zone.calls).toHaveLength(21);
  });

  it('gives a name with a target its CNAME', async () => {
    const zone = new MemoryZone([]);
    const { cycle } = agent(zone);
    await cycle([name('git.example.com', { target: 'home.example.com' })]);
    expect(zone.held()).toEqual(['git.example.com CNAME home.example.com']);
    zone.calls.length = 0;
    await cycle([name('git.example.com', { target: 'home.example.com' })]);
    expect(zone.calls).toEqual([]);
  });

  it('deletes only what it created once a name is let go, and says when it came and went', async () => {
    const zone = new MemoryZone([{ name: 'other.example.com', type: 'A', value: '192.0.2.1' }]);
    const { cycle, file, dir } = agent(zone);
    await cycle([name('cloud.example.com')]);
    zone.calls.length = 0;
    const report = await cycle([]);
    expect(zone.calls).toEqual(['list', 'delete e2']);
    expect(zone.held()).toEqual(['other.example.com A 192.0.2.1']);
    expect(report.containers?.changes).toEqual([
      { name: 'cloud.example.com', event: 'removed', containers: ['container web (c0)'] },
    ]);
    expect(file()).toMatchObject({ names: [], owned: [] });
    expect(report.state.records['cloud.example.com/A']).toBeUndefined();
    const events = readHistory(dir).history.entries.map((e) => `${e.event} ${e.host}`);
    expect(events).toEqual(['added cloud.example.com', 'changed cloud.example.com', 'removed cloud.example.com']);
    expect(report.notices?.map((n) => n.event)).toEqual(['container-name-removed']);
  });

  it('never deletes a name that became a host of DDEDGE_HOSTS when no container gives it any more', async () => {
    const zone = new MemoryZone();
    const { cycle, dir, log, file } = agent(zone);
    await cycle([name('cloud.example.com')]);
    expect(zone.held()).toEqual(['cloud.example.com A 81.0.2.15']);
    // The user now keeps the name as a host of the agent; the container that gave it is gone.
    const config = loadConfig({
      flags: { ip: '81.0.2.15', host: ['home.example.com', 'cloud.example.com'], 'state-dir': dir, via: 'api' },
      env: { DDEDGE_API_USER: 'user', DDEDGE_API_PASSWORD: 'password-not-used' },
      purpose: 'cycle',
    });
    const logger = createLogger({ level: 'info', format: 'text', write: (t) => log.push(t) });
    const report = await runCycle({
      config,
      logger,
      now: () => new Date(NOW),
      containers: { wanted: [], only: true, zones: ['example.com'], zoneProvider: () => zone },
    });
    expect(zone.held()).toEqual(['cloud.example.com A 81.0.2.15']);
    expect(report.state.records['cloud.example.com/A']).toBeDefined();
    expect(file()).toMatchObject({ names: [], owned: [] });
    expect(log.join('')).toMatch(/cloud\.example\.com: now a host of DDEDGE_HOSTS/);
  });

  it('never deletes a record that was there before a container gave its name, though it updates it', async () => {
    const zone = new MemoryZone([
      { name: 'photos.example.com', type: 'A', value: '192.0.2.7' },
      { name: 'photos.example.com', type: 'TXT', value: 'v=mine' },
    ]);
    const { cycle, file, log } = agent(zone);
    await cycle([name('photos.example.com')]);
    expect(zone.writes()).toEqual(['update e1 photos.example.com A 81.0.2.15']);
    expect(file().names[0]).toMatchObject({ name: 'photos.example.com', heldBefore: true });
    expect(file().owned).toEqual([]);
    zone.calls.length = 0;
    await cycle([]);
    expect(zone.writes()).toEqual([]);
    expect(zone.held()).toEqual(['photos.example.com A 81.0.2.15', 'photos.example.com TXT v=mine']);
    expect(log.join('')).toMatch(/photos\.example\.com held records before a container gave it/);
  });

  it('deletes the address record it created beside records made elsewhere, and leaves those', async () => {
    const zone = new MemoryZone([{ name: 'mail.example.com', type: 'TXT', value: 'v=spf1 mx' }]);
    const { cycle } = agent(zone);
    await cycle([name('mail.example.com')]);
    expect(zone.held()).toEqual(['mail.example.com A 81.0.2.15', 'mail.example.com TXT v=spf1 mx']);
    await cycle([]);
    expect(zone.held()).toEqual(['mail.example.com TXT v=spf1 mx']);
  });

  it('refuses a CNAME beside records made elsewhere, with no write and a refusal exit code', async () => {
    const zone = new MemoryZone([{ name: 'mail.example.com', type: 'MX', value: 'mx.example.com', priority: 10 }]);
    const { cycle } = agent(zone);
    const report = await cycle([name('mail.example.com', { target: 'home.example.com' })], { only: true });
    expect(zone.writes()).toEqual([]);
    expect(report.exitCode).toBe(7);
    expect(report.containers?.records).toEqual([
      expect.objectContaining({ host: 'mail.example.com', type: 'CNAME', action: 'failed' }),
    ]);
  });

  it('backs a refused name off: a container naming it cannot make every cycle spend a listing', async () => {
    const zone = new MemoryZone([{ name: 'mail.example.com', type: 'MX', value: 'mx.example.com', priority: 10 }]);
    const { cycle, later } = agent(zone);
    const wanted = [name('mail.example.com', { target: 'home.example.com' })];
    await cycle(wanted, { only: true });
    expect(zone.calls).toEqual(['list']);
    zone.calls.length = 0;
    const again = await cycle(wanted, { only: true });
    expect(again.exitCode).toBe(7);
    expect(again.containers?.records[0]?.message).toMatch(/refused it 1 time .*next attempt after/);
    later(5 * 60_000);
    await cycle(wanted, { only: true });
    expect(zone.calls).toEqual(['list']);
    zone.calls.length = 0;
    // Twice refused: the next attempt waits twice as long.
    later(5 * 60_000);
    await cycle(wanted, { only: true });
    expect(zone.calls).toEqual([]);
    // Another target is another request: tried at once.
    await cycle([name('mail.example.com', { target: 'edge.example.com' })], { only: true });
    expect(zone.calls).toEqual(['list']);
  });

  it('tries a refused name again at once when a person asks for it (--force, SIGUSR1)', async () => {
    const zone = new MemoryZone([{ name: 'mail.example.com', type: 'MX', value: 'mx.example.com', priority: 10 }]);
    const { cycle } = agent(zone);
    const wanted = [name('mail.example.com', { target: 'home.example.com' })];
    await cycle(wanted, { only: true });
    zone.calls.length = 0;
    await cycle(wanted, { only: true, retryRefused: true });
    expect(zone.calls).toEqual(['list']);
  });

  it('writes a record down as its own before creating it: a create whose answer is lost is still deleted later', async () => {
    const zone = new MemoryZone([]);
    zone.onWrite = (w) => (w.call === 'create' ? 'answer lost' : undefined);
    const { cycle, file } = agent(zone);
    const report = await cycle([name('cloud.example.com')], { only: true });
    expect(report.exitCode).not.toBe(0);
    expect(zone.held()).toEqual(['cloud.example.com A 81.0.2.15']);
    expect(file().owned).toEqual([expect.objectContaining({ name: 'cloud.example.com', type: 'A' })]);
    zone.onWrite = undefined;
    zone.calls.length = 0;
    // The next cycle finds it made, and owns it.
    expect((await cycle([name('cloud.example.com')], { only: true })).exitCode).toBe(0);
    expect(zone.writes()).toEqual([]);
    await cycle([], { only: true });
    expect(zone.held()).toEqual([]);
  });

  it('follows an address change with one listing and one update, and makes no call in a dry run', async () => {
    const zone = new MemoryZone([]);
    const { cycle } = agent(zone);
    await cycle([name('cloud.example.com')], { only: true });
    zone.calls.length = 0;
    await cycle([name('cloud.example.com'), name('new.example.com')], { dryRun: true, ip: '81.0.2.16' });
    expect(zone.calls).toEqual([]);
    await cycle([name('cloud.example.com')], { only: true, ip: '81.0.2.16' });
    expect(zone.calls).toEqual(['list', 'update e1 cloud.example.com A 81.0.2.16']);
  });

  it('leaves the hosts of DDEDGE_HOSTS unchecked in a cycle of the names alone', async () => {
    const zone = new MemoryZone([]);
    const { cycle } = agent(zone);
    const report = await cycle([name('cloud.example.com')], { only: true });
    expect(report.outcomes.map((o) => o.host)).toEqual(['cloud.example.com']);
  });

  it('turns a name from its addresses to a CNAME and back, deleting only its own records of the other kind', async () => {
    const zone = new MemoryZone([{ name: 'app.example.com', type: 'TXT', value: 'made by hand' }]);
    const { cycle } = agent(zone, NOW, true);
    // A TXT was there before: the name's own records are still created but never deleted.
    await cycle([name('app.example.com')], { only: true });
    expect(zone.held()).toEqual([
      'app.example.com A 81.0.2.15',
      'app.example.com AAAA 2a00:1450:4003::15',
      'app.example.com TXT made by hand',
    ]);
    const fresh = new MemoryZone([]);
    const other = agent(fresh, NOW, true);
    await other.cycle([name('app.example.com')], { only: true });
    const toCname = await other.cycle([name('app.example.com', { target: 'home.example.com' })], { only: true });
    expect(toCname.exitCode).toBe(0);
    expect(fresh.held()).toEqual(['app.example.com CNAME home.example.com']);
    const back = await other.cycle([name('app.example.com')], { only: true });
    expect(back.exitCode).toBe(0);
    expect(fresh.held()).toEqual(['app.example.com A 81.0.2.15', 'app.example.com AAAA 2a00:1450:4003::15']);
    expect(fresh.writes().filter((w) => w.startsWith('delete'))).toHaveLength(3);
  });

  it('keeps owning its record whichever value an update that failed left it with', async () => {
    const zone = new MemoryZone([]);
    const { cycle, file } = agent(zone);
    await cycle([name('cloud.example.com')], { only: true });
    // Made, but its answer lost: the zone holds the new value, and the cycle does not know it.
    zone.onWrite = (w) => (w.call === 'update' ? 'answer lost' : undefined);
    const failed = await cycle([name('cloud.example.com')], { only: true, ip: '81.0.2.16' });
    expect(failed.exitCode).not.toBe(0);
    expect(zone.held()).toEqual(['cloud.example.com A 81.0.2.16']);
    expect(
      file()
        .owned.map((o: { value: string }) => o.value)
        .sort(),
    ).toEqual(['81.0.2.15', '81.0.2.16']);
    zone.onWrite = undefined;
    await cycle([], { only: true });
    expect(zone.held()).toEqual([]);
    expect(file().owned).toEqual([]);
  });
});
