// node bench/gateway-updates.mjs (after npm run build): what one dynamic update costs the
// gateway as the zone grows. `ddedge gateway` in front of `ddedge sandbox` holding a zone of
// 5 and of 50,000 records; nsupdate sends one-record adds, one after another, each to a name
// of its own. Per update: the provider calls it made (counted from the sandbox's request log,
// so nothing the gateway says about itself) and the wall time of the nsupdate run, beside
// `node -e 0` measured in the same run. The gateway's first reading of the zone at its start is
// shown apart. Medians of BENCH_RUNS updates per zone size.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { has, oneQuery, queryPacket, ZONE, zoneRecords } from './dns-servers.mjs';

const UPDATES = Number(process.env.BENCH_RUNS ?? 7);
const SIZES = [5, 50_000];
const ddedge = join(import.meta.dirname, '..', 'dist', 'ddedge.mjs');
const work = mkdtempSync(join(tmpdir(), 'ddedge-bench-gwupdates-'));
if (!has('nsupdate', ['-V'])) {
  console.log('bench/gateway-updates.mjs: nsupdate is not installed (apt-get install bind9-dnsutils); skipped');
  process.exit(0);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const wall = (file, args, options = {}) => {
  const started = process.hrtime.bigint();
  execFileSync(file, args, { stdio: ['pipe', 'ignore', 'pipe'], ...options });
  return Number(process.hrtime.bigint() - started) / 1e6;
};
const stops = [];
process.on('exit', () =>
  stops.forEach((stop) => {
    stop();
  }),
);

/** `ddedge sandbox` with a zone of `size` records, its request log counted as it comes. */
async function startSandbox(size) {
  const child = spawn(process.execPath, [ddedge, 'sandbox', '--port', '0', '--json'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  stops.push(() => child.kill('SIGTERM'));
  const counts = { calls: 0 };
  let log = '';
  child.stderr.on('data', (d) => {
    log += String(d);
    const lines = log.split('\n');
    log = lines.pop();
    counts.calls += lines.filter((l) => /^sandbox: POST \//.test(l)).length;
  });
  const info = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(JSON.parse(String(d)))));
  const call = async (path, fields) => {
    const body = new URLSearchParams({ apiuser: info.apiUser, apipasswd: info.apiPassword, ...fields });
    const answer = await (await fetch(`${info.apiUrl}/${path}/`, { method: 'POST', body })).json();
    if (!answer.success) throw new Error(`${path}: ${answer.errorCodeMsg} ${JSON.stringify(answer.messages)}`);
  };
  await call('service/create', { serviceName: ZONE, productkey: 'corporate' });
  await call('service/dnssetzone', {
    serviceName: ZONE,
    dnsZoneData: Buffer.from(JSON.stringify(zoneRecords(size))).toString('base64'),
  });
  return { info, counts, stop: () => child.kill('SIGTERM') };
}

/** Calls counted once the sandbox's log has caught up (its lines follow its answers). */
const settled = async (counts) => {
  await new Promise((r) => setTimeout(r, 150));
  return counts.calls;
};

async function startGateway(sandbox, keysFile, stateDir) {
  const started = process.hrtime.bigint();
  const gateway = spawn(
    process.execPath,
    [
      ddedge,
      'gateway',
      '--zone',
      ZONE,
      '--keys',
      keysFile,
      '--dns-listen',
      '127.0.0.1:0',
      '--primary-name',
      `ns1.${ZONE}`,
      '--state-dir',
      stateDir,
      '--refresh',
      '1h',
    ],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        ...process.env,
        DDEDGE_API_URL: sandbox.info.apiUrl,
        DDEDGE_API_USER: sandbox.info.apiUser,
        DDEDGE_API_PASSWORD: sandbox.info.apiPassword,
        DDEDGE_MAX_CALLS_PER_HOUR: '3600',
      },
    },
  );
  stops.push(() => gateway.kill('SIGTERM'));
  const port = await new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`the gateway did not start: ${text}`)), 120_000);
    gateway.once('exit', () => reject(new Error(`the gateway ended: ${text}`)));
    gateway.stderr.on('data', (d) => {
      text += String(d);
      const found = /answering DNS .* on 127\.0\.0\.1:(\d+)/.exec(text);
      if (found) {
        clearTimeout(timer);
        resolve(Number(found[1]));
      }
    });
  });
  return { port, startMs: Number(process.hrtime.bigint() - started) / 1e6, stop: () => gateway.kill('SIGTERM') };
}

const keyText = execFileSync(process.execPath, [ddedge, 'gateway', 'keygen', 'bench'], { encoding: 'utf8' });
const keysFile = join(work, 'gateway.keys');
writeFileSync(keysFile, `${keyText}grant "bench" zonesub;\n`, { mode: 0o600 });
writeFileSync(join(work, 'bench.key'), keyText);
const nodeFloor = median(Array.from({ length: 5 }, () => wall(process.execPath, ['-e', '0'])));

const rows = [];
for (const size of SIZES) {
  const sandbox = await startSandbox(size);
  const before = await settled(sandbox.counts);
  const gateway = await startGateway(sandbox, keysFile, join(work, `state-${size}`));
  const startCalls = (await settled(sandbox.counts)) - before;
  const calls = [];
  const times = [];
  const firstQueries = [];
  for (let i = 0; i < UPDATES; i++) {
    const script = `server 127.0.0.1 ${gateway.port}\nzone ${ZONE}\nupdate add bench-${i}.${ZONE} 300 TXT "update ${i}"\nsend\n`;
    const counted = await settled(sandbox.counts);
    times.push(wall('nsupdate', ['-k', join(work, 'bench.key'), '-t', '30'], { input: script }));
    // The first question about the name just added: what the update costs the next query.
    firstQueries.push(await oneQuery(gateway.port, queryPacket(`bench-${i}.${ZONE}`, 16)));
    calls.push((await settled(sandbox.counts)) - counted);
  }
  rows.push({
    size,
    startCalls,
    startMs: gateway.startMs,
    calls: median(calls),
    maxCalls: Math.max(...calls),
    ms: median(times),
    firstQueryMs: median(firstQueries),
    worstQueryMs: Math.max(...firstQueries),
  });
  gateway.stop();
  sandbox.stop();
  stops.length = 0;
}

const load = spawnSync('cat', ['/proc/loadavg'], { encoding: 'utf8' }).stdout?.split(' ').slice(0, 3).join(' ') ?? '?';
console.log(
  `\n### One-record nsupdate adds through the gateway, by zone size (${UPDATES} updates each, medians; node ${process.version}; load ${load})\n`,
);
console.log(`\`node -e 0\`: ${nodeFloor.toFixed(1)} ms\n`);
console.log(
  '| zone records | provider calls at start | provider calls per update (median / max) | wall time per update (nsupdate) | ratio to node -e 0 | first query after the update (median / worst) |\n|---|---|---|---|---|---|',
);
for (const r of rows)
  console.log(
    `| ${r.size.toLocaleString('en')} | ${r.startCalls} | ${r.calls} / ${r.maxCalls} | ${r.ms.toFixed(1)} ms | ${(r.ms / nodeFloor).toFixed(2)} x | ${r.firstQueryMs.toFixed(2)} / ${r.worstQueryMs.toFixed(2)} ms |`,
  );
