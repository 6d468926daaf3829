// node bench/gateway.mjs (after npm run build): a zone transfer of 5,000 records from
// `ddedge gateway` (in front of the sandbox, which holds the zone) beside the same transfer
// from NSD serving the same records from a file, both with the same TSIG key and timed as
// `dig ... AXFR` takes them (wall time of the whole dig run, medians of BENCH_RUNS, taking
// turns). What the gateway reads from the provider happens once at its start, outside the timing.
// Then its memory: the peak RSS (VmHWM) of a gateway once it answers (after one query, then after an AXFR),
// in front of a small zone (5 records) and a 50,000-record one, beside the peak RSS of `node -e 0`,
// in interleaved rounds (BENCH_MEMORY_RUNS, 3 by default); BENCH_GATEWAY_BEFORE=<a checkout, built>
// adds that build's gateways to the rounds (a before and after in one run). The gateways run
// dist/ddedge.cjs, as the installed `ddedge` (and so its systemd unit) runs it; BENCH_GATEWAY_MEMORY_ONLY=1
// measures the memory alone (no transfer timing, no NSD).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, has, startDnsSandbox, startNsd, ZONE, zoneRecords } from './dns-servers.mjs';
import { runOnce } from './measure.mjs';

const ROUNDS = Number(process.env.BENCH_RUNS ?? 7);
const RECORDS = 5000;
const MEMORY_ONLY = Boolean(process.env.BENCH_GATEWAY_MEMORY_ONLY);
const ddedge = join(import.meta.dirname, '..', 'dist', 'ddedge.mjs');
/** The launcher the installed `ddedge` runs (an older build without one: its ES module). */
const installed = (dist) =>
  existsSync(join(dist, 'ddedge.cjs')) ? join(dist, 'ddedge.cjs') : join(dist, 'ddedge.mjs');
const work = mkdtempSync(join(tmpdir(), 'ddedge-bench-gateway-'));
if (!has('dig')) {
  console.log('bench/gateway.mjs: dig is not installed (apt-get install bind9-dnsutils); skipped');
  process.exit(0);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const records = zoneRecords(RECORDS);
const sandbox = await startDnsSandbox(ddedge, records);
const keyText = execFileSync(process.execPath, [ddedge, 'gateway', 'keygen', 'xfr'], { encoding: 'utf8' });
const secret = /secret "([^"]+)"/.exec(keyText)[1];
writeFileSync(join(work, 'gateway.keys'), `${keyText}transfer "xfr";\n`, { mode: 0o600 });
/** `ddedge gateway` (of `program`) in front of `zoneSandbox`; resolves once it answers DNS, with its port. */
async function startGateway(program, zoneSandbox, state) {
  const child = spawn(
    process.execPath,
    [
      program,
      'gateway',
      '--zone',
      ZONE,
      '--keys',
      join(work, 'gateway.keys'),
      '--dns-listen',
      '127.0.0.1:0',
      '--primary-name',
      `ns1.${ZONE}`,
      '--state-dir',
      join(work, state),
    ],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        ...process.env,
        DDEDGE_API_URL: zoneSandbox.info.apiUrl,
        DDEDGE_API_USER: zoneSandbox.info.apiUser,
        DDEDGE_API_PASSWORD: zoneSandbox.info.apiPassword,
        DDEDGE_MAX_CALLS_PER_HOUR: '3600',
      },
    },
  );
  const port = await new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`the gateway did not start: ${text}`)), 300_000);
    child.once('exit', () => reject(new Error(`the gateway ended: ${text}`)));
    child.stderr.on('data', (d) => {
      text += String(d);
      const found = /answering DNS .* on 127\.0\.0\.1:(\d+)/.exec(text);
      if (found) {
        clearTimeout(timer);
        resolve(Number(found[1]));
      }
    });
  });
  return { child, port };
}
const stops = [() => sandbox.stop()];
process.on('exit', () =>
  stops.forEach((stop) => {
    stop();
  }),
);

/** One `dig AXFR` run: its wall time and the records it printed. */
function transfer(port, seconds = 10) {
  const started = process.hrtime.bigint();
  const out = execFileSync(
    'dig',
    [
      '@127.0.0.1',
      '-p',
      String(port),
      '-y',
      `hmac-sha256:xfr:${secret}`,
      `+time=${seconds}`,
      '+tries=1',
      '+noall',
      '+answer',
      ZONE,
      'AXFR',
    ],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  return { ms, records: out.split('\n').filter((l) => l && !l.startsWith(';') && !/\sTSIG\s/.test(l)).length };
}

/** The transfer timing: the gateway and NSD (when installed) in turns. */
async function transferTiming() {
  const started = await startGateway(ddedge, sandbox, 'state');
  const gateway = started.child;
  stops.push(() => gateway.kill('SIGTERM'));
  const nsdPort = has('nsd', ['-v']) ? await freePort() : undefined;
  if (nsdPort)
    stops.push((await startNsd(work, nsdPort, records, { name: 'xfr', algorithm: 'hmac-sha256', secret })).stop);
  const targets = [
    { title: 'ddedge gateway', port: started.port, times: [], records: 0 },
    ...(nsdPort
      ? [
          {
            title:
              `NSD ${/NSD version (\S+)/.exec(spawnSync('nsd', ['-v'], { encoding: 'utf8' }).stderr)?.[1] ?? ''}`.trim(),
            port: nsdPort,
            times: [],
            records: 0,
          },
        ]
      : []),
  ];
  for (const t of targets) t.records = transfer(t.port).records; // warm-up, and what each sends
  for (let i = 0; i < ROUNDS; i++) for (const t of targets) t.times.push(transfer(t.port).ms);

  const base = targets.at(-1);
  console.log(
    `\n### Zone transfer of ${RECORDS} records with TSIG (dig AXFR wall time, ${ROUNDS} runs, medians; node ${process.version})\n`,
  );
  console.log('| server | records received | median | ratio |\n|---|---|---|---|');
  // NSD sends the glue of ns1 besides; the gateway leaves NS and glue to the provider's zone.
  for (const t of targets)
    console.log(
      `| ${t.title} | ${t.records} | ${median(t.times).toFixed(1)} ms | ${(median(t.times) / median(base.times)).toFixed(2)} x ${base.title.split(' ')[0]} |`,
    );
  if (!nsdPort) console.log('\nNSD is not installed (apt-get install nsd): the gateway is shown alone.');
  gateway.kill('SIGTERM');
}
if (!MEMORY_ONLY) await transferTiming();

// The gateway's memory: its peak RSS once answering (after one AXFR and one query), by zone size.
const MEMORY_ROUNDS = Number(process.env.BENCH_MEMORY_RUNS ?? 3);
const loadBefore = loadavg()
  .map((l) => l.toFixed(2))
  .join(' ');
const peakMb = (pid) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
const builds = [['this build', installed(join(import.meta.dirname, '..', 'dist'))]];
if (process.env.BENCH_GATEWAY_BEFORE)
  builds.push([
    `the build in ${process.env.BENCH_GATEWAY_BEFORE}`,
    installed(join(process.env.BENCH_GATEWAY_BEFORE, 'dist')),
  ]);
const small = await startDnsSandbox(ddedge, zoneRecords(5));
const large = await startDnsSandbox(ddedge, zoneRecords(50_000));
stops.push(small.stop, large.stop);
const peaks = new Map([['node -e 0', []]]);
for (let round = 0; round < MEMORY_ROUNDS; round++) {
  peaks
    .get('node -e 0')
    .push((await runOnce({ name: 'node -e 0', args: ['-e', '0'] }, process.env, true)).rssKb / 1024);
  for (const [build, program] of builds)
    for (const [size, zoneSandbox] of [
      ['5 records', small],
      ['50,000 records', large],
    ]) {
      const row = `gateway (${build}), ${size}`;
      const running = await startGateway(program, zoneSandbox, `memory-${round}-${peaks.size}`);
      stops.push(() => running.child.kill('SIGTERM'));
      execFileSync('dig', ['@127.0.0.1', '-p', String(running.port), '+time=10', '+tries=1', `h1.${ZONE}`, 'A']);
      if (!peaks.has(row)) peaks.set(row, []);
      peaks.get(row).push(peakMb(running.child.pid));
      // A busy machine may take a while over 50,000 records.
      transfer(running.port, 120);
      if (!peaks.has(`${row}, after an AXFR`)) peaks.set(`${row}, after an AXFR`, []);
      peaks.get(`${row}, after an AXFR`).push(peakMb(running.child.pid));
      running.child.kill('SIGTERM');
      await new Promise((resolve) => running.child.once('exit', resolve));
    }
}
const node = median(peaks.get('node -e 0'));
const loadAfter = loadavg()
  .map((l) => l.toFixed(2))
  .join(' ');
console.log(
  "\n### The gateway's peak RSS once answering (VmHWM after one query, then after an AXFR of the whole zone; " +
    `${MEMORY_ROUNDS} interleaved rounds, medians; load average ${loadBefore} before, ${loadAfter} after)\n`,
);
console.log('| process | peak RSS MiB | × node -e 0 | runs (MiB) |\n|---|---:|---:|---|');
for (const [row, values] of peaks)
  console.log(
    `| ${row} | ${median(values).toFixed(1)} | ${(median(values) / node).toFixed(2)} | ` +
      `${values.map((v) => v.toFixed(1)).join(' ')} |`,
  );

// The servers' pipes would keep this process (and bench/all.mjs after it) waiting: stop them now.
stops.forEach((stop) => {
  stop();
});
