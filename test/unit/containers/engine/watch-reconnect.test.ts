// An engine that goes away and comes back (src/containers/engine/watch.ts): `lost` once, waits
// that grow while it stays away (on the watch's clock, bounded), `running` again on return, the
// first wait again after a connection that lasted; and no event lost between the stream's
// opening and the listing, even when the engine subscribes late (Docker flushes the answer's
// head before it subscribes).
import { describe, expect, it } from 'vitest';
import { containerId } from '../../../helpers/fake-docker-engine.js';
import { waitUntil } from '../../../helpers/wait.js';
import { fakeEngine, kinds, since, stateOf, watchOn, type Watched } from './watch-helpers.js';

const retries = (w: Watched) => w.lines.filter((l) => l.includes('connecting again in'));
/** Waits for the watch's next wait and returns how long it is, in ms. */
async function nextWait(w: Watched, count: number): Promise<number> {
  await waitUntil(() => retries(w).length >= count, `retry ${count}`);
  return Number(/connecting again in ([\d.]+) s/.exec(retries(w)[count - 1]!)![1]) * 1000;
}

describe('an engine that goes away', () => {
  it('says lost once, waits 1, 2, 4, 4 s (bounded) while away, then lists again; the first wait again after a lasting connection', async () => {
    const engine = await fakeEngine();
    const a = { id: containerId(), name: 'a', labels: { 'ddedge.hosts': 'a.example.com' } };
    engine.running.set(a.id, a);
    const w = watchOn(engine.url, { firstRetryMs: 1000, maxRetryMs: 4000, stableMs: 30_000 });
    await w.until(() => engine.subscribers === 1 && w.news.length === 1, 'connected');

    await engine.stopListening();
    expect(await nextWait(w, 1)).toBe(1000);
    expect(kinds(w.news)).toEqual(['running', 'lost']);
    // The engine ends the stream and drops the connection at once: either may be read first.
    expect(w.news[1]).toEqual({
      kind: 'lost',
      reason: expect.stringMatching(/ended its events stream|closed before the whole answer arrived/),
    });
    await w.clock.advanceAsync(1000);
    expect(await nextWait(w, 2)).toBe(2000);
    expect(retries(w)[1]).toMatch(
      /^warn: containers: cannot reach unix:\/\/.*docker\.sock \(GET \/_ping\): ENOENT \(no socket there/,
    );
    await w.clock.advanceAsync(2000);
    expect(await nextWait(w, 3)).toBe(4000);
    expect(retries(w)[2]).toMatch(/^debug: /);
    await w.clock.advanceAsync(4000);
    expect(await nextWait(w, 4)).toBe(4000);
    expect(kinds(w.news)).toEqual(['running', 'lost']);

    // Back, with a container started and one stopped while the watch was away.
    engine.running.delete(a.id);
    const b = { id: containerId(), name: 'b', labels: {} };
    engine.running.set(b.id, b);
    await engine.listen();
    await w.clock.advanceAsync(4000);
    await w.until((n) => n.length === 3, 'listed again');
    expect(kinds(w.news)).toEqual(['running', 'lost', 'running']);
    expect([...stateOf(w.news).keys()]).toEqual([b.id]);

    await w.until(() => engine.subscribers === 1, 'following again');
    await w.clock.advanceAsync(30_000);
    engine.endStreams();
    expect(await nextWait(w, 5)).toBe(1000);
    expect(kinds(w.news)).toEqual(['running', 'lost', 'running', 'lost']);
  });

  it('says lost once when the engine cannot be reached from the start, with what the error most often means', async () => {
    const engine = await fakeEngine();
    await engine.stopListening();
    const w = watchOn(engine.url);
    expect(await nextWait(w, 1)).toBe(1000);
    expect(w.news).toEqual([
      { kind: 'lost', reason: expect.stringMatching(/ENOENT \(no socket there: is the engine running/) },
    ]);
  });

  it('times a hanging engine out on the watch clock, and says lost', async () => {
    const engine = await fakeEngine({ hang: true });
    const w = watchOn(engine.url, { requestTimeoutMs: 10_000 });
    await waitUntil(() => engine.requests.length === 1, 'the ping asked');
    await w.clock.advanceAsync(9_999);
    expect(w.news).toEqual([]);
    await w.clock.advanceAsync(1);
    await w.until((n) => n.length === 1, 'lost');
    expect(w.news[0]).toEqual({
      kind: 'lost',
      reason: expect.stringMatching(/no complete answer from unix:.* \(GET \/_ping\) within 10000 ms$/),
    });
  });

  it.each([
    ['/events', 2, /no answer from unix:.* \(GET \/events\) within 10000 ms$/],
    ['/containers/json', 3, /no complete answer from unix:.* \(GET \/containers\/json\) within 10000 ms$/],
  ])('times out an engine that never answers %s, and says lost', async (path, asked, reason) => {
    const engine = await fakeEngine({ hang: path });
    const w = watchOn(engine.url, { requestTimeoutMs: 10_000 });
    await waitUntil(() => engine.requests.length === asked, `${path} asked`);
    await w.clock.advanceAsync(10_000);
    await w.until((n) => n.length === 1, 'lost');
    expect(w.news[0]).toEqual({ kind: 'lost', reason: expect.stringMatching(reason) });
  });
});

describe('events while the listing is in flight', () => {
  it('are said after the listing, in the order the engine reported them', async () => {
    const engine = await fakeEngine();
    const x = { id: containerId(), name: 'x', labels: {} };
    engine.start(x);
    const release = engine.holdListings();
    const w = watchOn(engine.url);
    await waitUntil(() => engine.requests.some((r) => r.startsWith('GET /containers/json')), 'the listing asked');
    await waitUntil(() => engine.subscribers === 1, 'the stream open');
    const y = { id: containerId(), name: 'y', labels: {} };
    engine.stop(x.id);
    engine.start(y);
    await new Promise((resolve) => setImmediate(resolve));
    expect(w.news).toEqual([]);
    release();
    await w.until((n) => stateOf(n).has(y.id), 'y started');
    expect(w.news[0]).toEqual({ kind: 'running', containers: [x] });
    expect(since(w.news, 0).slice(-3)).toEqual([`stopped ${x.id.slice(-4)}`, `stopped ${x.id.slice(-4)}`, 'started y']);
    expect([...stateOf(w.news).keys()]).toEqual([y.id]);
  });

  it('are not lost when the engine subscribes the stream only after the listing (since covers the gap)', async () => {
    const engine = await fakeEngine({ lateSubscribe: true });
    const x = { id: containerId(), name: 'x', labels: {} };
    engine.running.set(x.id, x);
    const release = engine.holdListings();
    const w = watchOn(engine.url);
    await waitUntil(() => engine.requests.some((r) => r.startsWith('GET /containers/json')), 'the listing asked');
    engine.stop(x.id);
    expect(engine.subscribers).toBe(0);
    release();
    await w.until((n) => n.length >= 2, 'the stop');
    expect(w.news[0]).toEqual({ kind: 'running', containers: [x] });
    expect(stateOf(w.news).size).toBe(0);
  });
});
