// npm run bench: whole-process wall time and peak memory of the built ddedge, each as a
// ratio to `node -e 0` measured in the same run (machines here are noisy; ratios travel),
// beside the floor (a minimal Node script making the same HTTPS requests) and Debian's
// ddclient doing the same job. Local servers only, on 127.0.0.1, answering at once; each
// row shows the requests its contender made, so a row doing less (or more) work is visible.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measure, median, runOnce, table } from './measure.mjs';
import { agentEnv, makeTls, startEcho, startSandbox, startWhoamiDns } from './servers.mjs';

const RUNS = Math.max(Number(process.env.BENCH_RUNS ?? 15), 1);
const root = join(import.meta.dirname, '..');
// What the package's bin and /usr/bin/ddedge run, and so the timer: the CommonJS launcher.
const ddedge = join(root, 'dist', 'ddedge.cjs');
// The entry the contract names, for `node dist/ddedge.mjs`: the same launcher as an ES module.
const ddedgeEsm = join(root, 'dist', 'ddedge.mjs');
const floor = join(import.meta.dirname, 'floor.cjs');
const floorDns = join(import.meta.dirname, 'floor-dns.cjs');
const work = mkdtempSync(join(tmpdir(), 'ddedge-bench-'));
// The same floor as an ES module. Node starts its ESM loader for any .mjs entry (such as
// dist/ddedge.mjs run directly); this row shows what that alone costs, same run.
const floorEsm = join(work, 'floor.mjs');
const floorEsmText = readFileSync(floor, 'utf8').replace(
  "const https = require('node:https');",
  "import https from 'node:https';",
);
if (floorEsmText.includes('require('))
  throw new Error('bench/floor.cjs changed: update its ES module twin in bench/run.mjs');
writeFileSync(floorEsm, floorEsmText);

const tls = makeTls(work);
const echoA = await startEcho(tls, '81.0.2.15\n');
const echoB = await startEcho(tls, '81.0.2.15');
// Stand-ins for the default sources that are asked first: OpenDNS's resolver and Google's
// name server, each answering its own whoami question.
const opendns = await startWhoamiDns('81.0.2.15');
const googleDns = await startWhoamiDns('81.0.2.15');
const sandbox = await startSandbox(ddedge, tls);
const { info } = sandbox;
const count = async (settle = true) => {
  if (settle) await sandbox.settle();
  return {
    dns: opendns.queries + googleDns.queries,
    echo: echoA.requests + echoB.requests,
    provider: sandbox.requests,
  };
};

const stateDir = join(work, 'state');
const baseEnv = agentEnv({ work, tls, info, stateDir, sources: [echoA, echoB] });
const freshState = (address) =>
  writeFileSync(
    join(stateDir, 'state.json'),
    JSON.stringify({
      version: 1,
      records: {
        'home.example.com/A': {
          host: 'home.example.com',
          type: 'A',
          address,
          sentAt: new Date().toISOString(),
          via: 'dyndns',
        },
      },
    }),
  );
execFileSync(process.execPath, [ddedge, 'update', '--ip', '81.0.2.15'], { env: baseEnv });

const COMMON = '(a) ddedge: 2 HTTPS sources, unchanged, nothing sent';
const DEFAULTS = "(d) ddedge: the default sources' shape (2 DNS, then 2 HTTPS), unchanged, nothing sent";
const FLOOR_DNS = 'floor: node script, the same 2 DNS questions';
// The default list on loopback: the DNS sources first, then the HTTPS echoes (asked only if
// the DNS answers fail or disagree); the provider's side as in the other rows.
const defaultsEnv = {
  ...baseEnv,
  DDEDGE_IP_SOURCES: [
    `dns:myip.opendns.com@${opendns.server}`,
    `dns-txt:o-o.myaddr.l.google.com@${googleDns.server}`,
    `url:${echoA.url}`,
    `url:${echoB.url}`,
  ].join(','),
};
const FLOOR = 'floor: node script, the same 2 HTTPS GETs';
const FLOOR_ESM = 'floor as an ES module (.mjs), the same 2 HTTPS GETs';
const cycleScenarios = (entry, label = '') => [
  { name: `${COMMON}${label}`, args: [entry, 'update'], setup: () => freshState('81.0.2.15') },
  {
    name: `(b) ddedge: 2 sources, changed, sent by dynamic DNS over HTTPS${label}`,
    args: [entry, 'update'],
    setup: () => freshState('81.0.2.99'),
  },
  {
    name: `(c) ddedge: --ip given and unchanged${label}`,
    args: [entry, 'update', '--ip', '81.0.2.15'],
    setup: () => freshState('81.0.2.15'),
  },
  { name: `${DEFAULTS}${label}`, args: [entry, 'update'], env: defaultsEnv, setup: () => freshState('81.0.2.15') },
];
// The yardstick, where Debian's ddclient is installed, configured as its documentation does
// today (usev4=webv4; `use=` is deprecated in 3.10): one HTTPS echo source, a cache saying the
// address is unchanged and recent, the sandbox as its server (so a send would be counted).
const ddclientPath = ['/usr/bin/ddclient', '/usr/sbin/ddclient'].find((p) => existsSync(p));
const ddclientConf = join(work, 'ddclient.conf');
const ddclientCache = join(work, 'ddclient.cache');
if (ddclientPath) {
  const conf = [
    'ssl=yes',
    `ssl_ca_file=${tls.ca}`,
    `usev4=webv4, webv4=${echoA.url}`,
    'protocol=dondominio',
    `server=${new URL(info.dyndnsUrl).host}`,
    `login=${info.dyndnsUser}`,
    `password=${info.dyndnsKey}`,
    'home.example.com',
    '',
  ];
  writeFileSync(ddclientConf, conf.join('\n'), { mode: 0o600 });
}
const ddclientCacheFresh = () => {
  const now = Math.round(Date.now() / 1000);
  writeFileSync(
    ddclientCache,
    `## ddclient-3.10.0\nip=81.0.2.15,ipv4=81.0.2.15,mtime=${now},atime=${now},status=good,status-ipv4=good,host=home.example.com home.example.com\n`,
  );
};
const oneSource = [
  { name: 'floor: node script, 1 HTTPS GET', args: [floor, echoA.url] },
  {
    name: 'ddedge: 1 HTTPS source, unchanged, nothing sent',
    args: [ddedge, 'update', '--ip-source', `url:${echoA.url}`],
    setup: () => freshState('81.0.2.15'),
  },
  ...(ddclientPath
    ? [
        {
          name: 'ddclient 3.10 (usev4=webv4): 1 HTTPS source, unchanged, nothing sent',
          command: ddclientPath,
          args: ['-daemon=0', '-foreground', '-quiet', '-file', ddclientConf, '-cache', ddclientCache],
          setup: ddclientCacheFresh,
        },
      ]
    : []),
];

// BENCH_COMPARE=/path/to/other/dist/ddedge.mjs measures another build in the same run, so a
// before/after comparison sees the same machine noise (several builds: paths separated by commas).
const compared = (process.env.BENCH_COMPARE ?? '').split(',').filter(Boolean);
const scenarios = [
  { name: 'node -e 0', args: ['-e', '0'] },
  { name: FLOOR, args: [floor, echoA.url, echoB.url] },
  { name: FLOOR_ESM, args: [floorEsm, echoA.url, echoB.url] },
  { name: FLOOR_DNS, args: [floorDns, opendns.server, googleDns.server] },
  ...cycleScenarios(ddedge),
  {
    name: `${COMMON}, run as node dist/ddedge.mjs`,
    args: [ddedgeEsm, 'update'],
    setup: () => freshState('81.0.2.15'),
  },
  ...compared.flatMap((file, i) => cycleScenarios(file, compared.length > 1 ? ` [compare ${i + 1}]` : ' [compare]')),
  ...oneSource,
];
const results = await measure(scenarios, baseEnv, RUNS, count);
console.log(
  `ddedge bench: medians of ${RUNS} interleaved runs each, node ${process.version}, ${new Date().toISOString()}\n`,
);
for (const [i, file] of compared.entries()) console.log(`[compare${compared.length > 1 ? ` ${i + 1}` : ''}]: ${file}`);
console.log(table(results, { floor: FLOOR }));
const row = (name) => results.find((r) => r.name === name);
const nodeRow = results[0];
console.log(
  `\ncommon cycle: ${(row(COMMON).ms / row(FLOOR).ms).toFixed(2)} x the floor in wall time (target 1.10), ${(row(COMMON).cpuMs / row(FLOOR).cpuMs).toFixed(2)} x in CPU time; peak RSS ${(row(COMMON).rssKb / nodeRow.rssKb).toFixed(2)} x node -e 0 (target 1.20)`,
);
const ddclientRow = results.find((r) => r.name.startsWith('ddclient'));
console.log(
  `default sources (DNS first): ${(row(DEFAULTS).ms / row(FLOOR_DNS).ms).toFixed(2)} x their floor in wall time, ${(row(DEFAULTS).cpuMs / row(FLOOR_DNS).cpuMs).toFixed(2)} x in CPU time; peak RSS ${(row(DEFAULTS).rssKb / nodeRow.rssKb).toFixed(2)} x node -e 0${ddclientRow ? `; ${(row(DEFAULTS).ms / ddclientRow.ms).toFixed(2)} x ddclient's wall time (goal 1.0), ${(row(DEFAULTS).cpuMs / ddclientRow.cpuMs).toFixed(2)} x its CPU time` : ''}`,
);
console.log(
  `the floor as an ES module: ${(row(FLOOR_ESM).ms / row(FLOOR).ms).toFixed(2)} x the floor in wall time, ${(row(FLOOR_ESM).cpuMs / row(FLOOR).cpuMs).toFixed(2)} x in CPU time; the common cycle is ${(row(COMMON).ms / row(FLOOR_ESM).ms).toFixed(2)} x and ${(row(COMMON).cpuMs / row(FLOOR_ESM).cpuMs).toFixed(2)} x of it`,
);
const esmRow = row(`${COMMON}, run as node dist/ddedge.mjs`);
console.log(
  `the common cycle run as node dist/ddedge.mjs: ${(esmRow.ms / row(FLOOR).ms).toFixed(2)} x the floor in wall time, ${(esmRow.cpuMs / row(FLOOR).cpuMs).toFixed(2)} x in CPU time; peak RSS ${(esmRow.rssKb / nodeRow.rssKb).toFixed(2)} x node -e 0`,
);
if (process.env.BENCH_CYCLE_ONLY) {
  sandbox.child.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
  process.exit(0);
}
const scenarios0 = scenarios[0];

// The sandbox: from spawning `ddedge sandbox` to the answer of its first tool/hello.
async function sandboxStart() {
  const started = performance.now();
  const child = spawn(process.execPath, [ddedge, 'sandbox', '--port', '0', '--json'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const line = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(JSON.parse(String(d)))));
  await fetch(`${line.apiUrl}/tool/hello/`, {
    method: 'POST',
    body: new URLSearchParams({ apiuser: line.apiUser, apipasswd: line.apiPassword }),
  }).then((r) => r.json());
  const ms = performance.now() - started;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.on('exit', resolve));
  return ms;
}
const sandboxTimes = [];
const baselineTimes = [];
for (let i = 0; i < RUNS; i++) {
  sandboxTimes.push(await sandboxStart());
  baselineTimes.push((await runOnce(scenarios0, baseEnv)).ms);
}
console.log(
  `\nsandbox: start and answer tool/hello in ${median(sandboxTimes).toFixed(1)} ms, ${(median(sandboxTimes) / median(baselineTimes)).toFixed(2)} x node -e 0`,
);

// The SDK over keep-alive: 1,000 tool/hello calls against the sandbox (HTTPS), next to the
// same calls each on a fresh connection.
const { Registrar } = await import(join(root, 'dist', 'sdk.mjs'));
const { Agent } = await import('undici');
const ca = readFileSync(join(work, 'ca.pem'));
const sdkOptions = (dispatcher) => ({ url: info.apiUrl, user: info.apiUser, password: info.apiPassword, dispatcher });
const CALLS = 1000;
const keepAlive = new Registrar(sdkOptions(new Agent({ connections: 3, connect: { ca } })));
await keepAlive.tool.hello();
let started = performance.now();
for (let i = 0; i < CALLS; i++) await keepAlive.tool.hello();
const keepAliveRate = CALLS / ((performance.now() - started) / 1000);
await keepAlive.close();
started = performance.now();
for (let i = 0; i < CALLS; i++) {
  const fresh = new Registrar(sdkOptions(new Agent({ connect: { ca } })));
  await fresh.tool.hello();
  await fresh.close();
}
const freshRate = CALLS / ((performance.now() - started) / 1000);
console.log(
  `\nSDK: ${CALLS} tool/hello calls to the sandbox over HTTPS: ${keepAliveRate.toFixed(0)} calls/s over keep-alive, ${freshRate.toFixed(0)} calls/s on a fresh connection each (${(keepAliveRate / freshRate).toFixed(1)} x)`,
);

// What a cycle loads: the launcher, chunks/main.cjs and the chunks it requires statically,
// followed from there (the chunks a cycle loads on first use, as the API path, are counted apart).
const dist = join(root, 'dist');
const chunkDir = join(dist, 'chunks');
// A static require is any but those inside a promise, which is how an import() reads in a chunk.
const requiresOf = (file) =>
  [...readFileSync(file, 'utf8').matchAll(/(__toESM\(|=>)?require\("(\.[^"]+\.cjs)"\)/g)]
    .filter((m) => !m[1])
    .map((m) => join(file, '..', m[2]));
const closure = (files) => {
  const seen = new Set();
  const visit = (f) => {
    if (!seen.has(f)) {
      seen.add(f);
      requiresOf(f).forEach(visit);
    }
  };
  files.forEach(visit);
  return seen;
};
const chunks = readdirSync(chunkDir)
  .filter((f) => f.endsWith('.cjs'))
  .map((f) => join(chunkDir, f));
const byPrefix = (prefix) => chunks.filter((f) => f.split('/').pop().startsWith(prefix));
const bytes = (files) => [...files].reduce((sum, f) => sum + statSync(f).size, 0);
const updatePath = closure([join(chunkDir, 'main.cjs')]);
const caches = [...updatePath].filter((f) => existsSync(`${f}.v8cache`));
// The API path: the record writer, the client built from the configuration, and its undici pool.
const apiPath = closure(['via-api-', 'api-client-', 'undici-transport-'].flatMap(byPrefix));
console.log(
  `\nbundle: launcher dist/ddedge.cjs ${statSync(ddedge).size} B (dist/ddedge.mjs ${statSync(ddedgeEsm).size} B); a cycle runs ${bytes(updatePath)} B in ${updatePath.size} chunks, ${caches.length} of them with a code cache (${bytes(caches.map((f) => `${f}.v8cache`))} B);`,
);
console.log(
  `the API path adds ${bytes([...apiPath].filter((f) => !updatePath.has(f)))} B (undici); the command in all ${bytes([ddedge, ...chunks])} B (dist/ddedge.cjs and its chunks)`,
);

sandbox.child.kill('SIGTERM');
rmSync(work, { recursive: true, force: true });
process.exit(0);
