// node bench/gateway-flood.mjs (after npm run build): what `ddedge gateway` spends refusing an
// UPDATE of thousands of records that no key signed, or that a key it does not know signed (a
// 63 KB message of 3,900 adds whose owners point at the zone's name). The gateway's own CPU
// time (user + system, from /proc, clock ticks) over FLOOD messages of each kind, sent one at a
// time (each answered before the next: none dropped), per message; beside it a plain SOA query
// per message and `node -e 0`'s wall time in the same run, for scale.
import { execFileSync, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import dgram from 'node:dgram';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { startDnsSandbox, ZONE, zoneRecords } from './dns-servers.mjs';

const FLOOD = Number(process.env.BENCH_FLOOD ?? 300);
const ddedge = join(import.meta.dirname, '..', 'dist', 'ddedge.mjs');
const work = mkdtempSync(join(tmpdir(), 'ddedge-bench-flood-'));
const sandbox = await startDnsSandbox(ddedge, zoneRecords(5));
const keyText = execFileSync(process.execPath, [ddedge, 'gateway', 'keygen', 'admin'], { encoding: 'utf8' });
writeFileSync(join(work, 'gateway.keys'), `${keyText}grant "admin" zonesub;\n`, { mode: 0o600 });
const gateway = spawn(
  process.execPath,
  [
    ddedge,
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
    join(work, 'state'),
  ],
  {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      DDEDGE_API_URL: sandbox.info.apiUrl,
      DDEDGE_API_USER: sandbox.info.apiUser,
      DDEDGE_API_PASSWORD: sandbox.info.apiPassword,
    },
  },
);
process.on('exit', () => {
  sandbox.stop();
  gateway.kill('SIGTERM');
});
const port = await new Promise((resolve, reject) => {
  let text = '';
  const timer = setTimeout(() => reject(new Error(`the gateway did not start: ${text}`)), 60_000);
  gateway.stderr.on('data', (d) => {
    text += String(d);
    const found = /answering DNS .* on 127\.0\.0\.1:(\d+)/.exec(text);
    if (found) {
      clearTimeout(timer);
      resolve(Number(found[1]));
    }
  });
});

const name = (text) =>
  Buffer.concat([
    ...text.split('.').map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l)])),
    Buffer.from([0]),
  ]);
function huge() {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(0x1234, 0);
  header.writeUInt16BE(5 << 11, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(3900, 8);
  const records = Array.from({ length: 3900 }, (_, i) =>
    Buffer.from([0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 192, 0, (i >> 8) & 255, i & 255]),
  );
  return Buffer.concat([header, name(ZONE), Buffer.from([0, 6, 0, 1]), ...records]);
}
/** The same message with a TSIG of a key the gateway does not know (hmac-sha256, a MAC over nothing in particular). */
function strangerSigned(message) {
  const rdata = Buffer.concat([
    name('hmac-sha256'),
    Buffer.from([0, 0]),
    Buffer.alloc(4),
    Buffer.from([1, 44, 0, 32]),
    createHmac('sha256', 'x').update(message).digest(),
    Buffer.from([0x12, 0x34, 0, 0, 0, 0]),
  ]);
  rdata.writeUInt32BE(Math.floor(Date.now() / 1000), name('hmac-sha256').length + 2);
  const tail = Buffer.alloc(10);
  tail.writeUInt16BE(250, 0);
  tail.writeUInt16BE(255, 2);
  tail.writeUInt16BE(rdata.length, 8);
  const signed = Buffer.concat([message, name('stranger'), tail, rdata]);
  signed.writeUInt16BE(1, 10);
  return signed;
}
function soaQuery() {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(0x4242, 0);
  header.writeUInt16BE(1, 4);
  return Buffer.concat([header, name(ZONE), Buffer.from([0, 6, 0, 1])]);
}

const socket = dgram.createSocket('udp4');
await new Promise((r) => socket.bind(0, '127.0.0.1', r));
const exchange = (packet) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no answer')), 5_000);
    socket.once('message', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.send(packet, port, '127.0.0.1');
  });
const ticks = () => {
  const fields = readFileSync(`/proc/${gateway.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
};
async function cpuPerMessage(packet) {
  for (let i = 0; i < 20; i++) await exchange(packet); // warm-up
  const before = ticks();
  for (let i = 0; i < FLOOD; i++) await exchange(packet);
  return ((ticks() - before) * 10) / FLOOD; // 100 ticks a second
}
const message = huge();
const rows = [
  ['plain SOA query', soaQuery()],
  [`unsigned UPDATE, ${message.length} bytes`, message],
  [`UPDATE signed by an unknown key, ${strangerSigned(message).length} bytes`, strangerSigned(message)],
];
const results = [];
for (const [title, packet] of rows) results.push([title, await cpuPerMessage(packet)]);
const started = process.hrtime.bigint();
execFileSync(process.execPath, ['-e', '0']);
const floor = Number(process.hrtime.bigint() - started) / 1e6;
console.log(
  `\n### The gateway's CPU per message refused (${FLOOD} of each, one at a time; node ${process.version}; load ${loadavg()[0].toFixed(2)})\n`,
);
console.log('| message | gateway CPU per message | x node -e 0 wall |\n|---|---|---|');
for (const [title, ms] of results) console.log(`| ${title} | ${ms.toFixed(2)} ms | ${(ms / floor).toFixed(3)} |`);
console.log(`\n\`node -e 0\`: ${floor.toFixed(1)} ms wall in this run.`);
socket.close();
process.exit(0);
