// node bench/acme-http.mjs (after npm run build): ACME over HTTP on the gateway's door, in front of
// the sandbox, as the clients send it. (1) Provider calls for one certificate with a wildcard (two
// values at _acme-challenge.example.com), read from the gateway's /metrics: httpreq (two presents,
// two cleanups, as lego sends them) and acme-dns (two updates, as goacmedns sends them; a first
// certificate, then a renewal, which replaces the older values). RFC 2136 takes 8 (bench/gateway-
// updates.mjs and test/e2e/gateway/acme-clients.test.ts). (2) Wall time from a `/present` to its
// answer, and from an acme-dns `/update` to its answer (median of BENCH_RUNS, each a new value),
// beside `node -e 0` timed in the same run.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDdedge } from './servers.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const ddedge = join(import.meta.dirname, '..', 'dist', 'ddedge.mjs');
const work = mkdtempSync(join(tmpdir(), 'ddedge-bench-acme-http-'));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const start = (args, env, stream, pattern) => startDdedge(ddedge, args, env, stream, pattern);

const sandbox = JSON.parse((await start(['sandbox', '--port', '0', '--json'], {}, 'stdout', /^\{.*\}$/m))[0]);
const keyText = spawnSync(process.execPath, [ddedge, 'gateway', 'keygen', 'acme'], { encoding: 'utf8' }).stdout;
const secret = /secret "([^"]+)"/.exec(keyText)[1];
writeFileSync(join(work, 'gateway.keys'), `${keyText}grant "acme" name _acme-challenge.example.com TXT;\n`, {
  mode: 0o600,
});
const started = await start(
  [
    'gateway',
    '--zone',
    'example.com',
    '--keys',
    join(work, 'gateway.keys'),
    '--dns-listen',
    '127.0.0.1:0',
    '--primary-name',
    'gw.example.net',
    '--state-dir',
    join(work, 'state'),
    '--http-listen',
    '127.0.0.1:0',
    '--listen',
    '127.0.0.1:0',
    '--refresh',
    '1h',
  ],
  {
    DDEDGE_API_URL: sandbox.apiUrl,
    DDEDGE_API_USER: sandbox.apiUser,
    DDEDGE_API_PASSWORD: sandbox.apiPassword,
    DDEDGE_MAX_CALLS_PER_HOUR: '3600',
  },
  'stderr',
  /answering dyndns2 updates at (http:\/\/[\d.:]+)\/nic\/update[\s\S]*serving \/healthz, \/metrics and \/status at (http:\/\/[\d.:]+)\//,
);
const [door, endpoint] = [started[1], started[2]];
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

function request(url, method, headers = {}, body = '') {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent, headers }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
const calls = async () =>
  [
    ...(await request(`${endpoint}/metrics`, 'GET')).text.matchAll(
      /^ddedge_gateway_provider_calls_total\{operation="([^"]+)"\} (\d+)$/gm,
    ),
  ].reduce((acc, m) => Object.assign(acc, { [m[1]]: Number(m[2]) }), {});
const diff = (after, before) =>
  Object.fromEntries(
    Object.entries(after)
      .map(([k, v]) => [k, v - (before[k] ?? 0)])
      .filter(([, v]) => v),
  );
const total = (made) => Object.values(made).reduce((a, b) => a + b, 0);
const shown = (made) =>
  `${total(made)} (${Object.entries(made)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')})`;

/** A 43-character value, as an ACME client's. */
const value = (n) => `${String(n).padStart(6, '0')}${'v'.repeat(37)}`;
const basic = `Basic ${Buffer.from(`acme:${secret}`).toString('base64')}`;
const json = { 'content-type': 'application/json', accept: 'application/json' };
async function httpreq(action, txt) {
  const body = JSON.stringify({ fqdn: '_acme-challenge.example.com.', value: txt });
  const answer = await request(`${door}/${action}`, 'POST', { ...json, authorization: basic }, `${body}\n`);
  if (answer.status !== 200) throw new Error(`${action}: ${answer.status} ${answer.text}`);
}
async function acmeDns(txt) {
  const body = JSON.stringify({ subdomain: 'example.com', txt });
  const headers = { ...json, 'x-api-user': 'acme', 'x-api-key': secret };
  const answer = await request(`${door}/update`, 'POST', headers, `${body}\n`);
  if (answer.status !== 200) throw new Error(`update: ${answer.status} ${answer.text}`);
}
async function counted(steps) {
  const before = await calls();
  for (const step of steps) await step();
  return diff(await calls(), before);
}

// (1) One certificate with a wildcard: two values at one name.
const httpreqCert = await counted([
  () => httpreq('present', value(1)),
  () => httpreq('present', value(2)),
  () => httpreq('cleanup', value(1)),
  () => httpreq('cleanup', value(2)),
]);
const acmeDnsFirst = await counted([() => acmeDns(value(3)), () => acmeDns(value(4))]);
const acmeDnsRenewal = await counted([() => acmeDns(value(5)), () => acmeDns(value(6))]);

// (2) Time to the answer, each a new value (the httpreq value cleaned up after, untimed).
const nodeE0 = [];
const toPresent = [];
const toUpdate = [];
for (let i = 0; i < RUNS; i++) {
  const t0 = process.hrtime.bigint();
  spawnSync(process.execPath, ['-e', '0']);
  nodeE0.push(Number(process.hrtime.bigint() - t0) / 1e6);
  const t1 = process.hrtime.bigint();
  await httpreq('present', value(100 + i));
  toPresent.push(Number(process.hrtime.bigint() - t1) / 1e6);
  await httpreq('cleanup', value(100 + i));
  const t2 = process.hrtime.bigint();
  await acmeDns(value(1000 + i));
  toUpdate.push(Number(process.hrtime.bigint() - t2) / 1e6);
}
agent.destroy();

const load = loadavg()
  .map((l) => l.toFixed(1))
  .join(' ');
const e0 = median(nodeE0);
console.log(`\n### ACME over HTTP (node ${process.version}, load ${load}, ${RUNS} requests each)\n`);
console.log('| measure | value | × the reference |\n|---|---:|---:|');
console.log('| provider calls per certificate with a wildcard: RFC 2136 (the reference) | 8 | 1.00 |');
console.log(`| the same through httpreq | ${shown(httpreqCert)} | ${(total(httpreqCert) / 8).toFixed(2)} |`);
console.log(`| the same through acme-dns, first | ${shown(acmeDnsFirst)} | ${(total(acmeDnsFirst) / 8).toFixed(2)} |`);
console.log(
  `| the same through acme-dns, renewal | ${shown(acmeDnsRenewal)} | ${(total(acmeDnsRenewal) / 8).toFixed(2)} |`,
);
console.log(`| \`node -e 0\` (the reference for wall time) | ${e0.toFixed(1)} ms | 1.00 |`);
console.log(
  `| \`/present\` to its answer against the sandbox (median) | ${median(toPresent).toFixed(1)} ms | ${(median(toPresent) / e0).toFixed(2)} x node -e 0 |`,
);
console.log(
  `| acme-dns \`/update\` to its answer (median) | ${median(toUpdate).toFixed(1)} ms | ${(median(toUpdate) / e0).toFixed(2)} x node -e 0 |`,
);
process.exit(0);
