// node bench/dns-profile.mjs [zone sizes...] (after npm run build; needs dnsperf): runs the
// sandbox under `node --cpu-prof`, loads a zone, puts it under dnsperf load (the questions of
// bench/dns.mjs) and prints the functions with the most self time, per zone size, so a per-query
// cost that grows with the zone shows up as a function whose share grows with it. The profile
// covers the whole process (the zone's upload and first index too, a few per cent at 50,000).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dnsperf, has, ZONE, zoneRecords } from './dns-servers.mjs';

const SECONDS = Number(process.env.BENCH_DNS_SECONDS ?? 5);
const TOP = 15;
const ddedge = join(import.meta.dirname, '..', 'dist', 'ddedge.mjs');
const work = mkdtempSync(join(tmpdir(), 'ddedge-dns-profile-'));
if (!has('dnsperf', ['-h'])) throw new Error('dnsperf is not installed (apt-get install dnsperf)');

async function profile(size) {
  const dir = join(work, `profile-${size}`);
  const child = spawn(
    process.execPath,
    ['--cpu-prof', `--cpu-prof-dir=${dir}`, ddedge, 'sandbox', '--port', '0', '--dns-port', '0', '--json'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stderr.on('data', () => undefined);
  const info = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(JSON.parse(String(d)))));
  const call = async (path, fields) => {
    const body = new URLSearchParams({ apiuser: info.apiUser, apipasswd: info.apiPassword, ...fields });
    const answer = await (await fetch(`${info.apiUrl}/${path}/`, { method: 'POST', body })).json();
    if (!answer.success) throw new Error(`${path}: ${answer.errorCodeMsg}`);
  };
  await call('service/create', { serviceName: ZONE, productkey: 'corporate' });
  await call('service/dnssetzone', {
    serviceName: ZONE,
    dnsZoneData: Buffer.from(JSON.stringify(zoneRecords(size))).toString('base64'),
  });
  const file = join(work, `queries-${size}.txt`);
  const names = Array.from({ length: 1000 }, (_, i) =>
    i % 4 === 3 ? `nope${i}.${ZONE}` : `h${1 + ((i * 7919) % size)}.${ZONE}`,
  );
  writeFileSync(file, names.map((n) => `${n} A`).join('\n') + '\n');
  const { qps } = await dnsperf(info.dnsPort, file, SECONDS);
  // SIGINT: the sandbox exits normally, and only then does node write the profile.
  child.kill('SIGINT');
  await new Promise((resolve) => child.once('exit', resolve));
  const name = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  return { qps, top: topSelfTime(JSON.parse(readFileSync(join(dir, name), 'utf8'))) };
}

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
    .map(([key, t]) => `${((100 * t) / total).toFixed(1)}% ${key}`);
}

const sizes = process.argv.slice(2).map(Number);
for (const size of sizes.length ? sizes : [5, 50_000]) {
  const { qps, top } = await profile(size);
  console.log(`\n### zone of ${size} records: ${Math.round(qps)} q/s under the profiler (${SECONDS} s of dnsperf)\n`);
  for (const line of top) console.log(line);
}
