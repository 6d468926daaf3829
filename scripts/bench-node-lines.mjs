// The unchanged `--ip` cycle on every maintained Node line, against that Node's `node -e 0`
// (issue 20): `node scripts/bench-node-lines.mjs [ROUNDS]` after `npm run build` (and `npm run
// build:binaries` for the single executable's row). Each line runs dist/ddedge.mjs with the code
// cache made for it: Node 20 (the build's) takes the cache beside the chunks; the others make
// theirs in a cache folder on a first run, as a user's first run does (src/cli/launcher.ts).
// Rounds are interleaved so that the machine's drift hits every row alike; medians of wall
// time and of CPU time (user + system, steadier on a loaded machine).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { median, runOnce } from '../bench/measure.mjs';

const root = resolve(import.meta.dirname, '..');
const rounds = Number(process.argv[2] ?? 15);
const work = mkdtempSync(join(tmpdir(), 'ddedge-bench-lines-'));
const stateDir = join(work, 'state');
mkdirSync(stateDir);
const record = { host: 'home.example.com', type: 'A', address: '81.0.2.15', sentAt: new Date().toISOString(), via: 'dyndns' };
writeFileSync(join(stateDir, 'state.json'), JSON.stringify({ version: 1, records: { 'home.example.com/A': record } }));
const env = { PATH: process.env.PATH, HOME: work, DDEDGE_HOSTS: 'home.example.com', DDEDGE_DYNDNS_USER: 'u', DDEDGE_DYNDNS_KEY: 'k', DDEDGE_STATE_DIR: stateDir };
const dist = join(root, 'dist', 'ddedge.mjs');
const cycle = ['update', '--ip', '81.0.2.15'];

const lines = [['20', process.execPath], ...['22', '24', '26'].map((major) => [major, execFileSync(join(root, 'packaging', 'node.sh'), [major], { encoding: 'utf8' }).trim()])];
const rows = [];
for (const [major, node] of lines) {
  rows.push({ name: `node ${major} -e 0`, command: node, args: ['-e', '0'], line: major });
  rows.push({ name: `node ${major} ddedge cycle`, command: node, args: [dist, ...cycle], line: major });
}
const sea = join(root, 'dist', 'bin', `ddedge-linux-${process.arch}`);
if (existsSync(sea)) rows.push({ name: 'single executable cycle (26)', command: sea, args: cycle, line: '26' });

// Each line its own cache home: a user's folder keeps one Node's caches, and a run of another
// Node replaces them. The first run of each makes them.
const envOf = (row) => ({ ...env, XDG_CACHE_HOME: join(work, `cache-${row.line}`) });
for (const row of rows) {
  const out = execFileSync(row.command, row.args, { env: envOf(row), encoding: 'utf8' });
  if (row.args.includes('update') && out !== 'home.example.com A 81.0.2.15 unchanged\n') throw new Error(`${row.name} printed ${out}`);
}
const times = new Map(rows.map((row) => [row, { ms: [], cpu: [] }]));
for (let round = 0; round < rounds; round++) {
  for (const row of rows) times.get(row).ms.push((await runOnce(row, envOf(row))).ms);
  for (const row of rows) times.get(row).cpu.push((await runOnce(row, envOf(row), true)).cpuMs);
}
const floor = (line, key) => median(times.get(rows.find((r) => r.line === line && r.args[0] === '-e'))[key]);
console.log(`${rounds} interleaved rounds; ratios to the same Node's node -e 0`);
for (const row of rows) {
  const ms = median(times.get(row).ms);
  const cpu = median(times.get(row).cpu);
  console.log(`${row.name.padEnd(30)} wall ${ms.toFixed(1).padStart(6)} ms (${(ms / floor(row.line, 'ms')).toFixed(2)} x)   cpu ${cpu.toFixed(1).padStart(6)} ms (${(cpu / floor(row.line, 'cpu')).toFixed(2)} x)`);
}
