// node bench/containers.mjs: what following a container engine costs the engine, counted (not
// timed): the requests the watch makes to a Docker Engine API (the tests' fake engine on a unix
// socket, src/ bundled here with esbuild) to connect, through a steady day of cycles (none), for a
// burst of 20 starts (none when the events carry the labels, one look-up each when they do not,
// as pre-1.22 Docker's), and to reconnect after the engine restarts. The time from the burst to
// the last `started` is shown beside, for scale. Then what the containers' names cost the
// provider: the registrar API calls (the sandbox's count) of the agent's cycles for a container's
// start, a steady day, a burst of 20 starts, flapping within the grace, a stop and the removal.
// Last, timed for scale: the engine's news taken with 1,000 running containers of 20 names each.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleSource } from './bundle-source.mjs';

const CYCLE_MS = 5 * 60_000;
const DAY_CYCLES = (24 * 3600_000) / CYCLE_MS;
const BURST = 20;
const work = mkdtempSync(join(tmpdir(), 'ddedge-bench-containers-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

const bundle = await bundleSource(
  join(work, 'watch.mjs'),
  `
    export { watchContainers } from './src/containers/engine/watch.ts';
    export { FakeDockerEngine, containerId } from './test/helpers/fake-docker-engine.ts';
    export { FakeClock } from './test/helpers/fake-clock.ts';
    export { DesiredNames } from './src/containers/desired-names.ts';
  `,
);
const { watchContainers, FakeDockerEngine, containerId, FakeClock, DesiredNames } = await import(bundle);
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
// undici requires Node's modules: the bundle gets a require of its own.
const namesBundle = await bundleSource(
  join(work, 'names.mjs'),
  `
    export { runCycle } from './src/agent/cycle.ts';
    export { listedContainerNames } from './src/agent/container-source.ts';
    export { loadConfig } from './src/config/load.ts';
    export { startSandbox } from './src/sandbox/server.ts';
  `,
  { withRequire: true },
);
const names = await import(namesBundle);

/** Provider calls (the sandbox's count) of each step of a container's life, the agent's cycles run in this process. */
async function providerCallsOfNames() {
  const sandbox = await names.startSandbox();
  const { apiUser, apiPassword } = sandbox.model.account;
  const config = names.loadConfig({
    flags: {
      ip: '81.0.2.15',
      service: 'example.com',
      containers: 'unix:///run/bench.sock',
      'state-dir': mkdtempSync(join(work, 'state-')),
      'max-calls-per-hour': '3600',
    },
    env: { DDEDGE_API_URL: sandbox.url, DDEDGE_API_USER: apiUser, DDEDGE_API_PASSWORD: apiPassword },
    purpose: 'cycle',
  });
  const clock = new FakeClock(Date.now());
  const cycle = (running) =>
    names.runCycle({
      config,
      logger: silent,
      now: () => new Date(clock.now()),
      containers: { ...names.listedContainerNames(config, silent, clock, running), only: true },
    });
  const calls = () => [...sandbox.calls.values()].reduce((a, b) => a + b, 0);
  const seen = (i) => ({ id: `c${i}`, name: `s${i}`, labels: { 'ddedge.hosts': `s${i}.example.com` } });
  const step = async (running) => {
    const before = calls();
    await cycle(running);
    return calls() - before;
  };
  const row = {};
  try {
    row.start = await step([seen(0)]);
    let steady = 0;
    for (let i = 0; i < DAY_CYCLES; i++) {
      clock.advance(CYCLE_MS);
      steady += await step([seen(0)]);
    }
    row.steady = steady / DAY_CYCLES;
    const burst = Array.from({ length: BURST }, (_, i) => seen(i + 1));
    row.burst = await step([seen(0), ...burst]);
    let flaps = 0;
    for (let i = 0; i < 10; i++) {
      clock.advance(10_000);
      flaps += await step(i % 2 ? [seen(0), ...burst] : burst);
    }
    row.flap = flaps;
    row.stop = await step(burst);
    clock.advance(11 * 60_000);
    row.removal = await step(burst);
  } finally {
    await sandbox.close();
  }
  return row;
}

const named = await providerCallsOfNames();
console.log(
  `\n| provider calls of the containers' names | a container's start | per steady ${CYCLE_MS / 60_000}-min cycle ` +
    `| a burst of ${BURST} starts | 10 stops and starts within the grace | a stop | its removal after the grace |\n` +
    `|---|---|---|---|---|---|---|\n| registrar API calls | ${named.start} | ${named.steady} | ${named.burst} | ` +
    `${named.flap} | ${named.stop} | ${named.removal} |`,
);

/** Time to take the listing of 1,000 containers of 20 names each, then each of 200 stops and starts among them. */
function newsWithManyContainers() {
  const kept = new DesiredNames(
    { zones: ['example.com'], keptHosts: [], traefik: false },
    600_000,
    new FakeClock(),
    () => {},
  );
  const hosts = (i) => Array.from({ length: 20 }, (_, j) => `n${i}x${j}.example.com`).join(',');
  const all = Array.from({ length: 1000 }, (_, i) => ({
    id: containerId(100_000 + i),
    name: `big${i}`,
    labels: { 'ddedge.hosts': hosts(i) },
  }));
  let began = performance.now();
  kept.take({ kind: 'running', containers: all });
  const listing = performance.now() - began;
  began = performance.now();
  for (let i = 0; i < 100; i++) {
    kept.take({ kind: 'stopped', id: all[i].id });
    kept.take({ kind: 'started', container: all[i] });
  }
  return { listing, perEvent: (performance.now() - began) / 200 };
}

const many = newsWithManyContainers();
console.log(
  `\n| 1,000 running containers, 20 names each | taking the listing | one start or stop |\n|---|---|---|\n` +
    `| milliseconds | ${many.listing.toFixed(0)} | ${many.perEvent.toFixed(2)} |`,
);
