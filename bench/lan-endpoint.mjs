// node bench/lan-endpoint.mjs (after npm run build): what hosts behind the router and the
// daemon's endpoint cost.
// - `ddedge update`, addresses given and unchanged (nothing sent), with 1 host and with the
//   router plus 8 hosts behind it (--ipv6, NAME=<identifier>): wall time as a ratio to
//   `node -e 0` measured in the same run, interleaved.
// - The daemon's endpoint (--listen): median and p95 latency of /healthz, /metrics, /status,
//   and the daemon's resident memory with and without --listen.
// Local only: the sandbox in its own process on 127.0.0.1.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const ddedge = join(import.meta.dirname, '..', 'dist', 'ddedge.mjs');
const work = mkdtempSync(join(tmpdir(), 'ddedge-bench-lan-'));
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
const env = (name, extra = {}) => ({
  PATH: process.env.PATH,
  HOME: work,
  DDEDGE_STATE_DIR: join(work, name),
  DDEDGE_DYNDNS_URL: info.dyndnsUrl,
  DDEDGE_DYNDNS_USER: info.dyndnsUser,
  DDEDGE_DYNDNS_KEY: info.dyndnsKey,
  DDEDGE_API_URL: info.apiUrl,
  DDEDGE_API_USER: info.apiUser,
  DDEDGE_API_PASSWORD: info.apiPassword,
  DDEDGE_IP: '81.0.2.15',
  ...extra,
});
const lanHosts = [
  'home.example.com',
  ...Array.from({ length: 8 }, (_, i) => `pc${i}.example.com=::${(i + 1).toString(16)}e2:3ff:fe4a:5b6c`),
].join(',');
const cases = {
  'node -e 0': [['-e', '0'], {}],
  'update, 1 host (A)': [[ddedge, 'update'], env('one', { DDEDGE_HOSTS: 'home.example.com' })],
  'update, router + 8 LAN hosts (A + AAAA)': [
    [ddedge, 'update'],
    env('lan', { DDEDGE_HOSTS: lanHosts, DDEDGE_IPV6: 'yes', DDEDGE_IP6: '2a00:1450:4003:12::1' }),
  ],
};
// First run of each sends the records; the measured runs find them unchanged.
for (const [name, [args, e]] of Object.entries(cases))
  if (name !== 'node -e 0') spawnSync(process.execPath, args, { env: e });
const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let i = 0; i < RUNS; i++) {
  for (const [name, [args, e]] of Object.entries(cases)) {
    const started = performance.now();
    const run = spawnSync(process.execPath, args, { env: e, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`${name}: exit ${run.status} ${run.stderr}`);
    times[name].push(performance.now() - started);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];
const floor = median(times['node -e 0']);
console.log(`| run (${RUNS} interleaved) | median ms | ratio to node -e 0 |\n|---|---|---|`);
for (const [name, xs] of Object.entries(times))
  console.log(`| ${name} | ${median(xs).toFixed(1)} | ${(median(xs) / floor).toFixed(2)} × |`);

async function daemon(name, extraArgs) {
  const child = spawn(process.execPath, [ddedge, 'daemon', ...extraArgs], {
    env: env(name, {
      DDEDGE_HOSTS: lanHosts,
      DDEDGE_IPV6: 'yes',
      DDEDGE_IP6: '2a00:1450:4003:12::1',
      DDEDGE_INTERVAL: '1h',
    }),
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
const plain = await daemon('d1', []);
const served = await daemon('d2', ['--listen', '127.0.0.1:0']);
console.log(`\n| endpoint path (200 sequential requests) | median ms | p95 ms |\n|---|---|---|`);
for (const path of ['/healthz', '/metrics', '/status']) {
  const xs = [];
  for (let i = 0; i < 200; i++) {
    const started = performance.now();
    await (await fetch(`${served.url}${path}`)).text();
    xs.push(performance.now() - started);
  }
  console.log(`| ${path} | ${median(xs).toFixed(2)} | ${p95(xs).toFixed(2)} |`);
}
console.log(
  `\n| daemon, router + 8 LAN hosts | RSS MiB |\n|---|---|\n| without --listen | ${plain.rss().toFixed(1)} |\n| with --listen, after 600 requests | ${served.rss().toFixed(1)} |`,
);
for (const d of [plain, served]) d.child.kill('SIGTERM');
sandbox.kill('SIGTERM');
rmSync(work, { recursive: true, force: true });
