// node bench/acme.mjs (after npm run build): `ddedge acme present` as certbot or lego runs it,
// against the sandbox over HTTPS and its name server, the value visible before it returns.
// Wall time and peak memory as ratios to `node -e 0` measured in the same run, and the API
// calls each command made (target for present: one list, one create). The name server's own
// rate is in bench/dns.mjs.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RUNS = Number(process.env.BENCH_RUNS ?? 11);
const root = join(import.meta.dirname, '..');
const ddedge = join(root, 'dist', 'ddedge.mjs');
const preload = join(import.meta.dirname, 'rss-preload.cjs');
const work = mkdtempSync(join(tmpdir(), 'ddedge-bench-acme-'));

const openssl = (...args) => execFileSync('openssl', args, { cwd: work, stdio: 'pipe' });
openssl(
  'req',
  '-x509',
  '-newkey',
  'ec',
  '-pkeyopt',
  'ec_paramgen_curve:prime256v1',
  '-nodes',
  '-keyout',
  'ca.key',
  '-out',
  'ca.pem',
  '-days',
  '1',
  '-subj',
  '/CN=bench CA',
);
openssl(
  'req',
  '-newkey',
  'ec',
  '-pkeyopt',
  'ec_paramgen_curve:prime256v1',
  '-nodes',
  '-keyout',
  'server.key',
  '-out',
  'server.csr',
  '-subj',
  '/CN=localhost',
);
writeFileSync(join(work, 'ext.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
openssl(
  'x509',
  '-req',
  '-in',
  'server.csr',
  '-CA',
  'ca.pem',
  '-CAkey',
  'ca.key',
  '-CAcreateserial',
  '-out',
  'server.pem',
  '-days',
  '1',
  '-extfile',
  'ext.cnf',
);

// The sandbox in its own process, as a provider would be; its request log counts the API calls.
const sandbox = spawn(
  process.execPath,
  [
    ddedge,
    'sandbox',
    '--port',
    '0',
    '--dns-port',
    '0',
    '--json',
    '--tls-cert',
    join(work, 'server.pem'),
    '--tls-key',
    join(work, 'server.key'),
  ],
  { stdio: ['ignore', 'pipe', 'pipe'] },
);
let sandboxLog = '';
sandbox.stderr.on('data', (d) => (sandboxLog += d));
const info = await new Promise((resolve) => sandbox.stdout.once('data', (d) => resolve(JSON.parse(String(d)))));

const env = {
  PATH: process.env.PATH,
  HOME: work,
  NODE_EXTRA_CA_CERTS: join(work, 'ca.pem'),
  DDEDGE_API_URL: info.apiUrl,
  DDEDGE_API_USER: info.apiUser,
  DDEDGE_API_PASSWORD: info.apiPassword,
  DDEDGE_STATE_DIR: join(work, 'state'),
  DDEDGE_DNS_SERVERS: `127.0.0.1:${info.dnsPort}`,
};

/** Runs once; returns wall ms, peak RSS (with the preload) and the API calls, by operation. */
function runOnce(args, withPreload) {
  const logAt = sandboxLog.length;
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, withPreload ? ['--require', preload, ...args] : args, {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', async (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) return reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`));
      await new Promise((r) => setTimeout(r, 20)); // the sandbox's last log line
      const calls = [...sandboxLog.slice(logAt).matchAll(/POST \/(\w+\/\w+)\//g)].map((m) => m[1]);
      resolve({ ms, rssKb: Number(/DDEDGE_BENCH_MAXRSS_KB=(\d+)/.exec(stderr)?.[1] ?? NaN), calls });
    });
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const NAME = '_acme-challenge.example.com';
let n = 0;
const scenarios = [
  { name: 'node -e 0', args: () => ['-e', '0'] },
  { name: 'acme present, visible on the name server', args: (v) => [ddedge, 'acme', 'present', `${NAME}.`, v] },
  { name: 'acme cleanup', args: (v) => [ddedge, 'acme', 'cleanup', `${NAME}.`, v] },
  { name: 'acme present --no-wait', args: (v) => [ddedge, 'acme', 'present', `${NAME}.`, v, '--no-wait'] },
  { name: 'acme cleanup (after --no-wait)', args: (v) => [ddedge, 'acme', 'cleanup', `${NAME}.`, v] },
];
const times = new Map(scenarios.map((s) => [s.name, []]));
const memory = new Map(scenarios.map((s) => [s.name, []]));
const calls = new Map();
// Interleaved rounds: every scenario once per round, present then cleanup of one value.
for (let round = -1; round < RUNS; round++) {
  for (const withPreload of [false, true]) {
    const value = `bench-value-${++n}`;
    for (const s of scenarios) {
      const result = await runOnce(s.args(value), withPreload);
      if (round < 0) continue; // warm-up
      if (withPreload) memory.get(s.name).push(result.rssKb);
      else times.get(s.name).push(result.ms);
      calls.set(s.name, result.calls);
    }
  }
}

const baseTime = median(times.get('node -e 0'));
const baseRss = median(memory.get('node -e 0'));
console.log(`ddedge acme bench: median of ${RUNS} runs each, node ${process.version}, ${new Date().toISOString()}\n`);
console.log('| scenario | wall ms | × node -e 0 | peak RSS MiB | × node -e 0 | API calls |');
console.log('|---|---:|---:|---:|---:|---|');
for (const s of scenarios) {
  const t = median(times.get(s.name));
  const m = median(memory.get(s.name));
  const c = calls.get(s.name);
  const summary = c.length ? `${c.length}: ${c.map((x) => x.split('/')[1]).join(', ')}` : '–';
  console.log(
    `| ${s.name} | ${t.toFixed(1)} | ${(t / baseTime).toFixed(2)} | ${(m / 1024).toFixed(1)} | ${(m / baseRss).toFixed(2)} | ${summary} |`,
  );
}

sandbox.kill('SIGTERM');
rmSync(work, { recursive: true, force: true });
process.exit(0);
