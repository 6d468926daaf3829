// node bench/dyndns2.mjs (after npm run build): the gateway's dyndns2 door as a router uses it,
// in front of the sandbox. (1) Provider calls per request, read from the gateway's /metrics:
// an unchanged address, a changed one. (2) Wall time from a changed request to its `good`
// (median of BENCH_RUNS, each a new address), beside `node -e 0` timed in the same run. (3)
// `nochg` answers per second with 16 keep-alive clients, 1 s a turn, beside a minimal Node HTTP
// server (a process of its own) answering the same text, in interleaved turns; the load
// generator runs in this process for both, so it costs them alike. Ratios are medians'.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDdedge } from './servers.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const ddedge = join(import.meta.dirname, '..', 'dist', 'ddedge.mjs');
const work = mkdtempSync(join(tmpdir(), 'ddedge-bench-dyndns2-'));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const start = (args, env, stream, pattern) => startDdedge(ddedge, args, env, stream, pattern);

const sandbox = JSON.parse((await start(['sandbox', '--port', '0', '--json'], {}, 'stdout', /^\{.*\}$/m))[0]);
const keyText = spawnSync(process.execPath, [ddedge, 'gateway', 'keygen', 'router'], { encoding: 'utf8' }).stdout;
const secret = /secret "([^"]+)"/.exec(keyText)[1];
writeFileSync(join(work, 'gateway.keys'), `${keyText}grant "router" name home.example.com A AAAA;\n`, { mode: 0o600 });
const started = await start(
  [
    'gateway',
    '--zone',
    'example.com',
    '--keys',
    join(work, 'gateway.keys'),
    '--dns-listen',
    '127.0.0.1:0',
    '--primary-name',
    'gw.example.net',
    '--state-dir',
    join(work, 'state'),
    '--dyndns2-listen',
    '127.0.0.1:0',
    '--listen',
    '127.0.0.1:0',
    '--refresh',
    '1h',
  ],
  {
    DDEDGE_API_URL: sandbox.apiUrl,
    DDEDGE_API_USER: sandbox.apiUser,
    DDEDGE_API_PASSWORD: sandbox.apiPassword,
    DDEDGE_MAX_CALLS_PER_HOUR: '3600',
  },
  'stderr',
  /answering dyndns2 updates at (http:\/\/[\d.:]+)\/nic\/update[\s\S]*serving \/healthz, \/metrics and \/status at (http:\/\/[\d.:]+)\//,
);
const [door, endpoint] = [started[1], started[2]];
const auth = `Basic ${Buffer.from(`router:${secret}`).toString('base64')}`;
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

function get(base, path, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${path}`, { agent, headers }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve(body));
    });
    req.on('error', reject);
  });
}
const calls = async () =>
  [
    ...(await get(endpoint, '/metrics')).matchAll(
      /^ddedge_gateway_provider_calls_total\{operation="([^"]+)"\} (\d+)$/gm,
    ),
  ].reduce((acc, m) => Object.assign(acc, { [m[1]]: Number(m[2]) }), {});
const diff = (after, before) =>
  Object.fromEntries(
    Object.entries(after)
      .map(([k, v]) => [k, v - (before[k] ?? 0)])
      .filter(([, v]) => v),
  );
const update = (ip) => get(door, `/nic/update?hostname=home.example.com&myip=${ip}`, { authorization: auth });

// (1) and (2): each changed request a new address; calls counted around each.
const nodeE0 = [];
const toGood = [];
const changedCalls = {};
for (let i = 0; i < RUNS; i++) {
  const t0 = process.hrtime.bigint();
  spawnSync(process.execPath, ['-e', '0']);
  nodeE0.push(Number(process.hrtime.bigint() - t0) / 1e6);
  const before = await calls();
  const t1 = process.hrtime.bigint();
  const answer = await update(`81.0.${2 + (i >> 8)}.${i & 255}`);
  toGood.push(Number(process.hrtime.bigint() - t1) / 1e6);
  if (!answer.startsWith('good ')) throw new Error(`expected good, got ${answer}`);
  const made = diff(await calls(), before);
  for (const [k, v] of Object.entries(made)) changedCalls[k] = (changedCalls[k] ?? 0) + v;
}
const beforeSame = await calls();
for (let i = 0; i < RUNS; i++)
  if (!(await update(`81.0.${2 + ((RUNS - 1) >> 8)}.${(RUNS - 1) & 255}`)).startsWith('nochg '))
    throw new Error('expected nochg');
const sameCalls = Object.values(diff(await calls(), beforeSame)).reduce((a, b) => a + b, 0);

// (3): nochg answers per second beside a minimal Node HTTP server.
const nochgPath = `/nic/update?hostname=home.example.com&myip=81.0.${2 + ((RUNS - 1) >> 8)}.${(RUNS - 1) & 255}`;
// In a process of its own, as the gateway is: the load generator here costs both alike.
const minimalSource = `const http = require('node:http');
const server = http.createServer((req, res) => {
  const body = 'nochg 81.0.2.1\\n';
  res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => console.log('listening ' + server.address().port));`;
const minimal = spawn(process.execPath, ['-e', minimalSource], { stdio: ['ignore', 'pipe', 'inherit'] });
process.on('exit', () => minimal.kill('SIGTERM'));
const minimalUrl = await new Promise((resolve) =>
  minimal.stdout.on('data', (d) => {
    const m = /listening (\d+)/.exec(String(d));
    if (m) resolve(`http://127.0.0.1:${m[1]}`);
  }),
);

/** CPU milliseconds a process has used (user + system), from /proc; NaN where there is none. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}
const gatewayPid = started.child.pid;

async function rate(base, ms = 1000) {
  let done = 0;
  const until = Date.now() + ms;
  const worker = async () => {
    while (Date.now() < until) {
      await get(base, nochgPath, { authorization: auth });
      done++;
    }
  };
  const pid = base === door ? gatewayPid : minimal.pid;
  const [t0, c0] = [Date.now(), cpuMs(pid)];
  await Promise.all(Array.from({ length: 16 }, worker));
  cpu[base === door ? 'door' : 'minimal'].push(((cpuMs(pid) - c0) * 1000) / done);
  return (done * 1000) / (Date.now() - t0);
}
const rates = { door: [], minimal: [] };
/** Server CPU microseconds per answer, by turn: what the machine's load does not change much. */
const cpu = { door: [], minimal: [] };
await rate(door, 500); // warm-up
await rate(minimalUrl, 500);
// Taking turns, first one then the other, so that drift in the machine's load hits both alike.
for (let r = 0; r < ROUNDS; r++) {
  const order = r % 2 ? ['door', 'minimal'] : ['minimal', 'door'];
  for (const which of order) rates[which].push(await rate(which === 'door' ? door : minimalUrl));
}
cpu.door.splice(0, 1);
cpu.minimal.splice(0, 1); // the warm-up turns
agent.destroy();

const load = loadavg()
  .map((l) => l.toFixed(1))
  .join(' ');
console.log(
  `\n### The dyndns2 door (node ${process.version}, load ${load}, ${RUNS} changed and ${RUNS} unchanged requests, ${ROUNDS} interleaved turns of 1 s each for the rate)\n`,
);
console.log('| measure | value | × the reference |\n|---|---:|---:|');
console.log(`| provider calls per unchanged request (nochg) | ${(sameCalls / RUNS).toFixed(2)} | |`);
console.log(
  `| provider calls per changed request (good) | ${(Object.values(changedCalls).reduce((a, b) => a + b, 0) / RUNS).toFixed(2)} (${Object.entries(
    changedCalls,
  )
    .map(([k, v]) => `${k} ${(v / RUNS).toFixed(2)}`)
    .join(', ')}) | |`,
);
console.log(`| \`node -e 0\` (the reference for wall time) | ${median(nodeE0).toFixed(1)} ms | 1.00 |`);
console.log(
  `| request to \`good\` against the sandbox (median) | ${median(toGood).toFixed(1)} ms | ${(median(toGood) / median(nodeE0)).toFixed(2)} x node -e 0 |`,
);
console.log(
  `| minimal Node HTTP server (the reference for the rate) | ${Math.round(median(rates.minimal))} answers/s | 1.00 |`,
);
console.log(
  `| the door answering nochg | ${Math.round(median(rates.door))} answers/s | ${(median(rates.door) / median(rates.minimal)).toFixed(2)} |`,
);
console.log(`| server CPU per answer: minimal Node HTTP server | ${median(cpu.minimal).toFixed(0)} µs | 1.00 |`);
console.log(
  `| server CPU per answer: the door (nochg) | ${median(cpu.door).toFixed(0)} µs | ${(median(cpu.door) / median(cpu.minimal)).toFixed(2)} (capacity ${(median(cpu.minimal) / median(cpu.door)).toFixed(2)} x) |`,
);
process.exit(0);
