// node bench/dns.mjs (after npm run build): the sandbox's name server, local UDP.
// - queries per second answered by `ddedge sandbox --dns-port` (its own process, as users run
//   it), with a window of queries in flight from one client socket, over a mix of answers
//   (A, CNAME chased to A, TXT, NXDOMAIN with SOA);
// - the wall time of `ddedge ip` with a dns: source pointed at it.
// Both beside `node -e 0` measured in the same run (machines here are noisy; ratios travel).
import { execFileSync, spawn } from 'node:child_process';
import dgram from 'node:dgram';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROUNDS = Number(process.env.BENCH_RUNS ?? 7);
const ROUND_MS = Number(process.env.BENCH_DNS_MS ?? 1500);
const WINDOW = 32;
const ddedge = join(import.meta.dirname, '..', 'dist', 'ddedge.mjs');
const work = mkdtempSync(join(tmpdir(), 'ddedge-bench-dns-'));

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const wall = (args, env = {}) => {
  const started = process.hrtime.bigint();
  execFileSync(process.execPath, args, { stdio: 'ignore', env: { PATH: process.env.PATH, HOME: work, ...env } });
  return Number(process.hrtime.bigint() - started) / 1e6;
};

const sandbox = spawn(process.execPath, [ddedge, 'sandbox', '--port', '0', '--dns-port', '0', '--json'], { stdio: ['ignore', 'pipe', 'ignore'] });
process.on('exit', () => sandbox.kill('SIGTERM'));
const info = await new Promise((resolve) => sandbox.stdout.once('data', (d) => resolve(JSON.parse(String(d)))));

/** A query packet (RD clear) for name/type, with a given ID. */
function query(id, name, type) {
  const labels = name.split('.').flatMap((l) => [Buffer.from([l.length]), Buffer.from(l)]);
  const header = Buffer.alloc(12);
  header.writeUInt16BE(id, 0);
  header.writeUInt16BE(1, 4);
  const tail = Buffer.alloc(5);
  tail.writeUInt16BE(type, 1);
  tail.writeUInt16BE(1, 3);
  return Buffer.concat([header, ...labels, tail]);
}
const MIX = [['example.com', 1], ['www.example.com', 1], ['example.com', 16], ['nope.example.com', 1]];

/** Queries answered per second during one round, WINDOW in flight; lost ones are re-sent after 200 ms. */
async function round() {
  const socket = dgram.createSocket('udp4');
  await new Promise((r) => socket.bind(0, '127.0.0.1', r));
  let answered = 0;
  let next = 0;
  const inFlight = new Map();
  const send = () => {
    const id = next++ & 0xffff;
    const [name, type] = MIX[id % MIX.length];
    inFlight.set(id, Date.now());
    socket.send(query(id, name, type), info.dnsPort, '127.0.0.1');
  };
  const started = performance.now();
  let sweep;
  const done = new Promise((resolve) => {
    socket.on('message', (m) => {
      if (!inFlight.delete(m.readUInt16BE(0))) return;
      answered++;
      if (performance.now() - started < ROUND_MS) send();
      else if (!inFlight.size) resolve();
    });
    sweep = setInterval(() => {
      const now = Date.now();
      for (const [id, at] of inFlight) if (now - at > 200) inFlight.delete(id);
      if (performance.now() - started >= ROUND_MS && !inFlight.size) resolve();
      else while (inFlight.size < WINDOW && performance.now() - started < ROUND_MS) send();
    }, 50);
  });
  for (let i = 0; i < WINDOW; i++) send();
  await Promise.race([done, new Promise((r) => setTimeout(r, ROUND_MS + 1000))]);
  clearInterval(sweep);
  const seconds = (performance.now() - started) / 1000;
  socket.close();
  return answered / seconds;
}

const nodeTimes = [];
const ipTimes = [];
const qps = [];
await round(); // warm-up
const ipEnv = { DDEDGE_IP_SOURCES: `dns:example.net@127.0.0.1:${info.dnsPort}`, DDEDGE_ALLOW_PRIVATE_IP: '1' };
for (let i = 0; i < ROUNDS; i++) {
  nodeTimes.push(wall(['-e', '0']));
  ipTimes.push(wall([ddedge, 'ip'], ipEnv));
  qps.push(await round());
}
sandbox.kill('SIGTERM');

const nodeMs = median(nodeTimes);
const rows = [
  ['node -e 0', `${nodeMs.toFixed(1)} ms`, '1.00'],
  ['`ddedge ip`, one dns: source at the sandbox (wall time)', `${median(ipTimes).toFixed(1)} ms`, (median(ipTimes) / nodeMs).toFixed(2)],
  [`sandbox name server, UDP queries answered per second (${WINDOW} in flight, local)`, `${Math.round(median(qps))} q/s`, `${Math.round((median(qps) * nodeMs) / 1000)} queries per node -e 0`],
];
console.log(`\n### DNS (${ROUNDS} runs, medians; node ${process.version})\n`);
console.log('| measurement | median | ratio to node -e 0 |\n|---|---|---|');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
