// node bench/zone.mjs (after npm run build): ddedge zone against the sandbox over HTTPS.
// - the fixed cost: `zone plan` of a 5-record zone as a ratio to `node -e 0` (the aim: at
//   most 2.5 x);
// - by zone size (1k, 10k, 100k records; BENCH_ZONE_SIZES=1000,10000 to choose): the list
//   calls alone (a keep-alive client that only fetches the pages), export, plan with no change,
//   apply into an empty zone, apply of a TTL change on 1% of the records, each with its
//   provider calls; and reading the file (ddedge's reader alone) beside BIND's
//   `named-checkzone -i none`, in CPU and peak memory;
// - apply of 200 creates one by one and in one service/dnssetzone, as before.
// A TLS proxy in this process stands in front of the sandbox: it counts calls by operation
// and the most in flight, as the provider would see them. Medians; ratios to `node -e 0`.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, runOnce } from './measure.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/** Runs at 100,000 records and more: each takes seconds. */
const LARGE_RUNS = Number(process.env.BENCH_LARGE_RUNS ?? 1);
const SIZES = (process.env.BENCH_ZONE_SIZES ?? '1000,10000,100000').split(',').map(Number);
const ddedge = join(import.meta.dirname, '..', 'dist', 'ddedge.mjs');
const work = mkdtempSync(join(tmpdir(), 'ddedge-bench-zone-'));
const ZONE = 'bench.example';
const checkzone = ['/usr/bin/named-checkzone', '/usr/sbin/named-checkzone'].find(existsSync);

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

const sandbox = spawn(process.execPath, [ddedge, 'sandbox', '--port', '0', '--json'], {
  stdio: ['ignore', 'pipe', 'ignore'],
});
const info = await new Promise((resolve) => sandbox.stdout.once('data', (d) => resolve(JSON.parse(String(d)))));
const upstream = new URL(info.apiUrl);
const agent = new http.Agent({ keepAlive: true });

const counts = new Map();
let inFlight = 0;
let maxInFlight = 0;
const proxy = https.createServer(
  { cert: readFileSync(join(work, 'server.pem')), key: readFileSync(join(work, 'server.key')) },
  (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const operation = req.url.split('/').filter(Boolean).join('/');
      counts.set(operation, (counts.get(operation) ?? 0) + 1);
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      const forward = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          path: req.url,
          method: req.method,
          headers: req.headers,
          agent,
        },
        (answer) => {
          res.writeHead(answer.statusCode, answer.headers);
          answer.pipe(res).on('finish', () => inFlight--);
        },
      );
      forward.end(Buffer.concat(chunks));
    });
  },
);
await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
const apiUrl = `https://127.0.0.1:${proxy.address().port}`;
const resetCounts = () => {
  counts.clear();
  maxInFlight = 0;
};
const callsSeen = () => Object.fromEntries([...counts].map(([k, v]) => [k.replace('service/', ''), v]));

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
/** One run of a program: wall ms (or, with memory, CPU ms and peak RSS); a failure stops the bench. */
const run = (args, memory = false, command = undefined) =>
  runOnce({ name: args.join(' '), args, command }, env, memory);
const ddedgeRun = (args, memory = false) => run([ddedge, ...args], memory);
const zoneFile = (name, lines) => {
  const path = join(work, name);
  writeFileSync(path, `$ORIGIN ${ZONE}.\n${lines.join('\n')}\n`);
  return path;
};
const record = (i, ttl = '') =>
  i % 5 === 4
    ? `h${i} ${ttl}TXT "record ${i} of the bench zone"`
    : `h${i} ${ttl}A 10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

// However the bench ends, the sandbox it started stops with it.
process.on('exit', () => sandbox.kill('SIGTERM'));
await ddedgeRun(['api', 'service', 'create', '--serviceName', ZONE, '--productkey', 'corporate']);
const empty = zoneFile('empty.zone', []);

/** The pages of service/dnslist and nothing else: one keep-alive connection, page after page. */
const listAlone = join(work, 'list-alone.mjs');
writeFileSync(
  listAlone,
  `import https from 'node:https';
const agent = new https.Agent({ keepAlive: true, maxSockets: 1 });
const post = (page) => new Promise((resolve, reject) => {
  const body = new URLSearchParams({ apiuser: process.env.DDEDGE_API_USER, apipasswd: process.env.DDEDGE_API_PASSWORD, serviceName: process.env.DDEDGE_SERVICE, page: String(page), pageLength: '1000' }).toString();
  const req = https.request(process.env.DDEDGE_API_URL + '/service/dnslist/', { method: 'POST', agent, headers: { 'content-type': 'application/x-www-form-urlencoded' } }, (res) => {
    const chunks = []; res.on('data', (c) => chunks.push(c)); res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks))));
  });
  req.on('error', reject); req.end(body);
});
let seen = 0;
for (let page = 1; page < 1000; page++) {
  const { responseData } = await post(page);
  seen += responseData.dns.length;
  if (seen >= responseData.queryInfo.total || !responseData.dns.length) break;
}
agent.destroy();
`,
);

/** ddedge's zone reader alone (the same source as dist/), bundled here: reading the file, nothing else. */
const readerBundle = join(work, 'reader.mjs');
const { build } = await import('esbuild');
await build({
  entryPoints: [join(import.meta.dirname, '..', 'src', 'zone', 'apply', 'zone-files.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  outfile: readerBundle,
  logLevel: 'error',
});
const readFile = join(work, 'read-file.mjs');
writeFileSync(
  readFile,
  `import { readFileSync } from 'node:fs';\nimport { readZoneText } from ${JSON.stringify(readerBundle)};\nconst wanted = readZoneText(readFileSync(process.argv[2], 'utf8'), { zone: ${JSON.stringify(ZONE)}, file: process.argv[2] });\nif (!wanted.records.length) process.exit(3);\n`,
);

// --- The fixed cost: a plan of 5 records ---------------------------------------------------
const small = zoneFile(
  'small.zone',
  Array.from({ length: 5 }, (_, i) => record(i)),
);
await ddedgeRun(['zone', 'apply', small, '--force']);
const base = [];
const tiny = [];
let tinyCalls;
for (let i = 0; i < Math.max(RUNS, 7); i++) {
  base.push((await run(['-e', '0'])).ms);
  resetCounts();
  tiny.push((await ddedgeRun(['zone', 'plan', small])).ms);
  tinyCalls = callsSeen();
}
const b = median(base);
// CPU time too: steadier than wall time on a shared machine.
const baseCpu = [];
const tinyCpu = [];
for (let i = 0; i < Math.max(RUNS, 7); i++) {
  baseCpu.push((await run(['-e', '0'], true)).cpuMs);
  tinyCpu.push((await ddedgeRun(['zone', 'plan', small], true)).cpuMs);
}

const rows = [];
const row = (name, ms, notes = '') => rows.push(`| ${name} | ${ms.toFixed(1)} | ${(ms / b).toFixed(2)} | ${notes} |`);
row('node -e 0', b);
row(
  'zone plan, 5 records',
  median(tiny),
  `target at most 2.5 x; CPU ${median(tinyCpu).toFixed(0)} ms, ${(median(tinyCpu) / median(baseCpu)).toFixed(2)} x node -e 0's ${median(baseCpu).toFixed(0)} ms; calls: ${JSON.stringify(tinyCalls)}`,
);

/** Median wall ms of `runs` runs of `args`, with `before` (untimed) ahead of each; and the calls of the last. */
async function measured(args, runs, before) {
  const times = [];
  let calls;
  for (let i = 0; i < runs; i++) {
    if (before) await before();
    resetCounts();
    times.push((await (args[0] === listAlone ? run(args) : ddedgeRun(args))).ms);
    calls = { ...callsSeen(), ...(maxInFlight > 1 ? { inFlight: maxInFlight } : {}) };
  }
  return { ms: median(times), calls };
}

// --- By size ---------------------------------------------------------------------------------
const reading = [];
for (const size of SIZES) {
  const runs = size >= 100_000 ? LARGE_RUNS : RUNS;
  const label = size.toLocaleString('en');
  const lines = Array.from({ length: size }, (_, i) => record(i));
  const file = zoneFile(`zone-${size}.zone`, lines);
  const ttlChanged = zoneFile(
    `zone-${size}-ttl.zone`,
    lines.map((l, i) => (i % 100 === 7 ? record(i, '600 ') : l)),
  );
  const toEmpty = () => ddedgeRun(['zone', 'apply', empty, '--force']);
  const filled = () => ddedgeRun(['zone', 'apply', file, '--force']);

  const applyAll = await measured(['zone', 'apply', file, '--force'], runs, toEmpty);
  const list = await measured([listAlone], runs);
  const exported = await measured(['zone', 'export', '--output', join(work, 'export.zone')], runs);
  const plan = await measured(['zone', 'plan', file], runs);
  const applyTtl = await measured(['zone', 'apply', ttlChanged, '--force'], runs, filled);
  row(
    `list calls alone, ${label}`,
    list.ms,
    `a keep-alive client fetching the pages; calls: ${JSON.stringify(list.calls)}`,
  );
  row(
    `zone export, ${label}`,
    exported.ms,
    `${(exported.ms / list.ms).toFixed(2)} x the list calls alone; calls: ${JSON.stringify(exported.calls)}`,
  );
  row(
    `zone plan, ${label}, no change`,
    plan.ms,
    `${(plan.ms / list.ms).toFixed(2)} x the list calls alone; calls: ${JSON.stringify(plan.calls)}`,
  );
  row(`zone apply, ${label} into an empty zone`, applyAll.ms, `calls: ${JSON.stringify(applyAll.calls)}`);
  row(
    `zone apply, TTL of 1% (${(size / 100).toLocaleString('en')}) changed`,
    applyTtl.ms,
    `calls: ${JSON.stringify(applyTtl.calls)}`,
  );

  // Reading the file: CPU and peak memory of ddedge's reader and of BIND's, side by side, on
  // the same file with the SOA and NS BIND needs (ddedge reads them and leaves them to the provider).
  const complete = join(work, `complete-${size}.zone`);
  writeFileSync(
    complete,
    `$ORIGIN ${ZONE}.\n$TTL 3600\n@ SOA ns1.example.net. hostmaster.example.net. 1 3600 600 86400 300\n@ NS ns1.example.net.\n@ NS ns2.example.net.\n${lines.join('\n')}\n`,
  );
  const ours = [];
  const bind = [];
  for (let i = 0; i < runs; i++) {
    ours.push(await run([readFile, complete], true));
    if (checkzone) bind.push(await run(['-i', 'none', ZONE, complete], true, checkzone));
  }
  const cpu = (r) => median(r.map((x) => x.cpuMs));
  const rss = (r) => median(r.map((x) => x.rssKb)) / 1024;
  reading.push(
    `| ${label} | ${cpu(ours).toFixed(0)} | ${rss(ours).toFixed(1)} | ${checkzone ? cpu(bind).toFixed(0) : 'n/a'} | ${checkzone ? rss(bind).toFixed(1) : 'n/a'} | ${checkzone ? `${(cpu(ours) / cpu(bind)).toFixed(2)} x CPU, ${(rss(ours) / rss(bind)).toFixed(2)} x memory` : 'named-checkzone not installed'} |`,
  );
}

// --- Apply of 200 creates, one by one and in one dnssetzone ------------------------------------
const creates = zoneFile(
  'creates.zone',
  Array.from({ length: 200 }, (_, i) => `c${i} A 192.0.2.${i % 250}`),
);
for (const method of ['calls', 'auto']) {
  const m = await measured(['zone', 'apply', creates, '--method', method], RUNS, () =>
    ddedgeRun(['zone', 'apply', empty, '--force']),
  );
  const writes = Object.entries(m.calls)
    .filter(([k]) => k !== 'dnslist' && k !== 'inFlight')
    .reduce((n, [, v]) => n + v, 0);
  row(
    `zone apply, 200 creates (--method ${method})`,
    m.ms,
    `${writes} write call${writes === 1 ? '' : 's'}${writes > 1 ? `, ${((writes / m.ms) * 1000).toFixed(0)} calls/s` : ''}; calls: ${JSON.stringify(m.calls)}`,
  );
}

console.log(
  `ddedge zone bench: median of ${RUNS} runs (${LARGE_RUNS} at 100,000 records), node ${process.version}, sandbox over HTTPS through a counting proxy, ${new Date().toISOString()}\n`,
);
console.log('| scenario | wall ms | × node -e 0 | notes |');
console.log('|---|---:|---:|---|');
for (const line of rows) console.log(line);
console.log(
  "\nReading the file (master file of A and TXT records): CPU ms and peak RSS, ddedge's reader (bundled from src/zone, run by node) beside `named-checkzone -i none`\n",
);
console.log('| records | ddedge CPU ms | ddedge MiB | named-checkzone CPU ms | named-checkzone MiB | ratio |');
console.log('|---:|---:|---:|---:|---:|---|');
for (const line of reading) console.log(line);

sandbox.kill('SIGTERM');
proxy.close();
agent.destroy();
rmSync(work, { recursive: true, force: true });
