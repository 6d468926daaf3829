// Following an engine (src/containers/engine/watch.ts) against a fake Docker Engine API on a
// unix socket: the running containers, then starts and stops in the engine's order, with the
// labels; and no request to the engine while nothing happens.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { containerId } from '../../../helpers/fake-docker-engine.js';
import { fakeEngine, kinds, since, stateOf, watchOn } from './watch-helpers.js';

const web = () => ({ id: containerId(), name: 'web', labels: { 'ddedge.hosts': 'web.example.com', other: 'x' } });

describe('watching a container engine', () => {
  it('says the running containers (names without the slash, with their labels), then starts and stops', async () => {
    const engine = await fakeEngine();
    const first = web();
    engine.start(first);
    const w = watchOn(engine.url);
    await w.until((n) => n.some((x) => x.kind === 'running'), 'the listing');
    expect(w.news[0]).toEqual({ kind: 'running', containers: [{ id: first.id, name: 'web', labels: first.labels }] });
    await w.until(() => engine.subscribers === 1, 'the events stream open');

    const second = { id: containerId(), name: 'git', labels: { 'ddedge.hosts': 'git.example.com' } };
    engine.start(second);
    await w.until((n) => stateOf(n).has(second.id), 'the start');
    expect(stateOf(w.news).get(second.id)).toEqual({ id: second.id, name: 'git', labels: second.labels });

    engine.stop(first.id);
    await w.until((n) => !stateOf(n).has(first.id), 'the stop');
    engine.destroy(first);
    await w.until((n) => n.filter((x) => x.kind === 'stopped').length === 3, 'die, stop, destroy');
    expect(since(w.news).slice(-3)).toEqual([
      `stopped ${first.id.slice(-4)}`,
      `stopped ${first.id.slice(-4)}`,
      `stopped ${first.id.slice(-4)}`,
    ]);
    expect(kinds(w.news)).not.toContain('lost');
  });

  it('keeps the labels the engine mixes into an event apart from its own attributes (name, image, exitCode)', async () => {
    const engine = await fakeEngine();
    const w = watchOn(engine.url);
    await w.until(() => engine.subscribers === 1, 'the events stream open');
    const one = { id: containerId(), name: 'one', labels: { 'traefik.http.routers.a.rule': 'Host(`a.example.com`)' } };
    engine.start(one);
    await w.until((n) => stateOf(n).has(one.id), 'the start');
    expect(stateOf(w.news).get(one.id)?.labels).toEqual(one.labels);
  });

  it('asks the engine nothing while nothing happens: one ping, one stream, one listing', async () => {
    const engine = await fakeEngine();
    engine.start(web());
    const w = watchOn(engine.url);
    await w.until(() => engine.subscribers === 1 && w.news.length > 0, 'connected');
    await w.clock.advanceAsync(24 * 3600_000);
    expect(engine.requests.map((r) => r.split('?')[0])).toEqual(['GET /_ping', 'GET /events', 'GET /containers/json']);
    expect(w.clock.pending).toBe(0);
  });

  it.each(['legacy', 'no-attributes'] as const)(
    'looks a started container up when its event (%s) does not carry its name and labels',
    async (eventShape) => {
      const engine = await fakeEngine({ eventShape });
      const w = watchOn(engine.url);
      await w.until(() => engine.subscribers === 1 && w.news.length > 0, 'connected');
      const one = web();
      engine.start(one);
      await w.until((n) => stateOf(n).has(one.id), 'the start');
      expect(stateOf(w.news).get(one.id)).toEqual({ id: one.id, name: 'web', labels: one.labels });
      expect(engine.requests.at(-1)).toBe(
        `GET /containers/json?filters=${encodeURIComponent(JSON.stringify({ id: [one.id] }))}`,
      );
      engine.stop(one.id);
      await w.until((n) => !stateOf(n).has(one.id), 'the stop');
    },
  );

  it('says nothing after stop() and leaves no timer or connection behind', async () => {
    const engine = await fakeEngine();
    const w = watchOn(engine.url);
    await w.until(() => engine.subscribers === 1 && w.news.length > 0, 'connected');
    await w.watch.stop();
    const count = w.news.length;
    engine.start(web());
    await w.until(() => engine.subscribers === 0, 'the stream closed by the watch');
    expect(w.news.length).toBe(count);
    expect(w.clock.pending).toBe(0);
  });

  it('follows an engine over http:// on loopback as over its socket, its quiet stream probed by keepalives', async () => {
    const engine = await fakeEngine({ tcp: true });
    expect(engine.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const w = watchOn(engine.url);
    await w.until(() => engine.subscribers === 1 && w.news.length > 0, 'connected');
    if (process.platform === 'linux') {
      // /proc/net/tcp: the 6th field's first part is the connection's timer, 02 the keepalive one.
      const port = `:${engine.streamPorts[0]!.toString(16).toUpperCase().padStart(4, '0')}`;
      const ours = readFileSync('/proc/net/tcp', 'utf8')
        .split('\n')
        .map((line) => line.trim().split(/\s+/))
        .find((fields) => fields[1]?.endsWith(port));
      expect(ours?.[5]?.split(':')[0]).toBe('02');
    }
    const one = web();
    engine.start(one);
    await w.until((n) => stateOf(n).has(one.id), 'the start');
  });
});
