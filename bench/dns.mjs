// node bench/dns.mjs (after npm run build): the sandbox's name server over local UDP.
// - queries per second answered by `ddedge sandbox --dns-port` (its own process, stderr read as
//   a terminal would), for a zone of 5 records and one of 50,000, beside a minimal Node UDP echo
//   server measured the same way in the same run (the aim: at least 0.5 x the echo server for
//   both zones); dnsperf is the load generator (a Node client where it is not installed);
// - the wall time of `ddedge ip` with a dns: source pointed at the sandbox, beside `node -e 0`.
// Medians of BENCH_RUNS rounds of BENCH_DNS_SECONDS each; the servers take turns, never overlap.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  dnsperf,
  dnsperfInBackground,
  has,
  nodeLoad,
  oneQuery,
  queryPacket,
  startDnsSandbox,
  startEchoServer,
  ZONE,
  zoneRecords,
} from './dns-servers.mjs';

const ROUNDS = Number(process.env.BENCH_RUNS ?? 5);
const SECONDS = Number(process.env.BENCH_DNS_SECONDS ?? 2);
const ddedge = join(import.meta.dirname, '..', 'dist', 'ddedge.mjs');
const work = mkdtempSync(join(tmpdir(), 'ddedge-bench-dns-'));
const useDnsperf = has('dnsperf', ['-h']);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const wall = (args, env = {}) => {
  const started = process.hrtime.bigint();
  execFileSync(process.execPath, args, { stdio: 'ignore', env: { PATH: process.env.PATH, HOME: work, ...env } });
  return Number(process.hrtime.bigint() - started) / 1e6;
};

/**
 * The questions asked of every server: names spread over the zone, one in four that does not
 * exist; 1,000 of them, asked again and again, or `count` (more than the sandbox's answer cache
 * holds, so that every question is answered afresh: its worst case).
 */
function questions(zoneSize, count = 1000) {
  return Array.from({ length: count }, (_, i) =>
    i % 4 === 3 ? `nope${i}.${ZONE}` : `h${1 + ((i * 7919) % zoneSize)}.${ZONE}`,
  );
}
function load(port, names) {
  if (!useDnsperf)
    return nodeLoad(
      port,
      names.map((n) => queryPacket(n)),
      SECONDS,
    );
  const file = join(work, `queries-${names.length}-${names[0]}.txt`);
  writeFileSync(file, names.map((n) => `${n} A`).join('\n') + '\n');
  return dnsperf(port, file, SECONDS);
}

const echo = await startEchoServer();
const small = await startDnsSandbox(ddedge, zoneRecords(5));
const large = await startDnsSandbox(ddedge, zoneRecords(50_000));
process.on('exit', () =>
  [echo, small, large].forEach((s) => {
    s.stop();
  }),
);
const targets = [
  { title: 'Node UDP echo server (the floor)', port: echo.port, names: questions(5), qps: [], lost: 0 },
  { title: 'sandbox name server, zone of 5 records', port: small.info.dnsPort, names: questions(5), qps: [], lost: 0 },
  {
    title: 'sandbox name server, zone of 50,000 records',
    port: large.info.dnsPort,
    names: questions(50_000),
    qps: [],
    lost: 0,
  },
  {
    title: 'sandbox name server, zone of 50,000 records, 50,000 different questions (none from the answer cache)',
    port: large.info.dnsPort,
    names: questions(50_000, 50_000),
    qps: [],
    lost: 0,
  },
];
// Warm-up: each server answers a round first (JIT, and the sandbox indexes the zone once).
for (const t of targets) await load(t.port, t.names);
const nodeTimes = [];
const ipTimes = [];
const ipEnv = { DDEDGE_IP_SOURCES: `dns:example.net@127.0.0.1:${small.info.dnsPort}`, DDEDGE_ALLOW_PRIVATE_IP: '1' };
for (let i = 0; i < ROUNDS; i++) {
  nodeTimes.push(wall(['-e', '0']));
  ipTimes.push(wall([ddedge, 'ip'], ipEnv));
  for (const t of targets) {
    const { qps, lost } = await load(t.port, t.names);
    t.qps.push(qps);
    t.lost += lost;
  }
}

// The first question after a change (the sandbox's own API: dnscreate appends an entry,
// dnsupdate edits one in place, dnsdelete splices one out) about the changed name, in the
// 50,000-record zone: what a change costs the next query (it waits for the zone's index).
const changes = { create: [], update: [], delete: [], steady: [] };
for (let i = 0; i < ROUNDS * 2; i++) {
  const name = `changed${i}.${ZONE}`;
  const { dns } = await large.call('service/dnscreate', { serviceName: ZONE, name, type: 'A', value: '192.0.2.1' });
  changes.create.push(await oneQuery(large.info.dnsPort, queryPacket(name)));
  await large.call('service/dnsupdate', { serviceName: ZONE, entityID: dns[0].entityID, value: '192.0.2.2' });
  changes.update.push(await oneQuery(large.info.dnsPort, queryPacket(name)));
  await large.call('service/dnsdelete', { serviceName: ZONE, entityID: dns[0].entityID });
  changes.delete.push(await oneQuery(large.info.dnsPort, queryPacket(name)));
  changes.steady.push(await oneQuery(large.info.dnsPort, queryPacket(`h${i + 1}.${ZONE}`)));
}

// Under load: dnsperf rounds on the 50,000-record zone while the API adds and deletes an entry
// every 100 ms (each change makes the next questions wait for the zone's index).
const churn = [];
if (useDnsperf) {
  const file = join(work, 'queries-churn.txt');
  writeFileSync(
    file,
    questions(50_000)
      .map((n) => `${n} A`)
      .join('\n') + '\n',
  );
  for (let i = 0; i < ROUNDS; i++) {
    const round = dnsperfInBackground(large.info.dnsPort, file, SECONDS);
    let changed = 0;
    const until = performance.now() + SECONDS * 1000;
    while (performance.now() < until) {
      const { dns } = await large.call('service/dnscreate', {
        serviceName: ZONE,
        name: `churn${i}-${changed}.${ZONE}`,
        type: 'A',
        value: '192.0.2.3',
      });
      await large.call('service/dnsdelete', { serviceName: ZONE, entityID: dns[0].entityID });
      changed += 2;
      await new Promise((r) => setTimeout(r, 100));
    }
    churn.push({ ...(await round), changed });
  }
}

const floor = median(targets[0].qps);
const nodeMs = median(nodeTimes);
console.log(
  `\n### DNS (${ROUNDS} rounds of ${SECONDS} s, medians; load: ${useDnsperf ? 'dnsperf, 64 in flight' : 'Node client, 32 in flight (dnsperf not installed)'}; node ${process.version})\n`,
);
console.log('| measurement | median | ratio |\n|---|---|---|');
for (const t of targets)
  console.log(
    `| ${t.title}, UDP queries answered per second | ${Math.round(median(t.qps))} q/s${t.lost ? ` (${t.lost} lost)` : ''} | ${(median(t.qps) / floor).toFixed(2)} x echo |`,
  );
console.log(`| node -e 0 | ${nodeMs.toFixed(1)} ms | 1.00 |`);
console.log(
  `| \`ddedge ip\`, one dns: source at the sandbox (wall time) | ${median(ipTimes).toFixed(1)} ms | ${(median(ipTimes) / nodeMs).toFixed(2)} x node -e 0 |`,
);
console.log(
  `\n### The first query after a change, zone of 50,000 records (${ROUNDS * 2} changes of each kind, medians and worst)\n`,
);
console.log('| change (sandbox API) | first query answered in | worst |\n|---|---|---|');
for (const [kind, times] of Object.entries(changes))
  console.log(
    `| ${kind === 'steady' ? 'none (a query between changes)' : `service/dns${kind}`} | ${median(times).toFixed(2)} ms | ${Math.max(...times).toFixed(2)} ms |`,
  );
if (churn.length) {
  console.log(
    `\n### Under load while the zone changes (50,000 records; dnsperf, 64 in flight, ${ROUNDS} rounds of ${SECONDS} s; an API create and delete, then 100 ms, over and over)\n`,
  );
  console.log('| round | changes | queries answered per second | lost |\n|---|---|---|---|');
  churn.forEach((r, i) => {
    console.log(`| ${i + 1} | ${r.changed} | ${Math.round(r.qps)} q/s | ${r.lost} |`);
  });
}
// The servers' pipes would keep this process alive.
process.exit(0);
