// node bench/status-page.mjs (after npm run build): what the status page and notifications cost.
// - The page at / of a daemon keeping 50 hosts with 1,000 history entries: its size, and the
//   time to its first byte (median and p95 of 200 sequential requests), beside /healthz.
// - The daemon's resident memory: without --listen and --notify, and with both after 400 page
//   requests.
// - `ddedge update` with nothing to do, with and without --notify: wall time as a ratio to
//   `node -e 0` measured in the same run, interleaved.
// Local only: the sandbox in its own process and a notification receiver on 127.0.0.1.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const HOSTS = 50;
const ENTRIES = 1000;
const ddedge = join(import.meta.dirname, '..', 'dist', 'ddedge.mjs');
const work = mkdtempSync(join(tmpdir(), 'ddedge-bench-page-'));
const sandbox = spawn(process.execPath, [ddedge, 'sandbox', '--port', '0', '--json'], {
  stdio: ['ignore', 'pipe', 'ignore'],
});
const info = await new Promise((resolve) => sandbox.stdout.once('data', (d) => resolve(JSON.parse(String(d)))));
const children = [sandbox];
process.on('exit', () =>
  children.forEach((c) => {
    c.kill('SIGTERM');
  }),
);
const receiver = http.createServer((req, res) => req.resume().on('end', () => res.end('ok')));
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const notifyUrl = `http://127.0.0.1:${receiver.address().port}/hook`;

const hosts = Array.from({ length: HOSTS }, (_, i) => `h${i}.example.com`);
/** A state directory as weeks of running leave it: every host current, 1,000 history entries. */
function seededStateDir(name) {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  const now = Date.now();
  const records = Object.fromEntries(
    hosts.map((host) => [
      `${host}/A`,
      { host, type: 'A', address: '81.0.2.15', sentAt: new Date(now - 60_000).toISOString(), via: 'dyndns' },
    ]),
  );
  writeFileSync(
    join(dir, 'state.json'),
    JSON.stringify({
      version: 1,
      records,
      lastSuccessAt: new Date(now - 60_000).toISOString(),
      lastCycleAt: new Date(now - 60_000).toISOString(),
      lastCycleExitCode: 0,
    }),
  );
  const entries = Array.from({ length: ENTRIES }, (_, i) => {
    const host = hosts[i % HOSTS];
    const at = new Date(now - (ENTRIES - i) * 3_600_000).toISOString();
    return i % 10 === 9
      ? {
          at,
          host,
          type: 'A',
          event: 'failed',
          reason: 'transient',
          message: 'no complete answer from https://dondns.example within 15000 ms',
          count: 3,
          lastAt: at,
        }
      : {
          at,
          host,
          type: 'A',
          event: 'changed',
          old: `81.0.${i % 250}.1`,
          new: i >= ENTRIES - HOSTS ? '81.0.2.15' : `81.0.${(i + 1) % 250}.1`,
          via: 'dyndns',
        };
  });
  writeFileSync(join(dir, 'history.json'), JSON.stringify({ version: 1, entries }));
  return dir;
}
const env = (name, extra = {}) => ({
  PATH: process.env.PATH,
  HOME: work,
  DDEDGE_STATE_DIR: seededStateDir(name),
  DDEDGE_DYNDNS_URL: info.dyndnsUrl,
  DDEDGE_DYNDNS_USER: info.dyndnsUser,
  DDEDGE_DYNDNS_KEY: info.dyndnsKey,
  DDEDGE_IP: '81.0.2.15',
  DDEDGE_HOSTS: hosts.join(','),
  DDEDGE_INTERVAL: '1h',
  ...extra,
});
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];

async function daemon(name, extraArgs, extraEnv = {}) {
  const child = spawn(process.execPath, [ddedge, 'daemon', ...extraArgs], {
    env: env(name, extraEnv),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let log = '';
  await new Promise((resolve) =>
    child.stderr.on('data', (d) => {
      log += d;
      if (/daemon started/.test(log)) setTimeout(resolve, 1500);
    }),
  );
  return {
    child,
    url: /at (http:\S+)\//.exec(log)?.[1],
    rss: () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) / 1024,
  };
}

const plain = await daemon('plain', []);
const served = await daemon('served', ['--listen', '127.0.0.1:0'], { DDEDGE_NOTIFY: notifyUrl });
const servedIdle = served.rss();
const size = Buffer.byteLength(await (await fetch(`${served.url}/`)).text());
/** Bytes on the wire for a browser that takes gzip. */
const transferred = await new Promise((resolve) =>
  http.get(`${served.url}/`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
    let n = 0;
    res.on('data', (d) => (n += d.length));
    res.on('end', () => resolve(n));
  }),
);
console.log(
  `| ${HOSTS} hosts, ${ENTRIES} history entries (200 sequential requests) | bytes | first byte, median ms | p95 ms |\n|---|---|---|---|`,
);
for (const path of ['/', '/?page=20', '/healthz']) {
  const xs = [];
  let bytes = 0;
  for (let i = 0; i < 200; i++) {
    const started = performance.now();
    const res = await fetch(`${served.url}${path}`);
    xs.push(performance.now() - started);
    bytes = Buffer.byteLength(await res.text());
  }
  console.log(`| ${path} | ${bytes} | ${median(xs).toFixed(2)} | ${p95(xs).toFixed(2)} |`);
}
console.log(
  `\nThe page: ${(size / 1024).toFixed(1)} KiB of HTML, ${(transferred / 1024).toFixed(1)} KiB on the wire with gzip.`,
);
console.log(
  `\n| daemon, ${HOSTS} hosts | RSS MiB |\n|---|---|\n| without --listen and --notify | ${plain.rss().toFixed(1)} |\n| with --listen and --notify, before any request | ${servedIdle.toFixed(1)} |\n| with --listen and --notify, after 600 requests | ${served.rss().toFixed(1)} |`,
);
for (const d of [plain, served]) d.child.kill('SIGTERM');

// The unchanged cycle: the same state each time (nothing sent, nothing to tell).
const cases = {
  'node -e 0': [['-e', '0'], {}],
  [`update, ${HOSTS} hosts, nothing to do`]: [[ddedge, 'update'], env('u1')],
  [`update, ${HOSTS} hosts, nothing to do, --notify set`]: [
    [ddedge, 'update'],
    env('u2', { DDEDGE_NOTIFY: notifyUrl }),
  ],
};
const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let i = 0; i < RUNS; i++) {
  for (const [name, [args, e]] of Object.entries(cases)) {
    const started = performance.now();
    const run = spawnSync(process.execPath, args, { env: e, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`${name}: exit ${run.status} ${run.stderr}`);
    times[name].push(performance.now() - started);
  }
}
const floor = median(times['node -e 0']);
console.log(`\n| run (${RUNS} interleaved) | median ms | ratio to node -e 0 |\n|---|---|---|`);
for (const [name, xs] of Object.entries(times))
  console.log(`| ${name} | ${median(xs).toFixed(1)} | ${(median(xs) / floor).toFixed(2)} × |`);
receiver.close();
sandbox.kill('SIGTERM');
rmSync(work, { recursive: true, force: true });
