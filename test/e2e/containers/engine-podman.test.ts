// The watch against a real engine: podman's Docker-compatible API on a socket of the test's own,
// with containers of a busybox image made here, run, stopped, restarted and removed while the
// watch follows; and the API service stopped and started again mid-stream.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRunningContainers } from '../../../src/containers/engine/listing.js';
import type { ContainerNews } from '../../../src/containers/engine/news.js';
import { watchContainers } from '../../../src/containers/engine/watch.js';
import { systemClock } from '../../../src/lib/clock.js';
import { podmanAvailable, startPodmanEngine, type PodmanEngine } from '../../helpers/podman-engine.js';
import { waitUntil } from '../../helpers/wait.js';
import { capturingLogger, stateOf } from '../../unit/containers/engine/watch-helpers.js';

describe.skipIf(!podmanAvailable())('following podman', () => {
  let engine: PodmanEngine;
  beforeAll(async () => {
    engine = await startPodmanEngine();
  }, 120_000);
  afterAll(async () => {
    await engine?.close();
  }, 120_000);

  it('lists the running containers with their labels, once', async () => {
    const id = await engine.run('listed', { 'ddedge.hosts': 'listed.example.com' });
    try {
      const settings = { url: engine.url, clock: systemClock, logger: capturingLogger([]) };
      expect(await listRunningContainers(settings)).toEqual([
        { id, name: 'listed', labels: { 'ddedge.hosts': 'listed.example.com' } },
      ]);
    } finally {
      await engine.remove('listed');
    }
  }, 120_000);

  it('sees running, started and stopped with the labels, and lost then running again across a service restart', async () => {
    const one = await engine.run('one', { 'ddedge.hosts': 'one.example.com' });
    const news: ContainerNews[] = [];
    const lines: string[] = [];
    const watch = watchContainers(
      { url: engine.url, clock: systemClock, logger: capturingLogger(lines), bounds: { firstRetryMs: 100 } },
      (n) => news.push(n),
    );
    const until = (condition: () => boolean, what: string) =>
      waitUntil(condition, `${what}; news: ${JSON.stringify(news.map((n) => n.kind))}; log: ${lines.join(' | ')}`);
    try {
      await until(() => news.some((n) => n.kind === 'running'), 'the listing');
      expect(news[0]).toEqual({
        kind: 'running',
        containers: [{ id: one, name: 'one', labels: { 'ddedge.hosts': 'one.example.com' } }],
      });

      const two = await engine.run('two', { 'ddedge.hosts': 'two.example.com', 'ddedge.target': 'edge.example.com' });
      await until(() => stateOf(news).has(two), 'two started');
      expect(stateOf(news).get(two)).toEqual({
        id: two,
        name: 'two',
        labels: { 'ddedge.hosts': 'two.example.com', 'ddedge.target': 'edge.example.com' },
      });
      await engine.stop('two');
      await until(() => !stateOf(news).has(two), 'two stopped');
      await engine.start('two');
      await until(() => stateOf(news).has(two), 'two started again');
      const before = news.length;
      await engine.restart('one');
      await until(
        () => news.slice(before).some((n) => n.kind === 'stopped' && n.id === one) && stateOf(news).has(one),
        'one stopped and started',
      );
      await engine.remove('two');
      await until(() => !stateOf(news).has(two), 'two removed');
      expect(news.some((n) => n.kind === 'lost')).toBe(false);

      await engine.stopService();
      await until(() => news.some((n) => n.kind === 'lost'), 'lost');
      const three = await engine.run('three', { 'ddedge.hosts': 'three.example.com' });
      await engine.stop('one');
      await engine.startService();
      await until(() => news.filter((n) => n.kind === 'running').length >= 2, 'listed again');
      expect(news.filter((n) => n.kind === 'lost')).toHaveLength(1);
      expect([...stateOf(news).keys()]).toEqual([three]);
      await engine.stop('three');
      await until(() => stateOf(news).size === 0, 'three stopped after the restart');
    } finally {
      await watch.stop();
    }
  }, 180_000);
});
