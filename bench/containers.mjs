// node bench/containers.mjs: what following a container engine costs the engine, counted (not
// timed): the requests the watch makes to a Docker Engine API (the tests' fake engine on a unix
// socket, src/ bundled here with esbuild) to connect, through a steady day of cycles (none), for a
// burst of 20 starts (none when the events carry the labels, one look-up each when they do not,
// as pre-1.22 Docker's), and to reconnect after the engine restarts. The time from the burst to
// the last `started` is shown beside, for scale.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

const CYCLE_MS = 5 * 60_000;
const DAY_CYCLES = (24 * 3600_000) / CYCLE_MS;
const BURST = 20;
const work = mkdtempSync(join(tmpdir(), 'ddedge-bench-containers-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

const bundle = join(work, 'watch.mjs');
await build({
  bundle: true,
  platform: 'node',
  format: 'esm',
  outfile: bundle,
  logLevel: 'error',
  stdin: {
    resolveDir: join(import.meta.dirname, '..'),
    contents: `
      export { watchContainers } from './src/containers/engine/watch.ts';
      export { FakeDockerEngine, containerId } from './test/helpers/fake-docker-engine.ts';
      export { FakeClock } from './test/helpers/fake-clock.ts';
    `,
  },
});
const { watchContainers, FakeDockerEngine, containerId, FakeClock } = await import(bundle);
const silent = { error() {}, warn() {}, info() {}, debug() {} };

/** Resolves once `condition` holds, looked at every few ms; a bench that waits a minute is broken. */
async function until(condition, what) {
  const deadline = Date.now() + 60_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

async function measure(eventShape) {
  const engine = await new FakeDockerEngine({ eventShape }).listen();
  for (let i = 0; i < 5; i++) {
    const id = containerId();
    engine.running.set(id, { id, name: `s${i}`, labels: { 'ddedge.hosts': `s${i}.example.com` } });
  }
  const clock = new FakeClock();
  const news = [];
  const watch = watchContainers({ url: engine.url, clock, logger: silent }, (n) => news.push(n));
  const row = {};
  try {
    await until(() => engine.subscribers === 1 && news.length === 1, 'connected');
    row.connect = engine.requests.length;
    let before = engine.requests.length;
    for (let i = 0; i < DAY_CYCLES; i++) await clock.advanceAsync(CYCLE_MS);
    row.steady = (engine.requests.length - before) / DAY_CYCLES;

    before = engine.requests.length;
    const started = performance.now();
    for (let i = 0; i < BURST; i++) {
      engine.start({ id: containerId(), name: `burst${i}`, labels: { 'ddedge.hosts': `b${i}.example.com` } });
    }
    await until(() => news.filter((n) => n.kind === 'started').length === BURST, 'the burst seen');
    row.burstMs = performance.now() - started;
    row.burst = engine.requests.length - before;

    before = engine.requests.length;
    await engine.stopListening();
    await until(() => news.some((n) => n.kind === 'lost'), 'lost');
    await engine.listen();
    // The first wait (the connection lasted): only that, so no request's deadline passes meanwhile.
    await clock.advanceAsync(1000);
    await until(() => news.filter((n) => n.kind === 'running').length === 2, 'listed again');
    row.reconnect = engine.requests.length - before;
  } finally {
    await watch.stop();
    await engine.close();
  }
  return row;
}

console.log(
  `| events | requests to connect | per steady ${CYCLE_MS / 60_000}-min cycle (${DAY_CYCLES} cycles) | ` +
    `for ${BURST} starts | ms to see them | to reconnect |\n|---|---|---|---|---|---|`,
);
for (const [title, shape] of [
  ['with the labels (Docker 1.22+, podman)', 'current'],
  ['without them (older Docker)', 'legacy'],
]) {
  const row = await measure(shape);
  console.log(
    `| ${title} | ${row.connect} | ${row.steady} | ${row.burst} | ${row.burstMs.toFixed(1)} | ${row.reconnect} |`,
  );
}
