// npm run bench: whole-process wall time and peak memory of the built ddedge, each as a
// ratio to `node -e 0` measured in the same run (machines here are noisy; ratios travel).
// Local servers only: two HTTPS echo sources and the sandbox over HTTPS, on 127.0.0.1.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const root = join(import.meta.dirname, '..');
const ddedge = join(root, 'dist', 'ddedge.mjs');
const preload = join(import.meta.dirname, 'rss-preload.cjs');
const work = mkdtempSync(join(tmpdir(), 'ddedge-bench-'));

// A throw-away CA and server certificate, so every HTTPS request is verified as in production.
const openssl = (...args) => execFileSync('openssl', args, { cwd: work, stdio: 'pipe' });
openssl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=bench CA');
openssl('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost');
writeFileSync(join(work, 'ext.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
openssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '1', '-extfile', 'ext.cnf');
const tls = { cert: readFileSync(join(work, 'server.pem')), key: readFileSync(join(work, 'server.key')) };

const listen = (server) => new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`https://127.0.0.1:${server.address().port}/`)));
const echoA = await listen(https.createServer(tls, (_q, r) => r.end('81.0.2.15\n')));
const echoB = await listen(https.createServer(tls, (_q, r) => r.end('81.0.2.15')));

// The sandbox runs in its own process, as a provider would.
const sandbox = spawn(process.execPath, [ddedge, 'sandbox', '--port', '0', '--json', '--tls-cert', join(work, 'server.pem'), '--tls-key', join(work, 'server.key')], { stdio: ['ignore', 'pipe', 'ignore'] });
const info = await new Promise((resolve) => sandbox.stdout.once('data', (d) => resolve(JSON.parse(String(d)))));

const stateDir = join(work, 'state');
const baseEnv = {
  PATH: process.env.PATH,
  HOME: work,
  NODE_EXTRA_CA_CERTS: join(work, 'ca.pem'),
  DDEDGE_DYNDNS_URL: info.dyndnsUrl,
  DDEDGE_DYNDNS_USER: info.dyndnsUser,
  DDEDGE_DYNDNS_KEY: info.dyndnsKey,
  DDEDGE_HOSTS: 'home.example.com',
  DDEDGE_STATE_DIR: stateDir,
  DDEDGE_IP_SOURCES: `url:${echoA},url:${echoB}`,
};
const freshState = (address) =>
  writeFileSync(join(stateDir, 'state.json'), JSON.stringify({ version: 1, records: { 'home.example.com/A': { host: 'home.example.com', type: 'A', address, sentAt: new Date().toISOString(), via: 'dyndns' } } }));
execFileSync(process.execPath, [ddedge, 'update', '--ip', '81.0.2.15'], { env: baseEnv });

const cycleScenarios = (entry, label = '') => [
  { name: `(a) detect from 2 HTTPS sources, unchanged, nothing sent${label}`, args: [entry, 'update'], setup: () => freshState('81.0.2.15') },
  { name: `(b) detect, changed, sent through dynamic DNS over HTTPS${label}`, args: [entry, 'update'], setup: () => freshState('81.0.2.99') },
  { name: `(c) --ip given and unchanged${label}`, args: [entry, 'update', '--ip', '81.0.2.15'], setup: () => freshState('81.0.2.15') },
];
// The yardstick, where Debian's ddclient is installed: the same job (one local HTTPS echo
// source, address unchanged, nothing sent) by ddclient and by ddedge, in the same run.
const ddclientPath = ['/usr/bin/ddclient', '/usr/sbin/ddclient'].find((p) => existsSync(p));
const ddclientConf = join(work, 'ddclient.conf');
const ddclientCache = join(work, 'ddclient.cache');
if (ddclientPath) {
  writeFileSync(ddclientConf, `ssl=yes\nssl_ca_file=${join(work, 'ca.pem')}\nuse=web, web=${echoA}\nprotocol=dondominio\nserver=127.0.0.1:9\nlogin=demo-user\npassword=demo-dyndns-key\nhome.example.com\n`, { mode: 0o600 });
}
const ddclientCacheFresh = () => {
  const now = Math.round(Date.now() / 1000);
  writeFileSync(ddclientCache, `## ddclient-3.10.0\nip=81.0.2.15,ipv4=81.0.2.15,mtime=${now},atime=${now},status=good,status-ipv4=good,host=home.example.com home.example.com\n`);
};
const yardstick = ddclientPath
  ? [
      { name: 'ddclient: 1 HTTPS source, unchanged, nothing sent', command: ddclientPath, args: ['-daemon=0', '-foreground', '-quiet', '-file', ddclientConf, '-cache', ddclientCache], setup: ddclientCacheFresh },
      { name: 'ddedge: 1 HTTPS source, unchanged, nothing sent', args: [ddedge, 'update', '--ip-source', `url:${echoA}`], setup: () => freshState('81.0.2.15') },
    ]
  : [];

// BENCH_COMPARE=/path/to/other/dist/ddedge.mjs measures another build in the same run, so a
// before/after comparison sees the same machine noise.
const compare = process.env.BENCH_COMPARE;
const scenarios = [
  { name: 'node -e 0', args: ['-e', '0'], setup: () => {} },
  ...cycleScenarios(ddedge),
  ...(compare ? cycleScenarios(compare, ' [compare]') : []),
  ...yardstick,
];

function runOnce(scenario, withPreload) {
  scenario.setup();
  // Peak memory is read through a Node preload: other programs are timed only.
  if (withPreload && scenario.command) return Promise.resolve({ ms: NaN, rssKb: NaN });
  const args = withPreload ? ['--require', preload, ...scenario.args] : scenario.args;
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(scenario.command ?? process.execPath, args, { env: baseEnv, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) return reject(new Error(`${scenario.name} exited ${code}: ${stderr}`));
      resolve({ ms, rssKb: Number(/DDEDGE_BENCH_MAXRSS_KB=(\d+)/.exec(stderr)?.[1] ?? NaN) });
    });
  });
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

// Interleaved rounds: each round runs every scenario once, so drift hits all alike.
const times = new Map(scenarios.map((s) => [s.name, []]));
const memory = new Map(scenarios.map((s) => [s.name, []]));
for (const s of scenarios) await runOnce(s, false); // warm the file cache
for (let round = 0; round < RUNS; round++) {
  for (const s of scenarios) times.get(s.name).push((await runOnce(s, false)).ms);
  for (const s of scenarios) memory.get(s.name).push((await runOnce(s, true)).rssKb);
}

const baseTime = median(times.get('node -e 0'));
const baseRss = median(memory.get('node -e 0'));
console.log(`ddedge bench: median of ${RUNS} runs each, node ${process.version}, ${new Date().toISOString()}\n`);
console.log('| scenario | wall ms | × node -e 0 | peak RSS MiB | × node -e 0 |');
console.log('|---|---:|---:|---:|---:|');
for (const s of scenarios) {
  const t = median(times.get(s.name));
  const m = median(memory.get(s.name));
  const rss = Number.isNaN(m) ? '| – | – |' : `| ${(m / 1024).toFixed(1)} | ${(m / baseRss).toFixed(2)} |`;
  console.log(`| ${s.name} | ${t.toFixed(1)} | ${(t / baseTime).toFixed(2)} ${rss}`);
}

// The sandbox: from spawning `ddedge sandbox` to the answer of its first tool/hello.
async function sandboxStart() {
  const started = performance.now();
  const child = spawn(process.execPath, [ddedge, 'sandbox', '--port', '0', '--json'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const line = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(JSON.parse(String(d)))));
  await fetch(`${line.apiUrl}/tool/hello/`, { method: 'POST', body: new URLSearchParams({ apiuser: line.apiUser, apipasswd: line.apiPassword }) }).then((r) => r.json());
  const ms = performance.now() - started;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.on('exit', resolve));
  return ms;
}
const sandboxTimes = [];
const baselineTimes = [];
for (let i = 0; i < RUNS; i++) {
  sandboxTimes.push(await sandboxStart());
  baselineTimes.push((await runOnce(scenarios[0], false)).ms);
}
console.log(`\nsandbox: start and answer tool/hello in ${median(sandboxTimes).toFixed(1)} ms, ${(median(sandboxTimes) / median(baselineTimes)).toFixed(2)} x node -e 0`);

// The SDK over keep-alive: 1,000 tool/hello calls against the sandbox (HTTPS), next to the
// same calls each on a fresh connection.
const { Registrar } = await import(join(root, 'dist', 'sdk.mjs'));
const { Agent } = await import('undici');
const ca = readFileSync(join(work, 'ca.pem'));
const sdkOptions = (dispatcher) => ({ url: info.apiUrl, user: info.apiUser, password: info.apiPassword, dispatcher });
const CALLS = 1000;
const keepAlive = new Registrar(sdkOptions(new Agent({ connections: 3, connect: { ca } })));
await keepAlive.tool.hello();
let started = performance.now();
for (let i = 0; i < CALLS; i++) await keepAlive.tool.hello();
const keepAliveRate = CALLS / ((performance.now() - started) / 1000);
await keepAlive.close();
started = performance.now();
for (let i = 0; i < CALLS; i++) {
  const fresh = new Registrar(sdkOptions(new Agent({ connect: { ca } })));
  await fresh.tool.hello();
  await fresh.close();
}
const freshRate = CALLS / ((performance.now() - started) / 1000);
console.log(`\nSDK: ${CALLS} tool/hello calls to the sandbox over HTTPS: ${keepAliveRate.toFixed(0)} calls/s over keep-alive, ${freshRate.toFixed(0)} calls/s on a fresh connection each (${(keepAliveRate / freshRate).toFixed(1)} x)`);

// What a cycle loads: the entry and the chunks it imports statically, followed from the
// update command's chunk (dynamic imports of the API path are counted apart).
const dist = join(root, 'dist');
const importsOf = (file) => [...readFileSync(file, 'utf8').matchAll(/(?:^|[;}])\s*import\s*(?:[\w${},*\s]+from\s*)?["'](\.[^"']+)["']/g)].map((m) => join(file, '..', m[1]));
const closure = (files) => {
  const seen = new Set();
  const visit = (f) => { if (!seen.has(f)) { seen.add(f); importsOf(f).forEach(visit); } };
  files.forEach(visit);
  return seen;
};
const chunks = readdirSync(join(dist, 'chunks')).filter((f) => f.endsWith('.mjs')).map((f) => join(dist, 'chunks', f));
const byPrefix = (prefix) => chunks.filter((f) => f.split('/').pop().startsWith(prefix));
const bytes = (files) => [...files].reduce((sum, f) => sum + statSync(f).size, 0);
const updatePath = closure([ddedge, ...byPrefix('update-')]);
const apiPath = closure(byPrefix('via-api-'));
console.log(`\nbundle: entry dist/ddedge.mjs ${statSync(ddedge).size} B; a cycle loads ${bytes(updatePath)} B in ${updatePath.size} files;`);
console.log(`the API path adds ${bytes([...apiPath].filter((f) => !updatePath.has(f)))} B (undici); dist/ in all ${bytes([ddedge, ...chunks])} B`);

sandbox.kill('SIGTERM');
rmSync(work, { recursive: true, force: true });
process.exit(0);
