// node bench/zone-plan-cpu.mjs [records] (after npm run build; 100,000 by default): the whole
// `ddedge zone plan FILE` of a big zone (read the file, list the zone from the sandbox over
// HTTPS, plan) in two workloads: against a zone that holds the file already (no change) and
// against a near-empty zone (every record a create); beside BIND's `named-checkzone -i none`
// loading the same file, in CPU time (user + system) and peak RSS, with `node -e 0` as the
// floor. Interleaved rounds (BENCH_RUNS, 5 by default), medians, ratios to named-checkzone of
// the same run, the load average before and after. Then one run of each workload under
// `node --cpu-prof`: the functions with the most self time. BENCH_PROFILE=0 leaves the profiles out.
// With BENCH_CALLGRIND=1 (valgrind installed) also instruction counts of one run each: steady
// where CPU time is not, on a machine other work shares. BENCH_ZONE_BEFORE=<a checkout, built>
// adds that build's plans to the rounds (a before and after in one run).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, runOnce } from './measure.mjs';

const SIZE = Number(process.argv[2] ?? 100_000);
const ROUNDS = Number(process.env.BENCH_RUNS ?? 5);
const TOP = 20;
const ZONE = 'bench.example';
const ddedge = join(import.meta.dirname, '..', 'dist', 'ddedge.mjs');
const checkzone = ['/usr/bin/named-checkzone', '/usr/sbin/named-checkzone'].find(existsSync);
if (!checkzone) {
  console.log('named-checkzone is not installed (Debian package bind9-utils): nothing to measure the plan against');
  process.exit(0);
}
const work = mkdtempSync(join(tmpdir(), 'ddedge-bench-plan-cpu-'));
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const loadBefore = load();

// The provider over HTTPS, as a user's plan reaches it: a TLS front for the sandbox.
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
/** A sandbox behind its own TLS front, as a user's plan reaches the provider; the environment that reaches it. */
async function provider(name) {
  const sandbox = spawn(process.execPath, [ddedge, 'sandbox', '--port', '0', '--json'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  sandboxes.push(sandbox);
  const info = await new Promise((resolve) => sandbox.stdout.once('data', (d) => resolve(JSON.parse(String(d)))));
  const upstream = new URL(info.apiUrl);
  const proxy = https.createServer(
    { cert: readFileSync(join(work, 'server.pem')), key: readFileSync(join(work, 'server.key')) },
    (req, res) => {
      req.pipe(
        http.request(
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
            answer.pipe(res);
          },
        ),
      );
    },
  );
  proxies.push(proxy);
  await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    PATH: process.env.PATH,
    HOME: work,
    NODE_EXTRA_CA_CERTS: join(work, 'ca.pem'),
    DDEDGE_API_URL: `https://127.0.0.1:${proxy.address().port}`,
    DDEDGE_API_USER: info.apiUser,
    DDEDGE_API_PASSWORD: info.apiPassword,
    DDEDGE_STATE_DIR: join(work, `state-${name}`),
    DDEDGE_SERVICE: ZONE,
  };
}
const sandboxes = [];
const proxies = [];
const agent = new http.Agent({ keepAlive: true });
process.on('exit', () => {
  for (const sandbox of sandboxes) sandbox.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
});

// The zone of bench/zone.mjs (A and TXT), in a file BIND loads too (SOA and NS, which ddedge
// leaves to the provider): the same file for both programs.
const record = (i) =>
  i % 5 === 4
    ? `h${i} TXT "record ${i} of the bench zone"`
    : `h${i} A 10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
const file = join(work, `zone-${SIZE}.zone`);
writeFileSync(
  file,
  `$ORIGIN ${ZONE}.\n$TTL 3600\n@ SOA ns1.example.net. hostmaster.example.net. 1 3600 600 86400 300\n@ NS ns1.example.net.\n@ NS ns2.example.net.\n${Array.from({ length: SIZE }, (_, i) => record(i)).join('\n')}\n`,
);
// Two providers: one whose zone holds the file already (the plan finds no change), one whose
// zone is new and near-empty (every record of the file is a create).
const env = await provider('held');
const emptyEnv = await provider('empty');
const create = [ddedge, 'api', 'service', 'create', '--serviceName', ZONE, '--productkey', 'corporate'];
await runOnce({ name: 'service create', args: create }, env);
await runOnce({ name: 'service create', args: create }, emptyEnv);
await runOnce({ name: 'apply', args: [ddedge, 'zone', 'apply', file, '--force'] }, env);
const run = (name, args, command, on = env) => runOnce({ name, args, command, env: on }, env, true);

const before = process.env.BENCH_ZONE_BEFORE && join(process.env.BENCH_ZONE_BEFORE, 'dist', 'ddedge.mjs');
const beforeRow = `ddedge zone plan, the build in ${process.env.BENCH_ZONE_BEFORE}`;
const rows = {
  'node -e 0': () => run('node -e 0', ['-e', '0']),
  'named-checkzone -i none': () => run('named-checkzone', ['-q', '-i', 'none', ZONE, file], checkzone),
  'ddedge zone plan, the zone holds the file (no change)': () =>
    run('zone plan', [ddedge, 'zone', 'plan', file, '--expect-no-changes']),
  'ddedge zone plan, near-empty zone (every record a create)': () =>
    run('zone plan', [ddedge, 'zone', 'plan', file], undefined, emptyEnv),
  ...(before
    ? {
        [`${beforeRow} (no change)`]: () =>
          run('zone plan before', [before, 'zone', 'plan', file, '--expect-no-changes']),
        [`${beforeRow} (near-empty zone)`]: () =>
          run('zone plan before', [before, 'zone', 'plan', file], undefined, emptyEnv),
      }
    : {}),
};
const cpu = Object.fromEntries(Object.keys(rows).map((k) => [k, []]));
const rss = Object.fromEntries(Object.keys(rows).map((k) => [k, []]));
const wall = Object.fromEntries(Object.keys(rows).map((k) => [k, []]));
for (let round = 0; round < ROUNDS; round++)
  for (const [name, once] of Object.entries(rows)) {
    const measured = await once();
    cpu[name].push(measured.cpuMs);
    rss[name].push(measured.rssKb / 1024);
    wall[name].push(measured.ms);
  }
const bind = median(cpu['named-checkzone -i none']);
const bindRss = median(rss['named-checkzone -i none']);
const floor = median(cpu['node -e 0']);
console.log(
  `zone plan of ${SIZE.toLocaleString('en')} records beside named-checkzone -i none: CPU ms (user + system) ` +
    `and peak RSS, median of ${ROUNDS} interleaved rounds, node ${process.version}; ` +
    `load average ${loadBefore} before, ${load()} after\n`,
);
// Wall time from spawn to exit (GNU time's start included); the plan's waits on the provider are in it.
console.log(
  '| program | CPU ms | × named-checkzone | × node -e 0 | peak RSS MiB | × named-checkzone | wall ms ' +
    '| CPU runs (ms) | RSS runs (MiB) |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---|---|');
for (const [name, values] of Object.entries(cpu)) {
  const m = median(values);
  const r = median(rss[name]);
  console.log(
    `| ${name} | ${m.toFixed(0)} | ${(m / bind).toFixed(2)} | ${(m / floor).toFixed(2)} | ${r.toFixed(1)} | ` +
      `${(r / bindRss).toFixed(2)} | ${median(wall[name]).toFixed(0)} | ${values.map((v) => v.toFixed(0)).join(' ')} | ` +
      `${rss[name].map((v) => v.toFixed(0)).join(' ')} |`,
  );
}

// Instruction counts: callgrind counts every instruction the process runs (its threads too).
if (process.env.BENCH_CALLGRIND === '1') {
  if (spawnSync('valgrind', ['--version']).error) console.log('\nBENCH_CALLGRIND=1: valgrind is not installed');
  else {
    // Spawned, not spawnSync: this process's event loop serves the TLS front the plan talks to.
    const counted = (args) =>
      new Promise((resolve) => {
        const out = join(work, 'callgrind.out');
        const child = spawn(
          'valgrind',
          [
            '--tool=callgrind',
            '--trace-children=no',
            '--smc-check=all-non-file',
            `--callgrind-out-file=${out}`,
            ...args,
          ],
          { env, stdio: ['ignore', 'ignore', 'pipe'] },
        );
        let stderr = '';
        child.stderr.on('data', (d) => (stderr += d));
        child.on('exit', (code) => {
          rmSync(out, { force: true });
          const total = /Collected : (\d+)/.exec(stderr)?.[1];
          // A run that failed (a timeout under valgrind's slowness) counts nothing.
          if (code !== 0)
            console.log(
              `callgrind of ${args.join(' ')} exited ${code}: ${stderr
                .split('\n')
                .filter((l) => !l.startsWith('=='))
                .join(' ')
                .slice(0, 300)}`,
            );
          resolve(total && code === 0 ? Number(total) : NaN);
        });
      });
    const counts = {
      'node -e 0': await counted([process.execPath, '-e', '0']),
      'named-checkzone -i none': await counted([checkzone, '-q', '-i', 'none', ZONE, file]),
      'ddedge zone plan (no change)': await counted([process.execPath, ddedge, 'zone', 'plan', file]),
      ...(before ? { [beforeRow]: await counted([process.execPath, before, 'zone', 'plan', file]) } : {}),
    };
    const base = counts['named-checkzone -i none'];
    console.log('\nInstructions (valgrind callgrind, one run each):\n');
    console.log('| program | instructions | × named-checkzone |');
    console.log('|---|---:|---:|');
    for (const [name, n] of Object.entries(counts))
      console.log(
        `| ${name} | ${Number.isNaN(n) ? 'failed' : `${(n / 1e6).toFixed(0)} M`} | ${(n / base).toFixed(2)} |`,
      );
  }
}

// Where the plan's time goes: self time by function, one profiled run of each workload.
for (const [label, on] of process.env.BENCH_PROFILE === '0'
  ? []
  : [
      ['no change', env],
      ['near-empty zone', emptyEnv],
    ]) {
  const dir = join(work, `profile-${on === env ? 'held' : 'empty'}`);
  // Spawned, not spawnSync: this process's event loop serves the TLS front the plan talks to.
  await runOnce(
    { name: 'profiled zone plan', args: ['--cpu-prof', `--cpu-prof-dir=${dir}`, ddedge, 'zone', 'plan', file] },
    on,
  ).catch(() => undefined);
  const profile = JSON.parse(
    readFileSync(
      join(
        dir,
        readdirSync(dir).find((f) => f.endsWith('.cpuprofile')),
      ),
      'utf8',
    ),
  );
  console.log(`\nThe profiled zone plan (${label}), functions by self time (share of all samples):\n`);
  for (const line of topSelfTime(profile)) console.log(line);
}
for (const proxy of proxies) proxy.close();
agent.destroy();
process.exit(0);

/** Self time by function (name, file, line), as shares of all samples. */
function topSelfTime(p) {
  const nodes = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map();
  let total = 0;
  for (let i = 0; i < p.samples.length; i++) {
    const { callFrame: f } = nodes.get(p.samples[i]);
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    const dt = p.timeDeltas[i] ?? 0;
    self.set(key, (self.get(key) ?? 0) + dt);
    total += dt;
  }
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP)
    .map(([key, t]) => `${((100 * t) / total).toFixed(1)}% ${(t / 1000).toFixed(0)} ms ${key}`);
}
