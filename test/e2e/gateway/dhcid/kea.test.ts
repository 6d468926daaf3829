// Kea's DHCP-DDNS server (kea-dhcp-ddns, "D2") in front of the built gateway, configured by the
// docs/gateway-clients.md's recipe (<!-- recipe: kea-d2 -->) with only the secret and ports changed. The test
// plays the DHCP server: it sends D2 name change requests (NCRs) in Kea's UDP wire form, a
// 2-byte length in network order then the request as JSON (Kea's ncr_msg/ncr_udp), and D2 sends
// its RFC 4703 updates (prerequisites on DHCID) to the gateway. The outcome is read back from
// the provider's zone through the sandbox's model and from D2's log: a client's name is added,
// renewed and removed; another client's claim on the same name is refused, before and after a
// restart of the gateway (the DHCID records it keeps are on disk).
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import dgram from 'node:dgram';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFault } from '../../../../src/sandbox/faults.js';
import { keygenText } from '../../../../src/gateway/keys/keygen.js';
import { tempDir } from '../../../helpers/cli.js';
import { freePort, requireTool } from '../../../helpers/programs.js';
import { spawnGateway, startGatewayProcess, waitFor, type GatewayProcess } from '../../../helpers/use-gateway.js';
import { useSandbox } from '../../../helpers/use-sandbox.js';

const TOOLS = requireTool('kea-dhcp-ddns', 'kea-dhcp-ddns-server') && requireTool('dig', 'bind9-dnsutils');
const NAME = 'laptop.dhcp.example.com';

const sandbox = useSandbox({ per: 'file' });
let dir: string;
let keysFile: string;
let gateway: GatewayProcess | undefined;
let gatewayPort: number;
let d2: ChildProcess | undefined;
let d2Log = '';
let ncrPort: number;
let secret: string;
/** A key that may transfer the zone (AXFR), beside the DHCP server's. */
let transferKey: string;

/** The parts of a D2 configuration the test sets: the NCR port, the key's secret, the gateway's port. */
interface D2Config {
  DhcpDdns: {
    port: number;
    'tsig-keys': { secret: string }[];
    'forward-ddns': { 'ddns-domains': { 'dns-servers': { port: number }[] }[] };
  };
}

/** The Kea D2 configuration docs/gateway-clients.md gives, as text. */
function readmeRecipe(): string {
  const readme = readFileSync(new URL('../../../../docs/gateway-clients.md', import.meta.url), 'utf8');
  const block = /<!-- recipe: kea-d2 -->\n```json\n([\s\S]*?)\n```/.exec(readme);
  if (!block) throw new Error('docs/gateway-clients.md has no <!-- recipe: kea-d2 --> JSON block');
  return block[1]!;
}

async function startGateway(port: number): Promise<number> {
  gateway = await startGatewayProcess({
    apiUrl: sandbox.url,
    zone: 'example.com',
    keysFile,
    stateDir: join(dir, 'state'),
    port,
    startBoundMs: 15_000,
  });
  return gateway.port;
}

async function stopGateway(): Promise<void> {
  if (gateway) expect(await gateway.stop()).toBe(0);
  gateway = undefined;
}

/** A client's DHCID RDATA in hex: identifier type 2 (DUID), digest type 1 (SHA-256), the digest (RFC 4701). */
const dhcidOf = (client: string) => `000201${createHash('sha256').update(`${client}\n${NAME}`).digest('hex')}`;

/**
 * Sends one NCR to D2 (forward only, conflict resolution on) and waits for D2 to log its outcome
 * for it; returns the log lines written for it.
 */
async function ncr(change: 'add' | 'remove', client: string, address: string, leaseSeconds = 3600): Promise<string> {
  const request = {
    'change-type': change === 'add' ? 0 : 1,
    'forward-change': true,
    'reverse-change': false,
    fqdn: `${NAME}.`,
    'ip-address': address,
    dhcid: dhcidOf(client),
    'lease-expires-on': new Date(Date.now() + leaseSeconds * 1000).toISOString().replace(/[-:T]/g, '').slice(0, 14),
    'lease-length': leaseSeconds,
    'use-conflict-resolution': true,
  };
  const json = Buffer.from(JSON.stringify(request));
  const length = Buffer.alloc(2);
  length.writeUInt16BE(json.length);
  const from = d2Log.length;
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve, reject) =>
    socket.send(Buffer.concat([length, json]), ncrPort, '127.0.0.1', (error) => (error ? reject(error) : resolve())),
  );
  socket.close();
  // D2 logs one outcome per request: ..._SUCCEEDED, or ..._FAILED / ..._REJECTED. Bounded wait.
  const outcome = /DHCP_DDNS_(ADD|REMOVE)_(SUCCEEDED|FAILED)|DHCP_DDNS_FORWARD_\w+_REJECTED|DHCP_DDNS_REMOVE_FAILED/;
  await waitFor(() => outcome.test(d2Log.slice(from)), `D2's outcome for the ${change} of ${client}`);
  const lines = d2Log.slice(from);
  // The failed transaction's summary line follows the rejection; let it arrive.
  if (/REJECTED/.test(lines))
    await waitFor(() => /_FAILED/.test(d2Log.slice(from)), "D2's summary of the failed transaction");
  return d2Log.slice(from);
}

/** Whether a UDP socket of this machine is bound to `port` on 127.0.0.1 (/proc/net/udp: addresses in hex). */
function udpPortBound(port: number): boolean {
  const local = `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  return readFileSync('/proc/net/udp', 'utf8')
    .split('\n')
    .some((line) => line.trim().split(/\s+/)[1] === local);
}

/** The provider's records at NAME, read through the sandbox's model (what service/dnslist returns). */
function zoneAt(name = NAME): string[] {
  return sandbox.model.services
    .find((s) => s.name === 'example.com')!
    .dns.filter((e) => e.name === name)
    .map((e) => `${e.name} ${e.type} ${e.value}`)
    .sort();
}

/** The gateway's answer for DHCID at NAME, as dig prints it (the RDATA in base64). */
function dhcidAnswer(): string {
  return execFileSync('dig', ['@127.0.0.1', '-p', String(gatewayPort), '+norec', '+short', NAME, 'DHCID'], {
    encoding: 'utf8',
  }).trim();
}
const base64Of = (hex: string) => Buffer.from(hex, 'hex').toString('base64');

beforeAll(async () => {
  if (!TOOLS) return;
  dir = tempDir('ddedge-kea-');
  keysFile = join(dir, 'gateway.keys');
  const keyText = keygenText('dhcp', 'hmac-sha256');
  secret = /secret "([^"]+)"/.exec(keyText)![1]!;
  const xfrText = keygenText('xfr', 'hmac-sha256');
  transferKey = `hmac-sha256:xfr:${/secret "([^"]+)"/.exec(xfrText)![1]!}`;
  writeFileSync(
    keysFile,
    `${keyText}grant "dhcp" subdomain dhcp.example.com A AAAA DHCID;\n${xfrText}transfer "xfr";\n`,
    { mode: 0o600 },
  );
  gatewayPort = await startGateway(0);

  // The page's recipe, with this test's secret and ports.
  const config = JSON.parse(readmeRecipe()) as D2Config;
  ncrPort = await freePort();
  config.DhcpDdns.port = ncrPort;
  config.DhcpDdns['tsig-keys'][0]!.secret = secret;
  config.DhcpDdns['forward-ddns']['ddns-domains'][0]!['dns-servers'][0]!.port = gatewayPort;
  const configFile = join(dir, 'd2.json');
  writeFileSync(configFile, JSON.stringify(config, null, 2), { mode: 0o600 });
  d2 = spawn('kea-dhcp-ddns', ['-c', configFile], {
    env: { PATH: process.env.PATH ?? '', KEA_PIDFILE_DIR: dir, KEA_LOCKFILE_DIR: dir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  d2.stdout!.on('data', (d) => (d2Log += d));
  d2.stderr!.on('data', (d) => (d2Log += d));
  await waitFor(() => /DHCP_DDNS_STARTED/.test(d2Log), 'kea-dhcp-ddns to start');
  // D2 says it started before its request listener is open, at the default log level: an NCR
  // sent in between (UDP, no retry) would be lost. Its socket bound is the sign it listens.
  await waitFor(() => udpPortBound(ncrPort), `kea-dhcp-ddns to listen on UDP port ${ncrPort}`);
});

afterAll(async () => {
  if (d2 && d2.exitCode === null) {
    const exited = new Promise((r) => d2!.once('exit', r));
    d2.kill('SIGTERM');
    // Bounded: a D2 that does not stop on SIGTERM is killed.
    const timer = setTimeout(() => d2!.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
  await stopGateway();
});

/** Every provider call the sandbox has answered (reads and writes), to count what a lease costs. */
const providerCalls = () => [...sandbox.calls.values()].reduce((n, c) => n + c, 0);

describe.skipIf(!TOOLS)("Kea's DHCP-DDNS server through the gateway", () => {
  it('adds a client: the provider holds its A, the gateway its DHCID (answered, in a file of mode 0600)', async () => {
    const calls = providerCalls();
    const log = await ncr('add', 'client-1', '192.0.2.50');
    // One fresh read of the zone and the one write (the DHCID stays with the gateway).
    expect(providerCalls() - calls).toBe(2);
    expect(log, d2Log).toMatch(/DHCP_DDNS_ADD_SUCCEEDED/);
    expect(zoneAt()).toEqual([`${NAME} A 192.0.2.50`]);
    expect(dhcidAnswer()).toBe(base64Of(dhcidOf('client-1')));
    const file = join(dir, 'state', 'gateway', 'dhcid.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // The audit journal names the DHCID beside the A.
    const journal = readFileSync(join(dir, 'state', 'gateway', 'journal.jsonl'), 'utf8');
    expect(journal).toContain('"type":"DHCID"');
    expect(journal).not.toContain(secret);
  });

  it('renews it (same client, same DHCID) with a new address: the A is replaced', async () => {
    const calls = providerCalls();
    const log = await ncr('add', 'client-1', '192.0.2.51');
    // Kea's add is refused (the name is in use, no write), then its replace: a read each, one update.
    expect(providerCalls() - calls).toBe(3);
    expect(log, d2Log).toMatch(/DHCP_DDNS_ADD_SUCCEEDED/);
    expect(zoneAt()).toEqual([`${NAME} A 192.0.2.51`]);
    expect(dhcidAnswer()).toBe(base64Of(dhcidOf('client-1')));
  });

  it("refuses a second client's claim on the name (another DHCID); still after a restart of the gateway", async () => {
    const log = await ncr('add', 'client-2', '192.0.2.99');
    // Kea tries an add (the name is in use: YXDOMAIN), then a replace whose DHCID prerequisite fails: NXRRSET (8).
    expect(log).toMatch(/DHCP_DDNS_FORWARD_REPLACE_REJECTED .*RCODE: 8/);
    expect(log).toMatch(/DHCP_DDNS_ADD_FAILED/);
    expect(zoneAt()).toEqual([`${NAME} A 192.0.2.51`]);
    expect(dhcidAnswer()).toBe(base64Of(dhcidOf('client-1')));
    // A removal by the second client changes nothing: its DHCID prerequisite fails (NXRRSET),
    // which D2 counts as "nothing of this client's left to remove" (RFC 4703 5.5) and logs as done.
    await ncr('remove', 'client-2', '192.0.2.51');
    expect(zoneAt()).toEqual([`${NAME} A 192.0.2.51`]);
    expect(dhcidAnswer()).toBe(base64Of(dhcidOf('client-1')));

    await stopGateway();
    expect(await startGateway(gatewayPort)).toBe(gatewayPort);
    const again = await ncr('add', 'client-2', '192.0.2.99');
    expect(again).toMatch(/DHCP_DDNS_FORWARD_REPLACE_REJECTED .*RCODE: 8/);
    expect(zoneAt()).toEqual([`${NAME} A 192.0.2.51`]);
    expect(dhcidAnswer()).toBe(base64Of(dhcidOf('client-1')));
  });

  it("removes the first client's name: its A and its DHCID are gone, and the name is free for another client", async () => {
    const calls = providerCalls();
    const log = await ncr('remove', 'client-1', '192.0.2.51');
    // Two steps: a read and the A's delete; a read and, with nothing left at the name, no write.
    expect(providerCalls() - calls).toBe(3);
    expect(log, d2Log).toMatch(/DHCP_DDNS_REMOVE_SUCCEEDED/);
    expect(zoneAt()).toEqual([]);
    expect(dhcidAnswer()).toBe('');
    const claimed = await ncr('add', 'client-2', '192.0.2.99');
    expect(claimed, d2Log).toMatch(/DHCP_DDNS_ADD_SUCCEEDED/);
    expect(zoneAt()).toEqual([`${NAME} A 192.0.2.99`]);
    expect(dhcidAnswer()).toBe(base64Of(dhcidOf('client-2')));
  });

  it("an add whose A create is made but its answer lost: the client keeps its name, a retry succeeds, the DHCID matches the provider's A", async () => {
    expect(await ncr('remove', 'client-2', '192.0.2.99'), d2Log).toMatch(/DHCP_DDNS_REMOVE_SUCCEEDED/);
    expect(zoneAt()).toEqual([]);
    // An attack found this client locked out: the A at the provider, no DHCID kept, every retry refused (YXDOMAIN, then NXRRSET).
    sandbox.faults.push(parseFault('service/dnscreate=lost-answerx1'));
    const first = await ncr('add', 'client-3', '192.0.2.60');
    expect(sandbox.faults.at(-1)!.remaining).toBe(0);
    // Read again, the zone holds the A: the add is made, and answered so.
    expect(first, d2Log).toMatch(/DHCP_DDNS_ADD_SUCCEEDED/);
    expect(zoneAt()).toEqual([`${NAME} A 192.0.2.60`]);
    expect(dhcidAnswer()).toBe(base64Of(dhcidOf('client-3')));
    const retry = await ncr('add', 'client-3', '192.0.2.60');
    expect(retry, d2Log).toMatch(/DHCP_DDNS_ADD_SUCCEEDED/);
    expect(zoneAt()).toEqual([`${NAME} A 192.0.2.60`]);
    expect(dhcidAnswer()).toBe(base64Of(dhcidOf('client-3')));
    expect(readFileSync(join(dir, 'state', 'gateway', 'dhcid.json'), 'utf8')).toContain(dhcidOf('client-3'));
  });
});

/** Runs an nsupdate script signed with the DHCP server's key. */
function nsupdate(lines: string[]): Promise<{ code: number; out: string }> {
  const script = [`server 127.0.0.1 ${gatewayPort}`, 'zone example.com', ...lines, 'send', ''].join('\n');
  return new Promise((resolve) => {
    const child = execFile(
      'nsupdate',
      ['-t', '8', '-y', `hmac-sha256:dhcp:${secret}`],
      { timeout: 20_000 },
      (error, stdout, stderr) => resolve({ code: error ? 1 : 0, out: stdout + stderr }),
    );
    child.stdin!.end(script);
  });
}
const dig = (...args: string[]) =>
  execFileSync('dig', ['@127.0.0.1', '-p', String(gatewayPort), '+norec', ...args], { encoding: 'utf8' });

describe.skipIf(!TOOLS || !requireTool('nsupdate', 'bind9-dnsutils'))(
  'DHCID through nsupdate: kept only with the provider writes, answered, transferred',
  () => {
    const host = 'printer.dhcp.example.com';
    const id = base64Of(`000101${'5a'.repeat(32)}`);
    const calls = () =>
      ['service/dnscreate', 'service/dnsupdate', 'service/dnsdelete'].reduce(
        (n, c) => n + (sandbox.calls.get(c) ?? 0),
        0,
      );

    it('a provider write that fails undoes the DHCID of the same update (SERVFAIL); nothing is kept', async () => {
      sandbox.faults.push(parseFault('service/dnscreate=500x1'));
      const failed = await nsupdate([`update add ${host} 300 A 192.0.2.80`, `update add ${host} 300 DHCID ${id}`]);
      expect(failed.out).toMatch(/SERVFAIL/);
      expect(zoneAt(host)).toEqual([]);
      expect(dig('+short', host, 'DHCID').trim()).toBe('');
      expect(readFileSync(join(dir, 'state', 'gateway', 'dhcid.json'), 'utf8')).not.toContain(host);
    });

    it('an update of DHCID alone makes no provider call; the record is answered and carried by AXFR, and the serial moves', async () => {
      const serial = () => Number(dig('+short', 'example.com', 'SOA').split(' ')[2]);
      const before = { calls: calls(), serial: serial() };
      const added = await nsupdate([`update add ${host} 300 DHCID ${id}`]);
      expect(added.code, added.out).toBe(0);
      expect(calls()).toBe(before.calls);
      expect(serial()).toBeGreaterThan(before.serial);
      expect(dig(host, 'DHCID')).toMatch(
        new RegExp(`${host.replace(/\./g, '\\.')}\\.\\s+300\\s+IN\\s+DHCID\\s+${id.replace(/[+/]/g, '\\$&')}`),
      );
      // A name holding only a DHCID exists: NODATA for A, not NXDOMAIN.
      expect(dig(host, 'A')).toMatch(/status: NOERROR/);
      const axfr = dig('-y', transferKey, 'example.com', 'AXFR');
      expect(axfr).toMatch(new RegExp(`${host.replace(/\./g, '\\.')}\\.\\s+300\\s+IN\\s+DHCID`));
      const removed = await nsupdate([`update delete ${host} DHCID`]);
      expect(removed.code, removed.out).toBe(0);
      expect(dig(host, 'A')).toMatch(/status: NXDOMAIN/);
    });

    it('DHCID records that cannot be saved stop the update before any provider write (SERVFAIL)', async () => {
      const file = join(dir, 'state', 'gateway', 'dhcid.json');
      // A directory where the file goes: the atomic replace (a rename over it) fails, whoever runs the test.
      renameSync(file, `${file}.aside`);
      mkdirSync(join(file, 'in-the-way'), { recursive: true });
      try {
        const before = calls();
        const failed = await nsupdate([`update add ${host} 300 A 192.0.2.81`, `update add ${host} 300 DHCID ${id}`]);
        expect(failed.out).toMatch(/SERVFAIL/);
        expect(calls()).toBe(before);
        expect(zoneAt(host)).toEqual([]);
        expect(dig('+short', host, 'DHCID').trim()).toBe('');
      } finally {
        rmSync(file, { recursive: true });
        renameSync(`${file}.aside`, file);
      }
    });

    it('other types the provider cannot hold are still REFUSED, and the DHCID of the same update is not kept', async () => {
      const refused = await nsupdate([`update add ${host} 300 DHCID ${id}`, `update add ${host} 300 PTR example.com.`]);
      expect(refused.out).toMatch(/REFUSED/);
      expect(dig('+short', host, 'DHCID').trim()).toBe('');
    });
  },
);

describe('the DHCID file', () => {
  it('a damaged file stops the gateway at start (exit 2, naming it) and is left as it is', async () => {
    const state = tempDir('ddedge-kea-damaged-');
    const keys = join(state, 'gateway.keys');
    writeFileSync(keys, `${keygenText('dhcp', 'hmac-sha256')}grant "dhcp" subdomain dhcp.example.com A AAAA DHCID;\n`, {
      mode: 0o600,
    });
    const file = join(state, 'gateway', 'dhcid.json');
    execFileSync('mkdir', ['-p', join(state, 'gateway')]);
    writeFileSync(file, '{"version":1,"zones":{"example.com":[{"name":"a.example.com","ttl":60,"data":"00', {
      mode: 0o600,
    });
    // A provider never reached: the store is read before the zone.
    const run = await spawnGateway({
      apiUrl: 'http://127.0.0.1:9',
      zone: 'example.com',
      keysFile: keys,
      stateDir: state,
      primaryName: null,
    }).result;
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file} is damaged`);
    expect(readFileSync(file, 'utf8')).toBe(
      '{"version":1,"zones":{"example.com":[{"name":"a.example.com","ttl":60,"data":"00',
    );
  });
});
