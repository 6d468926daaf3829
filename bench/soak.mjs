// node bench/soak.mjs (after npm run build): long-running memory. A daemon keeping two hosts
// is driven through BENCH_SOAK_CYCLES cycles (3,000) by SIGUSR1, one after the other, each
// waited for ("SIGUSR1: cycle done"), and its RSS (VmRSS of /proc/<pid>/status) is read after
// the first cycle and every 500; once with the default sources' shape (two whoami DNS
// stand-ins agreeing, HTTPS echoes behind them) and once with two HTTPS echoes, the list
// before the DNS sources went first. Then the gateway's RSS in front of a 50,000-record zone
// (BENCH_SOAK_ZONE) once it answers. All on 127.0.0.1; RSS beside `node -e 0`'s peak.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDnsSandbox, ZONE, zoneRecords } from './dns-servers.mjs';
import { runOnce } from './measure.mjs';
import { agentEnv, makeTls, startEcho, startSandbox, startWhoamiDns } from './servers.mjs';

const CYCLES = Number(process.env.BENCH_SOAK_CYCLES ?? 3000);
const EVERY = Math.min(500, CYCLES);
const ZONE_RECORDS = Number(process.env.BENCH_SOAK_ZONE ?? 50_000);
const ddedge = join(import.meta.dirname, '..', 'dist', 'ddedge.mjs');
const work = mkdtempSync(join(tmpdir(), 'ddedge-bench-soak-'));
// BENCH_SOAK_SMAPS: where the RSS is, by kind of mapping (brk heap, anonymous, files), in MiB.
const smaps = (pid) => {
  const kinds = {};
  let kind = '';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) kind = head[1].startsWith('/') ? 'file' : head[1] || 'anon';
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) kinds[kind] = (kinds[kind] ?? 0) + Number(rss[1]) / 1024;
  }
  return JSON.stringify(Object.fromEntries(Object.entries(kinds).map(([k, v]) => [k, Number(v.toFixed(1))])));
};
const rssMb = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

const tls = makeTls(work);
const echoA = await startEcho(tls, '81.0.2.15\n');
const echoB = await startEcho(tls, '81.0.2.15');
const opendns = await startWhoamiDns('81.0.2.15');
const googleDns = await startWhoamiDns('81.0.2.15');
const sandbox = await startSandbox(ddedge, tls);
// Whatever ends this bench (a stalled daemon too) ends the servers it started.
const children = [sandbox.child];
process.on('exit', () =>
  children.forEach((child) => {
    child.kill('SIGTERM');
  }),
);
const nodeRss = (await runOnce({ name: 'node -e 0', args: ['-e', '0'] }, process.env, true)).rssKb / 1024;

/** One daemon through CYCLES cycles; returns [cycle, RSS MiB] pairs. */
async function soak(sources) {
  const stateDir = join(work, `state-${sources.length}`);
  const env = {
    ...agentEnv({ work, tls, info: sandbox.info, stateDir, sources: [] }),
    DDEDGE_HOSTS: 'home.example.com,example.com',
    DDEDGE_IP_SOURCES: sources.join(','),
    DDEDGE_INTERVAL: '1d',
    ...(process.env.MALLOC_ARENA_MAX ? { MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX } : {}),
  };
  execFileSync(process.execPath, [ddedge, 'update', '--ip', '81.0.2.15'], { env, stdio: 'ignore' });
  // BENCH_SOAK_NODE_FLAGS: Node flags to try (e.g. a heap setting), before the program.
  const flags = (process.env.BENCH_SOAK_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  // BENCH_SOAK_STDOUT: a file for the daemon's stdout (what --trace-gc prints, say).
  const stdout = process.env.BENCH_SOAK_STDOUT ? openSync(process.env.BENCH_SOAK_STDOUT, 'w') : 'ignore';
  const daemon = spawn(process.execPath, [...flags, ddedge, 'daemon'], { env, stdio: ['ignore', stdout, 'pipe'] });
  children.push(daemon);
  let done = 0;
  let waiting;
  let text = '';
  daemon.stderr.on('data', (d) => {
    text = (text + d).slice(-4096);
    const lines = String(d).split('\n');
    // The first cycle runs at start and logs nothing when unchanged: "daemon started" stands for it.
    done += lines.filter((l) => /SIGUSR1: cycle done|daemon started/.test(l)).length;
    if (waiting && done >= waiting.until) waiting.resolve();
  });
  const until = (n) =>
    new Promise((resolve, reject) => {
      if (done >= n) return resolve();
      const timer = setTimeout(() => reject(new Error(`the daemon stalled at cycle ${done}: ${text}`)), 60_000);
      waiting = {
        until: n,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
    });
  await until(1);
  // The start cycle's own timer: wait until the daemon sleeps.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const points = [[0, rssMb(daemon.pid)]];
  const startMaps = process.env.BENCH_SOAK_SMAPS ? smaps(daemon.pid) : '';
  const started = Date.now();
  for (let cycle = 1; cycle <= CYCLES; cycle++) {
    daemon.kill('SIGUSR1');
    await until(cycle + 1);
    if (cycle % EVERY === 0) points.push([cycle, rssMb(daemon.pid)]);
  }
  const seconds = (Date.now() - started) / 1000;
  if (process.env.BENCH_SOAK_SMAPS) console.log(smaps(daemon.pid), '\n', startMaps);
  daemon.kill('SIGTERM');
  await new Promise((resolve) => daemon.on('exit', resolve));
  return { points, seconds, echo: echoA.requests + echoB.requests, dns: opendns.queries + googleDns.queries };
}

const shapes = [
  [
    "default sources' shape (2 DNS, then 2 HTTPS)",
    [
      `dns:myip.opendns.com@${opendns.server}`,
      `dns-txt:o-o.myaddr.l.google.com@${googleDns.server}`,
      `url:${echoA.url}`,
      `url:${echoB.url}`,
    ],
  ],
  ['2 HTTPS sources', [`url:${echoA.url}`, `url:${echoB.url}`]],
];
console.log(
  `daemon soak: 2 hosts, ${CYCLES} cycles by SIGUSR1, node ${process.version}, ${new Date().toISOString()}, load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}; node -e 0 peak RSS ${nodeRss.toFixed(1)} MiB\n`,
);
console.log(
  `| sources | ${Array.from({ length: CYCLES / EVERY + 1 }, (_, i) => (i ? `after ${i * EVERY}` : 'start')).join(' | ')} | steady / start | cycles/s |`,
);
console.log(`|---|${'---:|'.repeat(CYCLES / EVERY + 3)}`);
for (const [title, sources] of shapes.filter(
  ([title]) => !process.env.BENCH_SOAK_SHAPES || title.includes(process.env.BENCH_SOAK_SHAPES),
)) {
  const before = { echo: echoA.requests + echoB.requests, dns: opendns.queries + googleDns.queries };
  const { points, seconds, echo, dns } = await soak(sources);
  const start = points[0][1];
  const steady = Math.max(...points.slice(1).map(([, rss]) => rss));
  console.log(
    `| ${title} (${dns - before.dns} dns, ${echo - before.echo} echo requests) | ${points.map(([, rss]) => rss.toFixed(1)).join(' | ')} | ${(steady / start).toFixed(2)} | ${(CYCLES / seconds).toFixed(0)} |`,
  );
}

sandbox.child.kill('SIGTERM');
if (process.env.BENCH_SOAK_ZONE === '0') {
  rmSync(work, { recursive: true, force: true });
  process.exit(0);
}
// The gateway in front of a large zone: its RSS once it answers DNS.
const records = zoneRecords(ZONE_RECORDS);
const zoneSandbox = await startDnsSandbox(ddedge, records);
children.push(zoneSandbox.child);
const keyText = execFileSync(process.execPath, [ddedge, 'gateway', 'keygen', 'soak'], { encoding: 'utf8' });
writeFileSync(join(work, 'gateway.keys'), `${keyText}transfer "soak";\n`, { mode: 0o600 });
const gateway = spawn(
  process.execPath,
  [
    ddedge,
    'gateway',
    '--zone',
    ZONE,
    '--keys',
    join(work, 'gateway.keys'),
    '--dns-listen',
    '127.0.0.1:0',
    '--primary-name',
    `ns1.${ZONE}`,
    '--state-dir',
    join(work, 'gateway-state'),
  ],
  {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      DDEDGE_API_URL: zoneSandbox.info.apiUrl,
      DDEDGE_API_USER: zoneSandbox.info.apiUser,
      DDEDGE_API_PASSWORD: zoneSandbox.info.apiPassword,
      DDEDGE_MAX_CALLS_PER_HOUR: '3600',
    },
  },
);
children.push(gateway);
await new Promise((resolve, reject) => {
  let text = '';
  const timer = setTimeout(() => reject(new Error(`the gateway did not start: ${text}`)), 300_000);
  gateway.stderr.on('data', (d) => {
    text += String(d);
    if (/answering DNS .* on 127\.0\.0\.1:(\d+)/.test(text)) {
      clearTimeout(timer);
      resolve();
    }
  });
});
await new Promise((resolve) => setTimeout(resolve, 2000));
console.log(
  `\ngateway in front of a ${ZONE_RECORDS}-record zone, answering: RSS ${rssMb(gateway.pid).toFixed(1)} MiB (${(rssMb(gateway.pid) / nodeRss).toFixed(2)} x node -e 0)`,
);
gateway.kill('SIGTERM');
zoneSandbox.stop();
rmSync(work, { recursive: true, force: true });
process.exit(0);
