// The containers' names across runs of the agent: `update` reads the running containers once,
// and a stopped container's grace, written in the state directory, runs on from one run to the
// next; the daemon holds the names of before until the engine is heard.
import { describe, expect, it } from 'vitest';
import { listedContainerNames, watchedContainerNames } from '../../../src/agent/container-source.js';
import { runCycle } from '../../../src/agent/cycle.js';
import type { ContainerNews } from '../../../src/containers/engine/news.js';
import { loadConfig } from '../../../src/config/load.js';
import { silentLogger } from '../../../src/lib/log.js';
import { tempDir } from '../../helpers/cli.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { MemoryZone } from '../../helpers/memory-zone.js';

const GRACE = 600_000;
const web = { id: 'w1', name: 'web', labels: { 'ddedge.hosts': 'web.example.com' } };

function setup() {
  const dir = tempDir();
  const config = loadConfig({
    flags: { ip: '81.0.2.15', service: 'example.com', containers: 'unix:///run/test.sock', 'state-dir': dir },
    env: { DDEDGE_API_USER: 'u', DDEDGE_API_PASSWORD: 'p-123456' },
    purpose: 'cycle',
  });
  const clock = new FakeClock();
  const zone = new MemoryZone([]);
  const cycle = (containers: ReturnType<typeof listedContainerNames>) =>
    runCycle({
      config,
      logger: silentLogger,
      now: () => new Date(clock.now()),
      containers: { ...containers, zoneProvider: () => zone },
    });
  return { config, clock, zone, cycle };
}

describe("the containers' names across runs", () => {
  it('keeps a stopped container name for the grace across runs of update, then deletes its record', async () => {
    const { config, clock, zone, cycle } = setup();
    expect(config.hosts).toEqual([]);
    await cycle(listedContainerNames(config, silentLogger, clock, [web]));
    expect(zone.held()).toEqual(['web.example.com A 81.0.2.15']);
    clock.advance(60_000);
    await cycle(listedContainerNames(config, silentLogger, clock, []));
    expect(zone.held()).toEqual(['web.example.com A 81.0.2.15']);
    clock.advance(GRACE - 60_000);
    await cycle(listedContainerNames(config, silentLogger, clock, []));
    expect(zone.held()).toEqual(['web.example.com A 81.0.2.15']);
    clock.advance(60_000);
    await cycle(listedContainerNames(config, silentLogger, clock, []));
    expect(zone.held()).toEqual([]);
  });

  it('holds the names of before while the engine is not heard, and tells the daemon of each change', async () => {
    const { config, clock, zone, cycle } = setup();
    await cycle(listedContainerNames(config, silentLogger, clock, [web]));
    let send: (news: ContainerNews) => void = () => {};
    let changes = 0;
    const source = watchedContainerNames({
      config,
      logger: silentLogger,
      clock,
      watch: (onNews) => {
        send = onNews;
        return { stop: async () => {} };
      },
      onChange: () => changes++,
    });
    send({ kind: 'lost', reason: 'connection refused' });
    clock.advance(GRACE * 2);
    expect(source.cycleInput(true).wanted.map((w) => w.name)).toEqual(['web.example.com']);
    await cycle(source.cycleInput(true));
    expect(zone.held()).toEqual(['web.example.com A 81.0.2.15']);
    send({ kind: 'running', containers: [] });
    clock.advance(GRACE);
    expect(changes).toBe(1);
    expect(source.cycleInput(true)).toMatchObject({ wanted: [], only: true, zones: ['example.com'] });
    await cycle(source.cycleInput(true));
    expect(zone.held()).toEqual([]);
    await source.stop();
  });
});
