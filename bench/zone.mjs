// node bench/zone.mjs (after npm run build): ddedge zone against the sandbox over HTTPS.
// - plan of a 2,500-record zone: its provider calls (list pages only) and its wall time as a
//   ratio to the same list calls alone (`ddedge api service dnslist --all`), both whole runs;
// - apply of 200 creates: wall time, write calls per second, most calls in flight at once,
//   one by one (--method calls) and in one service/dnssetzone (--method auto).
// A TLS proxy in this process stands in front of the sandbox: it counts calls by operation
// and the most in flight, as the provider would see them. Medians; ratios to `node -e 0`.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const ddedge = join(import.meta.dirname, '..', 'dist', 'ddedge.mjs');
const work = mkdtempSync(join(tmpdir(), 'ddedge-bench-zone-'));
const ZONE = 'bench.example';

const openssl = (...args) => execFileSync('openssl', args, { cwd: work, stdio: 'pipe' });
openssl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=bench CA');
openssl('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost');
writeFileSync(join(work, 'ext.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
openssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '1', '-extfile', 'ext.cnf');

const sandbox = spawn(process.execPath, [ddedge, 'sandbox', '--port', '0', '--json'], { stdio: ['ignore', 'pipe', 'ignore'] });
const info = await new Promise((resolve) => sandbox.stdout.once('data', (d) => resolve(JSON.parse(String(d)))));
const upstream = new URL(info.apiUrl);
const agent = new http.Agent({ keepAlive: true });

const counts = new Map();
let inFlight = 0;
let maxInFlight = 0;
const proxy = https.createServer({ cert: readFileSync(join(work, 'server.pem')), key: readFileSync(join(work, 'server.key')) }, (req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    counts.set(req.url, (counts.get(req.url) ?? 0) + 1);
    maxInFlight = Math.max(maxInFlight, ++inFlight);
    const forward = http.request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers, agent }, (answer) => {
      res.writeHead(answer.statusCode, answer.headers);
      answer.pipe(res).on('finish', () => inFlight--);
    });
    forward.end(Buffer.concat(chunks));
  });
});
await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
const apiUrl = `https://127.0.0.1:${proxy.address().port}`;
const resetCounts = () => {
  counts.clear();
  maxInFlight = 0;
};

const env = {
  PATH: process.env.PATH,
  HOME: work,
  NODE_EXTRA_CA_CERTS: join(work, 'ca.pem'),
  DDEDGE_API_URL: apiUrl,
  DDEDGE_API_USER: info.apiUser,
  DDEDGE_API_PASSWORD: info.apiPassword,
  DDEDGE_STATE_DIR: join(work, 'state'),
  DDEDGE_SERVICE: ZONE,
};
function run(args) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) reject(new Error(`${args.slice(1).join(' ')} exited ${code}: ${stderr}`));
      else resolve(ms);
    });
  });
}
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const zoneFile = (name, lines) => {
  const path = join(work, name);
  writeFileSync(path, `$ORIGIN ${ZONE}.\n${lines.join('\n')}\n`);
  return path;
};

// However the bench ends, the sandbox it started stops with it.
process.on('exit', () => sandbox.kill('SIGTERM'));

await run([ddedge, 'api', 'service', 'create', '--serviceName', ZONE, '--productkey', 'corporate']);
const big = zoneFile('big.zone', Array.from({ length: 2500 }, (_, i) => (i % 5 === 4 ? `h${i} TXT "record ${i} of the bench zone"` : `h${i} A 198.51.${Math.floor(i / 250)}.${i % 250}`)));
await run([ddedge, 'zone', 'apply', big, '--force']);

const base = [];
const plan = [];
const list = [];
let planCalls;
for (let i = 0; i < RUNS; i++) {
  base.push(await run(['-e', '0']));
  resetCounts();
  plan.push(await run([ddedge, 'zone', 'plan', big]));
  planCalls = Object.fromEntries(counts);
  list.push(await run([ddedge, 'api', 'service', 'dnslist', '--serviceName', ZONE, '--all']));
}

const creates = zoneFile('creates.zone', Array.from({ length: 200 }, (_, i) => `c${i} A 192.0.2.${i % 250}`));
const empty = zoneFile('empty.zone', []);
const applies = { calls: [], auto: [] };
const seen = {};
for (let i = 0; i < RUNS; i++) {
  for (const method of ['calls', 'auto']) {
    await run([ddedge, 'zone', 'apply', empty, '--force']);
    resetCounts();
    applies[method].push(await run([ddedge, 'zone', 'apply', creates, '--method', method]));
    seen[method] = { counts: Object.fromEntries(counts), maxInFlight };
  }
}

const b = median(base);
const row = (name, ms, extra = '') => console.log(`| ${name} | ${ms.toFixed(1)} | ${(ms / b).toFixed(2)} | ${extra} |`);
console.log(`ddedge zone bench: median of ${RUNS} runs, node ${process.version}, sandbox over HTTPS through a counting proxy, ${new Date().toISOString()}\n`);
console.log('| scenario | wall ms | × node -e 0 | notes |');
console.log('|---|---:|---:|---|');
row('node -e 0', b);
row('api service dnslist --all (2,500 records)', median(list), 'the list calls alone');
row('zone plan (2,500 records)', median(plan), `${(median(plan) / median(list)).toFixed(2)} × the list calls alone; calls: ${JSON.stringify(planCalls)}`);
for (const method of ['calls', 'auto']) {
  const writes = Object.entries(seen[method].counts).filter(([k]) => k !== '/service/dnslist/').reduce((n, [, v]) => n + v, 0);
  const ms = median(applies[method]);
  row(`zone apply, 200 creates (--method ${method})`, ms, `${writes} write call${writes === 1 ? '' : 's'}${writes > 1 ? `, ${((writes / ms) * 1000).toFixed(0)} calls/s` : ''}, at most ${seen[method].maxInFlight} in flight; calls: ${JSON.stringify(seen[method].counts)}`);
}

sandbox.kill('SIGTERM');
proxy.close();
agent.destroy();
rmSync(work, { recursive: true, force: true });
