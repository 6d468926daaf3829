// The DNS benches' servers and load: `ddedge sandbox --dns-port` holding a zone of N records
// (set through its own API, service/dnssetzone, as a user would), a minimal Node UDP echo
// server (the floor: what any Node DNS server could reach), NSD serving the same zone from a
// file in a temp dir, and dnsperf as the load generator (a Node client where it is missing).
import { execFile, execFileSync, spawn, spawnSync } from 'node:child_process';
import dgram from 'node:dgram';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The benches' zone: a service of the corporate plan (the one that holds 100,000 records). */
export const ZONE = 'bench.example';

export const has = (program, args = ['-v']) => spawnSync(program, args, { stdio: 'ignore' }).error === undefined;

/** Records h1..hN.<ZONE> A, the zone every server holds. */
export function zoneRecords(n) {
  return Array.from({ length: n }, (_, i) => ({
    name: `h${i + 1}.${ZONE}`,
    type: 'A',
    ttl: 300,
    priority: '-',
    value: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
  }));
}

/** `ddedge sandbox --dns-port 0`, its stderr read (and dropped) as a terminal would take it. */
export async function startDnsSandbox(ddedge, records, env = {}) {
  const child = spawn(process.execPath, [ddedge, 'sandbox', '--port', '0', '--dns-port', '0', '--json'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  child.stderr.on('data', () => undefined);
  const info = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(JSON.parse(String(d)))));
  const call = async (path, fields) => {
    const body = new URLSearchParams({ apiuser: info.apiUser, apipasswd: info.apiPassword, ...fields });
    // A connection kept alive across a long quiet spell may be closed under the request: sent once more then.
    const post = () => fetch(`${info.apiUrl}/${path}/`, { method: 'POST', body });
    const answer = await (
      await post().catch((error) => (error?.cause?.code === 'UND_ERR_SOCKET' ? post() : Promise.reject(error)))
    ).json();
    if (!answer.success) throw new Error(`${path}: ${answer.errorCodeMsg} ${JSON.stringify(answer.messages)}`);
    return answer.responseData;
  };
  if (records) {
    await call('service/create', { serviceName: ZONE, productkey: 'corporate' });
    await call('service/dnssetzone', {
      serviceName: ZONE,
      dnsZoneData: Buffer.from(JSON.stringify(records)).toString('base64'),
    });
  }
  return { child, info, call, stop: () => child.kill('SIGTERM') };
}

/** A UDP server that sends each datagram back with the QR bit set, in its own process. */
export async function startEchoServer() {
  const code =
    "const s=require('dgram').createSocket('udp4');s.on('message',(m,r)=>{m[2]|=0x80;s.send(m,r.port,r.address)});s.bind(0,'127.0.0.1',()=>console.log(s.address().port))";
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'ignore'] });
  const port = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(Number(String(d)))));
  return { port, stop: () => child.kill('SIGTERM') };
}

/** The zone as a master file (SOA, NS and glue first, as the sandbox synthesises them). */
export function zoneFile(records) {
  return [
    `$ORIGIN ${ZONE}.`,
    '$TTL 300',
    `@ IN SOA ns1.${ZONE}. hostmaster.${ZONE}. 1 3600 600 604800 60`,
    `@ IN NS ns1.${ZONE}.`,
    'ns1 IN A 127.0.0.1',
    ...records.map((r) => `${r.name}. ${r.ttl} IN ${r.type} ${r.value}`),
    '',
  ].join('\n');
}

/**
 * NSD on 127.0.0.1:port serving `records`, unprivileged (no user switch, no chroot, no
 * control socket), all files in `work`. With `tsig` ({ name, algorithm, secret }), only that
 * key may transfer the zone, as the gateway asks.
 */
export async function startNsd(work, port, records, tsig) {
  writeFileSync(join(work, 'bench.zone'), zoneFile(records));
  const at = (f) => join(work, f);
  writeFileSync(
    at('nsd.conf'),
    [
      'server:',
      '  ip-address: 127.0.0.1',
      `  port: ${port}`,
      '  username: ""',
      '  chroot: ""',
      `  zonesdir: "${work}"`,
      '  database: ""',
      `  zonelistfile: "${at('zone.list')}"`,
      `  xfrdfile: "${at('xfrd.state')}"`,
      `  xfrdir: "${work}"`,
      `  pidfile: "${at('nsd.pid')}"`,
      `  logfile: "${at('nsd.log')}"`,
      '  server-count: 1',
      'remote-control:',
      '  control-enable: no',
      ...(tsig ? ['key:', `  name: ${tsig.name}`, `  algorithm: ${tsig.algorithm}`, `  secret: "${tsig.secret}"`] : []),
      'zone:',
      `  name: ${ZONE}`,
      '  zonefile: bench.zone',
      `  provide-xfr: 127.0.0.1 ${tsig ? tsig.name : 'NOKEY'}`,
      '',
    ].join('\n'),
  );
  const child = spawn('nsd', ['-d', '-c', at('nsd.conf')], { stdio: 'ignore' });
  // Ready once it answers the SOA (bounded: 10 s).
  for (let i = 0; i < 100; i++) {
    try {
      if (
        /SOA/.test(
          execFileSync('dig', ['@127.0.0.1', '-p', String(port), '+time=1', '+tries=1', '+short', ZONE, 'SOA'], {
            encoding: 'utf8',
          }),
        )
      )
        break;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { stop: () => child.kill('SIGTERM') };
}

/** A port free for UDP and TCP on 127.0.0.1 (for NSD, which is told its port). */
export async function freePort() {
  const s = dgram.createSocket('udp4');
  await new Promise((r) => s.bind(0, '127.0.0.1', r));
  const port = s.address().port;
  s.close();
  return port;
}

const dnsperfArgs = (port, queryFile, seconds, inFlight) => [
  '-s',
  '127.0.0.1',
  '-p',
  String(port),
  '-d',
  queryFile,
  '-l',
  String(seconds),
  '-q',
  String(inFlight),
  '-t',
  '2',
];
const dnsperfFigures = (out) => ({
  qps: Number(/Queries per second:\s+([\d.]+)/.exec(out)?.[1] ?? 0),
  lost: Number(/Queries lost:\s+(\d+)/.exec(out)?.[1] ?? 0),
});

/** Queries answered per second by dnsperf over `seconds`, `inFlight` outstanding, one client. */
export function dnsperf(port, queryFile, seconds, inFlight = 64) {
  return dnsperfFigures(execFileSync('dnsperf', dnsperfArgs(port, queryFile, seconds, inFlight), { encoding: 'utf8' }));
}

/** dnsperf as dnsperf() runs it, without blocking this process (so that it can change the zone meanwhile). */
export function dnsperfInBackground(port, queryFile, seconds, inFlight = 64) {
  return new Promise((resolve, reject) =>
    execFile('dnsperf', dnsperfArgs(port, queryFile, seconds, inFlight), { encoding: 'utf8' }, (error, out) =>
      error ? reject(error) : resolve(dnsperfFigures(out)),
    ),
  );
}

/** The Node fallback when dnsperf is missing: `inFlight` queries outstanding from one socket, for `seconds`. */
export async function nodeLoad(port, packets, seconds, inFlight = 32) {
  const socket = dgram.createSocket('udp4');
  await new Promise((r) => socket.bind(0, '127.0.0.1', r));
  let answered = 0;
  let next = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  const send = () => {
    const packet = Buffer.from(packets[next++ % packets.length]);
    packet.writeUInt16BE(next & 0xffff, 0);
    socket.send(packet, port, '127.0.0.1');
  };
  await new Promise((resolve) => {
    socket.on('message', () => {
      answered++;
      if (performance.now() < end) send();
    });
    // Lost queries are replaced, so the window stays full; the run ends on time whatever is lost.
    const refill = setInterval(() => {
      if (performance.now() >= end) {
        clearInterval(refill);
        resolve();
        return;
      }
      for (let i = 0; i < 4; i++) send();
    }, 100);
    for (let i = 0; i < inFlight; i++) send();
  });
  socket.close();
  return { qps: answered / ((performance.now() - started) / 1000), lost: 0 };
}

/** The time (ms) one UDP query (`packet`) to 127.0.0.1:`port` takes to be answered (bounded: 10 s). */
export async function oneQuery(port, packet) {
  const socket = dgram.createSocket('udp4');
  await new Promise((r) => socket.bind(0, '127.0.0.1', r));
  const started = process.hrtime.bigint();
  const answered = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer from port ${port} in 10 s`)), 10_000);
    socket.once('message', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  socket.send(packet, port, '127.0.0.1');
  await answered;
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  socket.close();
  return ms;
}

/** A query of `name` (type `type`, A by default), no EDNS. */
export function queryPacket(name, type = 1) {
  const labels = name.split('.').flatMap((l) => [Buffer.from([l.length]), Buffer.from(l)]);
  const header = Buffer.alloc(12);
  header.writeUInt16BE(1, 4);
  return Buffer.concat([header, ...labels, Buffer.from([0, 0, type, 0, 1])]);
}
