// node bench/instructions.mjs (after npm run build): the cycle's rows of bench/run.mjs counted
// in instructions (valgrind --tool=callgrind), which waiting and other processes do not change,
// so a before/after difference of 1% shows on a machine too busy for wall time to. Each row is
// run BENCH_INSTRUCTION_RUNS times (3) and the least count kept, less V8's hash seed (below):
// a few million instructions of Node's start vary from run to run. Ratios to `node -e 0`
// and to each row's floor. BENCH_COMPARE=/other/dist/ddedge.mjs adds another build's rows
// (several builds: paths separated by commas).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentEnv, makeTls, startEcho, startSandbox, startWhoamiDns } from './servers.mjs';

if (spawnSync('valgrind', ['--version']).error) {
  console.log('bench/instructions.mjs: valgrind is not installed (apt-get install valgrind); skipped');
  process.exit(0);
}
const RUNS = Number(process.env.BENCH_INSTRUCTION_RUNS ?? 3);
// What the package's bin and /usr/bin/ddedge run (the CommonJS launcher), and the ES module
// entry the contract names, run directly.
const ddedge = join(import.meta.dirname, '..', 'dist', 'ddedge.cjs');
const ddedgeEsm = join(import.meta.dirname, '..', 'dist', 'ddedge.mjs');
// Under valgrind (some 50 times slower) on a busy machine an answer can take minutes; a longer
// deadline than the default 15 s (5m, the most --timeout takes) changes no work done.
process.env.DDEDGE_TIMEOUT ??= '5m';
const work = mkdtempSync(join(tmpdir(), 'ddedge-bench-instructions-'));
const tls = makeTls(work);
const echoA = await startEcho(tls, '81.0.2.15\n');
const echoB = await startEcho(tls, '81.0.2.15');
const opendns = await startWhoamiDns('81.0.2.15');
const googleDns = await startWhoamiDns('81.0.2.15');
const sandbox = await startSandbox(ddedge, tls);
const stateDir = join(work, 'state');
const env = agentEnv({ work, tls, info: sandbox.info, stateDir, sources: [echoA, echoB] });
const defaultsEnv = {
  ...env,
  DDEDGE_IP_SOURCES: [
    `dns:myip.opendns.com@${opendns.server}`,
    `dns-txt:o-o.myaddr.l.google.com@${googleDns.server}`,
    `url:${echoA.url}`,
    `url:${echoB.url}`,
  ].join(','),
};
execFileSync(process.execPath, [ddedge, 'update', '--ip', '81.0.2.15'], { env, stdio: 'ignore' });
const freshState = () =>
  writeFileSync(
    join(stateDir, 'state.json'),
    JSON.stringify({
      version: 1,
      records: {
        'home.example.com/A': {
          host: 'home.example.com',
          type: 'A',
          address: '81.0.2.15',
          sentAt: new Date().toISOString(),
          via: 'dyndns',
        },
      },
    }),
  );

/**
 * V8 makes its string hash seed at each start with a random number of primality tests
 * (HashSeed::InitializeRoots: 3 to 12 M instructions here, differently in every run, in every
 * row). The rows are compared without them: the count less that function's inclusive cost, read
 * from callgrind's profile by callgrind_annotate; runs of one build then agree within 0.5 M (the
 * rows with HTTPS within about 3 M: how the handshakes and answers meet varies).
 */
const SEED = /^\s*([\d,]+) .*v8::internal::HashSeed::InitializeRoots/m;

/** Millions of instructions of one run, all and less the hash seed (asynchronous: the servers answer from this process). */
function count(args, runEnv) {
  freshState();
  const profile = join(work, 'callgrind.out');
  return new Promise((resolve, reject) => {
    const child = spawn(
      'valgrind',
      ['--tool=callgrind', `--callgrind-out-file=${profile}`, process.execPath, ...args],
      {
        env: runEnv,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => {
      const collected = /Collected : (\d+)/.exec(stderr)?.[1];
      if (code !== 0 || !collected) return reject(new Error(`${args.join(' ')} exited ${code}: ${stderr.slice(-800)}`));
      const annotated = spawnSync('callgrind_annotate', ['--inclusive=yes', '--threshold=100', profile], {
        encoding: 'utf8',
        maxBuffer: 256 * 1024 * 1024,
      }).stdout;
      const seed = Number(SEED.exec(annotated ?? '')?.[1]?.replaceAll(',', '') ?? 0);
      rmSync(profile, { force: true });
      resolve({ all: Number(collected) / 1e6, net: (Number(collected) - seed) / 1e6 });
    });
  });
}

// BENCH_COMPARE: one build's dist/ddedge.mjs (or .cjs), or several, comma-separated.
const compared = (process.env.BENCH_COMPARE ?? '').split(',').filter(Boolean);
const builds = [
  ['', ddedge],
  ...compared.map((file, i) => [compared.length > 1 ? ` [compare ${i + 1}]` : ' [compare]', file]),
];
const rows = [
  { name: 'node -e 0', args: ['-e', '0'], env },
  { name: 'floor: 2 HTTPS GETs', args: [join(import.meta.dirname, 'floor.cjs'), echoA.url, echoB.url], env },
  {
    name: 'floor: 2 DNS questions',
    args: [join(import.meta.dirname, 'floor-dns.cjs'), opendns.server, googleDns.server],
    env,
  },
  ...builds.flatMap(([label, file]) => [
    { name: `(a) 2 HTTPS sources, unchanged${label}`, args: [file, 'update'], env, floor: 'floor: 2 HTTPS GETs' },
    ...(file === ddedge
      ? [
          {
            name: '(a) 2 HTTPS sources, unchanged, run as node dist/ddedge.mjs',
            args: [ddedgeEsm, 'update'],
            env,
            floor: 'floor: 2 HTTPS GETs',
          },
        ]
      : []),
    { name: `(c) --ip given, unchanged${label}`, args: [file, 'update', '--ip', '81.0.2.15'], env },
    {
      name: `(d) the default sources' shape (DNS first), unchanged${label}`,
      args: [file, 'update'],
      env: defaultsEnv,
      floor: 'floor: 2 DNS questions',
    },
  ]),
];
const counts = new Map(rows.map((r) => [r.name, []]));
// Rounds, each row once: a change of the machine's state meets every row alike.
for (let round = 0; round < RUNS; round++)
  for (const row of rows) counts.get(row.name).push(await count(row.args, row.env));
const least = (name, kind = 'net') => Math.min(...counts.get(name).map((c) => c[kind]));
console.log(
  `instructions (callgrind; least of ${RUNS} runs each), node ${process.version}, ${new Date().toISOString()}\n`,
);
for (const [title, file] of compared.map((file, i) => [compared.length > 1 ? `[compare ${i + 1}]` : '[compare]', file]))
  console.log(`${title}: ${file}`);
console.log(
  '\n| scenario | M instructions less the hash seed | × node -e 0 | × its floor | all runs, less the seed | M instructions |',
);
console.log('|---|---:|---:|---:|---|---:|');
for (const row of rows) {
  const m = least(row.name);
  const runs = counts
    .get(row.name)
    .map((c) => c.net.toFixed(1))
    .join(', ');
  const vsFloor = row.floor ? (m / least(row.floor)).toFixed(3) : '';
  console.log(
    `| ${row.name} | ${m.toFixed(1)} | ${(m / least('node -e 0')).toFixed(3)} | ${vsFloor} | ${runs} | ${least(row.name, 'all').toFixed(1)} |`,
  );
}
sandbox.child.kill('SIGTERM');
rmSync(work, { recursive: true, force: true });
process.exit(0);
