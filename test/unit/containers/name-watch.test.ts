// The daemon's side of the engine's news: each change of a name told once, a grace's end told
// on the clock the test moves, nothing told after stop.
import { describe, expect, it } from 'vitest';
import { DesiredNames } from '../../../src/containers/desired-names.js';
import type { ContainerNews } from '../../../src/containers/engine/news.js';
import { startNameWatch } from '../../../src/containers/name-watch.js';
import { createLogger } from '../../../src/lib/log.js';
import { FakeClock } from '../../helpers/fake-clock.js';

const GRACE = 60_000;

function setup() {
  const clock = new FakeClock();
  const log: string[] = [];
  const logger = createLogger({ level: 'info', format: 'text', write: (t) => log.push(t) });
  const names = new DesiredNames({ zones: ['example.com'], keptHosts: [], traefik: false }, GRACE, clock, logger.warn);
  const told: string[][] = [];
  let send: (news: ContainerNews) => void = () => {};
  let stopped = false;
  const watch = startNameWatch({
    watch: (onNews) => {
      send = onNews;
      return {
        stop: async () => {
          stopped = true;
        },
      };
    },
    names,
    clock,
    logger,
    onChange: (changed) => told.push(changed),
  });
  return { clock, log, told, send: (news: ContainerNews) => send(news), watch, isStopped: () => stopped };
}

const web = { id: 'w1', name: 'web', labels: { 'ddedge.hosts': 'web.example.com' } };

describe('the name watch', () => {
  it('tells each change once, and a grace that ends on the clock', () => {
    const { clock, told, send } = setup();
    send({ kind: 'running', containers: [] });
    expect(told).toEqual([]);
    send({ kind: 'started', container: web });
    send({ kind: 'running', containers: [web] });
    expect(told).toEqual([['web.example.com']]);
    send({ kind: 'stopped', id: 'w1' });
    clock.advance(GRACE - 1);
    expect(told).toHaveLength(1);
    clock.advance(1);
    expect(told).toEqual([['web.example.com'], ['web.example.com']]);
  });

  it('says once that the engine is lost, and lets no grace end meanwhile', () => {
    const { clock, told, send, log } = setup();
    send({ kind: 'running', containers: [web] });
    send({ kind: 'stopped', id: 'w1' });
    send({ kind: 'lost', reason: 'connection refused' });
    send({ kind: 'lost', reason: 'connection refused' });
    clock.advance(GRACE * 2);
    expect(told).toEqual([['web.example.com']]);
    expect(log.join('').match(/not reachable/g)).toHaveLength(1);
    send({ kind: 'running', containers: [] });
    expect(told).toEqual([['web.example.com'], ['web.example.com']]);
    expect(log.join('')).toMatch(/reachable again/);
  });

  it('stops its timer and the engine watch', async () => {
    const { clock, told, send, watch, isStopped } = setup();
    send({ kind: 'running', containers: [web] });
    send({ kind: 'stopped', id: 'w1' });
    await watch.stop();
    expect(isStopped()).toBe(true);
    expect(clock.pending).toBe(0);
    send({ kind: 'started', container: web });
    expect(told).toEqual([['web.example.com']]);
  });
});
