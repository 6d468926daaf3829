// What an engine (or whatever answers in its place) cannot make the watch do: crash, hold
// without bound, or lose the events after a bad one. Each bad piece is a warning and is skipped.
import { describe, expect, it } from 'vitest';
import { listRunningContainers } from '../../../../src/containers/engine/listing.js';
import { TransportError } from '../../../../src/http/errors.js';
import { containerId } from '../../../helpers/fake-docker-engine.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { startRawServer } from '../../../helpers/raw-server.js';
import { capturingLogger, fakeEngine, kinds, stateOf, watchOn } from './watch-helpers.js';

const warnings = (lines: string[]) => lines.filter((l) => l.startsWith('warn: '));

describe('a hostile engine', () => {
  it('skips lines that are not JSON, not an event, or not well-formed, with a warning each, and goes on', async () => {
    const engine = await fakeEngine();
    const w = watchOn(engine.url);
    await w.until(() => engine.subscribers === 1 && w.news.length === 1, 'connected');
    engine.sendRaw('not json\n');
    engine.sendRaw('{"Type":"container","Action":"start","Actor":{"ID":"../../x"}}\n');
    engine.sendRaw(`{"Type":"container","Action":"start","Action":"stop","Actor":{"ID":"${containerId()}"}}\n`);
    engine.sendRaw('[1,2]\n\n   \n');
    engine.sendRaw(`{"Type":"image","Action":"delete","Actor":{"ID":"${containerId()}"}}\n`);
    engine.sendRaw(`${'['.repeat(5000)}${']'.repeat(5000)}\n`);
    const one = { id: containerId(), name: 'one', labels: { 'ddedge.hosts': 'one.example.com' } };
    engine.start(one);
    await w.until((n) => stateOf(n).has(one.id), 'the good start');
    expect(kinds(w.news)).toEqual(['running', 'started']);
    expect(warnings(w.lines)).toEqual([
      'warn: containers: an event that is not JSON was skipped: not json',
      'warn: containers: a start event has no valid container id',
      expect.stringMatching(/^warn: containers: an event that is not JSON was skipped: \{"Type"/),
      'warn: containers: an event is not an object',
      expect.stringMatching(/^warn: containers: an event that is not JSON was skipped: \[\[\[/),
    ]);
  });

  it('skips a line over the bound without holding it, and reads the next one', async () => {
    const engine = await fakeEngine();
    const w = watchOn(engine.url, { maxLineBytes: 1024 });
    await w.until(() => engine.subscribers === 1 && w.news.length === 1, 'connected');
    const huge = `{"Type":"container","Action":"start","x":"${'a'.repeat(3_000_000)}"}`;
    engine.sendRaw(huge.slice(0, -2));
    engine.sendRaw('"}\n');
    const one = { id: containerId(), name: 'one', labels: {} };
    engine.start(one);
    await w.until((n) => stateOf(n).has(one.id), 'the next start');
    expect(warnings(w.lines)).toEqual([
      `warn: containers: an event of ${huge.length} bytes, over the 1024-byte limit, was skipped`,
    ]);
  });

  it('logs the first problems of a connection and the rest at debug', async () => {
    const engine = await fakeEngine();
    const w = watchOn(engine.url, { maxWarnings: 3 });
    await w.until(() => engine.subscribers === 1 && w.news.length === 1, 'connected');
    engine.sendRaw('x\n'.repeat(50));
    await w.until(() => w.lines.filter((l) => l.startsWith('debug: ')).length === 47, 'all read');
    expect(warnings(w.lines)).toHaveLength(4);
    expect(warnings(w.lines)[3]).toMatch(/further problems with the engine are logged at debug/);
  });

  it('reads at most the bounded number of containers and labels, naming what it left out', async () => {
    const engine = await fakeEngine();
    for (const name of ['a', 'b', 'c']) {
      const id = containerId();
      engine.running.set(id, { id, name, labels: { one: '1', two: '2', three: '3', big: 'x'.repeat(100) } });
    }
    const w = watchOn(engine.url, { maxContainers: 2, maxLabels: 2, maxLabelChars: 50 });
    await w.until((n) => n.length === 1, 'the listing');
    const running = w.news[0]!.kind === 'running' ? w.news[0]!.containers : [];
    expect(running.map((c) => [c.name, c.labels])).toEqual([
      ['a', { one: '1', two: '2' }],
      ['b', { one: '1', two: '2' }],
    ]);
    expect(warnings(w.lines)).toEqual([
      'warn: containers: the engine lists 3 running containers; only the first 2 are read',
      'warn: containers: 2 label(s) of the container a were left out (not text, longer than 50 characters, or past 2 labels)',
      'warn: containers: 2 label(s) of the container b were left out (not text, longer than 50 characters, or past 2 labels)',
    ]);
  });

  it.each([
    [{ maxQueued: 3 }, 'more than 3 engine events (or 4194304 characters of them) are waiting'],
    [{ maxQueuedChars: 1000 }, 'more than 10000 engine events (or 1000 characters of them) are waiting'],
  ])(
    'reconnects, listing again, when more events wait than the bound (%o) while the listing is held',
    async (bound, reason) => {
      const engine = await fakeEngine();
      const release = engine.holdListings();
      const w = watchOn(engine.url, bound);
      await w.until(() => engine.subscribers === 1 && engine.requests.length === 3, 'listing in flight');
      for (let i = 0; i < 5; i++) engine.start({ id: containerId(), name: `c${i}`, labels: {} });
      await w.until((n) => n.length === 1, 'lost');
      expect(w.news[0]).toEqual({ kind: 'lost', reason });
      release();
      engine.forgetEvents();
      await w.clock.advanceAsync(1000);
      await w.until((n) => n.length === 2, 'listed again');
      expect(w.news[1]!.kind === 'running' && w.news[1]!.containers.length).toBe(5);
    },
  );

  it('says what answers in place of an engine: no Api-Version, a proxy refusing /events', async () => {
    const impostor = await startRawServer(() => 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nOK');
    try {
      const w = watchOn(impostor.url.replace(/\/$/, ''));
      await w.until((n) => n.length === 1, 'lost');
      expect(w.news[0]).toEqual({
        kind: 'lost',
        reason: expect.stringMatching(/answered \/_ping without an Api-Version header: is it a Docker Engine API\?$/),
      });
    } finally {
      await impostor.close();
    }
    const proxy = await startRawServer((head) =>
      head.startsWith('GET /_ping')
        ? 'HTTP/1.1 200 OK\r\napi-version: 1.43\r\ncontent-length: 2\r\n\r\nOK'
        : 'HTTP/1.1 403 Forbidden\r\ncontent-length: 25\r\n\r\n{"message":"forbidden\\n"}',
    );
    try {
      const w = watchOn(proxy.url.replace(/\/$/, ''));
      await w.until((n) => n.length === 1, 'lost');
      expect(w.news[0]).toEqual({
        kind: 'lost',
        reason: expect.stringMatching(/answered HTTP 403 to GET \/events: forbidden\\n \(a socket proxy refusing/),
      });
    } finally {
      await proxy.close();
    }
  });

  it.each([
    ['xx', /the container listing from http:.* is not JSON: the answer is not JSON$/],
    ['{"Id":"x"}', /the container listing from http:.* is not a JSON array$/],
  ])('says lost, not running, for a listing that is not a list of containers (%s)', async (listing, reason) => {
    const engine = await startRawServer((head) => {
      const body = head.startsWith('GET /containers/json') ? listing : head.startsWith('GET /_ping') ? 'OK' : '';
      return `HTTP/1.1 200 OK\r\napi-version: 1.43\r\ncontent-length: ${body.length}\r\n\r\n${body}`;
    });
    try {
      const w = watchOn(engine.url.replace(/\/$/, ''));
      await w.until((n) => n.length === 1, 'lost');
      expect(w.news[0]).toEqual({ kind: 'lost', reason: expect.stringMatching(reason) });
    } finally {
      await engine.close();
    }
  });

  it('keeps going when the consumer throws, logging it', async () => {
    const engine = await fakeEngine();
    const lines: string[] = [];
    const { watchContainers } = await import('../../../../src/containers/engine/watch.js');
    const seen: string[] = [];
    const watch = watchContainers({ url: engine.url, clock: new FakeClock(), logger: capturingLogger(lines) }, (n) => {
      seen.push(n.kind);
      if (n.kind === 'running') throw new Error('consumer broke');
    });
    try {
      const { waitUntil } = await import('../../../helpers/wait.js');
      await waitUntil(() => engine.subscribers === 1 && seen.length === 1, 'connected');
      engine.start({ id: containerId(), name: 'a', labels: {} });
      await waitUntil(() => seen.length === 2, 'the start');
      expect(lines).toContain("error: containers: handling the engine's news failed: consumer broke");
    } finally {
      await watch.stop();
    }
  });
});

describe('the one-shot listing', () => {
  it('lists the running containers', async () => {
    const engine = await fakeEngine();
    const one = { id: containerId(), name: 'one', labels: { 'ddedge.hosts': 'one.example.com' } };
    engine.running.set(one.id, one);
    const logger = capturingLogger([]);
    expect(await listRunningContainers({ url: engine.url, clock: new FakeClock(), logger })).toEqual([one]);
    expect(engine.requests).toEqual(['GET /containers/json']);
  });

  it('fails with a TransportError that says what a missing socket means', async () => {
    const engine = await fakeEngine();
    await engine.stopListening();
    const error = await listRunningContainers({ url: engine.url, clock: new FakeClock(), logger: capturingLogger([]) })
      .then(() => undefined)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toMatch(/\(GET \/containers\/json\): ENOENT \(no socket there/);
  });
});
