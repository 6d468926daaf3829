// npm run bench: the agent's bench (run.mjs: the cycle beside its floor and ddclient), then
// each feature's own bench, one after another so they never share the CPU. Each prints its
// own table with ratios to `node -e 0` measured in its own run.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const benches = [
  ['the agent: cycle, floor, ddclient, SDK, sandbox start', 'run.mjs'],
  ['the cycle in instructions (callgrind), beside its floors', 'instructions.mjs'],
  ['the unchanged cycle on every Node.js line, each with its own code cache', 'nodes.mjs'],
  ['zone as code: plan of 2,500 records, apply of 200 creates', 'zone.mjs'],
  ['the zone-file reader beside named-checkzone, 1k to 100k records', 'zone-reader.mjs'],
  [
    'zone plan of 100,000 records beside named-checkzone: CPU, instructions (BENCH_CALLGRIND=1), profile',
    'zone-plan-cpu.mjs',
  ],
  ['the sandbox name server beside a Node UDP echo server (5 and 50,000 records), and DNS sources', 'dns.mjs'],
  ['the gateway: AXFR of 5,000 records beside NSD', 'gateway.mjs'],
  ['the gateway: provider calls and time per one-record update at 5 and 50,000 records', 'gateway-updates.mjs'],
  ['the gateway refusing unsigned UPDATEs of thousands of records', 'gateway-flood.mjs'],
  [
    "the gateway's dyndns2 door: provider calls, time to good, nochg answers beside a minimal Node HTTP server",
    'dyndns2.mjs',
  ],
  ['ACME DNS-01: acme present/cleanup', 'acme.mjs'],
  ['ACME over HTTP: provider calls per certificate, /present and acme-dns /update to their answers', 'acme-http.mjs'],
  ['hosts behind the router and the daemon endpoint', 'lan-endpoint.mjs'],
  ['the status page (50 hosts, 1,000 history entries) and notifications', 'status-page.mjs'],
  ["containers: the engine's requests, and the provider calls of the containers' names", 'containers.mjs'],
  ['long-running memory: a daemon through 3,000 cycles, the gateway with a 50,000-record zone', 'soak.mjs'],
];
const only = process.argv.slice(2);
let failed = 0;
for (const [title, file] of benches) {
  if (only.length && !only.some((name) => file.startsWith(name))) continue;
  console.log(`\n## ${title} (bench/${file})\n`);
  const run = spawnSync(process.execPath, [join(import.meta.dirname, file)], {
    stdio: 'inherit',
    env: process.env,
    timeout: 15 * 60_000,
  });
  if (run.status !== 0) {
    failed++;
    console.log(`bench/${file} ended with ${run.status ?? run.signal}`);
  }
}
process.exit(failed ? 1 : 0);
