// Real ACME clients through `ddedge gateway`, from docs/gateway-clients.md "Recipes per client" run as
// written: certbot `--dns-rfc2136` and lego `--dns rfc2136` each get a certificate for
// example.com and *.example.com from Pebble, which validates DNS-01 at the sandbox's name
// server; the clients' updates go to the built gateway in front of the sandbox's API, each
// signed with a key granted only `name _acme-challenge.example.com TXT`. Afterwards the
// provider's zone (service/dnslist through the API) is exactly as before, and the provider
// calls each certificate cost are what the page says. Then the router recipes (nsupdate,
// knsupdate) with a key granted one A record.
//
// The page's `gateway-*` blocks run unchanged in one directory (the gateway's keys file is
// there, and the clients' copies of their keys), in an empty HOME, with `ddedge` on the PATH
// as the package installs it. What a page cannot say, the test's environment supplies:
// - the port: 5354 in the blocks becomes the gateway's free port (the one mapping, withPorts);
// - certbot's CA, answers and directories: its own config file ~/.config/letsencrypt/cli.ini
//   (server, config/work/logs dirs, non-interactive, agree-tos, 1 s propagation wait) and
//   REQUESTS_CA_BUNDLE;
// - lego's CA: lego 4.9 takes the server only as a flag, so a `lego` first on the PATH adds
//   `--server` and asks the sandbox's name server (`--dns.resolvers`, `--dns.disable-cp`:
//   the zone's NS glue is 127.0.0.1 port 53, where nothing listens); LEGO_CA_CERTIFICATES.
// The gateway re-reads the zone only every hour here, so the counts are the clients' alone.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIST, tempDir } from '../../helpers/cli.js';
import { startPebble, type Pebble } from '../../helpers/pebble.js';
import { requireTool } from '../../helpers/programs.js';
import { readmeRecipe, runRecipe, withPorts } from '../../helpers/readme-recipes.js';
import { sandboxRegistrar } from '../../helpers/sandbox-sdk.js';
import { startGatewayProcess, type GatewayProcess } from '../../helpers/use-gateway.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

// certbot takes a lock and writes a log even to list its plugins: in a directory of its own.
const certbotPlugins = (certbot: string, dirs = tempDir('ddedge-certbot-plugins-')): string =>
  spawnSync(certbot, ['plugins', '--text', '--config-dir', dirs, '--work-dir', dirs, '--logs-dir', dirs], {
    encoding: 'utf8',
  }).stdout ?? '';
const hasCertbotRfc2136 = Boolean(
  requireTool('certbot', 'python3-certbot-dns-rfc2136', (certbot) => certbotPlugins(certbot).includes('dns-rfc2136')),
);
const TOOLS = requireTool('pebble') && requireTool('openssl');
const CLIENT_TIMEOUT_MS = 150_000;

const sandbox = useSandbox({ dnsPort: 0, per: 'file' });
let pebble: Pebble;
let gateway: GatewayProcess | undefined;
let gatewayPort: number;
let dir: string;
let home: string;
let bin: string;

/** The provider's zone, read through the API (service/dnslist), as `name TYPE ttl value` lines. */
async function providerZone(): Promise<string[]> {
  const { dns } = await sandboxRegistrar(sandbox).service.dnsList({ serviceName: 'example.com' });
  return dns.map((e) => `${e.name} ${e.type} ${e.ttl} ${e.value}`).sort();
}

/** Runs the page's blocks `names` in the gateway's directory, the gateway's port for 5354. */
function runBlocks(names: string[], env: Record<string, string> = {}, before = '') {
  const script = before + names.map((n) => readmeRecipe(n)).join('\n');
  return runRecipe(gatewayPort ? withPorts(script, { 5354: gatewayPort }) : script, {
    cwd: dir,
    env: { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: home, ...env },
    timeoutMs: CLIENT_TIMEOUT_MS,
  });
}

/** Provider calls made while `action` ran, by operation, the test's own zone reads left out. */
async function callsDuring(action: () => Promise<void>): Promise<Record<string, number>> {
  const before = new Map(sandbox.calls);
  await action();
  const spent: Record<string, number> = {};
  for (const [op, n] of sandbox.calls) if (n !== (before.get(op) ?? 0)) spent[op] = n - (before.get(op) ?? 0);
  return spent;
}

/** A program's output (stdout and stderr). Not spawnSync: the gateway reads the zone from the sandbox, which runs in this process. */
function program(command: string, args: string[], input = ''): Promise<string> {
  return new Promise((resolve) => {
    const child = execFile(command, args, { timeout: 20_000 }, (_error, stdout, stderr) => resolve(stdout + stderr));
    child.stdin!.end(input);
  });
}

function expectCertificate(pemFile: string) {
  const text = execFileSync('openssl', ['x509', '-noout', '-ext', 'subjectAltName', '-issuer', '-in', pemFile], {
    encoding: 'utf8',
  });
  expect(text).toContain('DNS:example.com, DNS:*.example.com');
  expect(text).toMatch(/issuer=.*Pebble/);
}

beforeAll(async () => {
  if (!TOOLS) return;
  pebble = await startPebble(`127.0.0.1:${sandbox.dnsPort}`, 600_000);
  dir = tempDir('ddedge-gw-clients-');
  home = tempDir('ddedge-gw-home-');
  bin = tempDir('ddedge-gw-bin-');
  // `ddedge` as the package installs it; `lego` pointed at Pebble and the sandbox's name server.
  writeFileSync(join(bin, 'ddedge'), `#!/bin/sh\nexec "${process.execPath}" "${DIST}" "$@"\n`, { mode: 0o755 });
  const realLego = execFileSync('sh', ['-c', 'command -v lego || true'], { encoding: 'utf8' }).trim();
  writeFileSync(
    join(bin, 'lego'),
    `#!/bin/sh\nexec "${realLego}" --server "${pebble.directoryUrl}" --dns.resolvers 127.0.0.1:${sandbox.dnsPort} --dns.disable-cp "$@"\n`,
    { mode: 0o755 },
  );
  mkdirSync(join(home, '.config', 'letsencrypt'), { recursive: true });
  writeFileSync(
    join(home, '.config', 'letsencrypt', 'cli.ini'),
    [
      `server = ${pebble.directoryUrl}`,
      ...['config-dir', 'work-dir', 'logs-dir'].map((d) => `${d} = ${join(home, 'certbot')}`),
      'non-interactive',
      'agree-tos',
      'register-unsafely-without-email',
      'dns-rfc2136-propagation-seconds = 1',
      '',
    ].join('\n'),
  );
  // No keys file yet, as in a new folder (a trial found the first recipe made it 0644): the
  // recipes make it, readable by its owner only, whatever the shell's umask.
  const keys = await runBlocks(
    ['gateway-key-certbot', 'gateway-key-lego', 'gateway-key-router', 'gateway-key-external-dns'],
    {},
    'umask 022\n',
  );
  expect(keys.code, keys.output).toBe(0);
  expect(statSync(join(dir, 'gateway.keys')).mode & 0o777).toBe(0o600);
  expect(keys.output).toContain('certbot.example.com hmac-sha256: name _acme-challenge.example.com TXT');
  // The keys file the page's blocks made: the lower-level start, with the same environment as useGateway's.
  gateway = await startGatewayProcess({
    apiUrl: sandbox.url,
    zone: 'example.com',
    keysFile: join(dir, 'gateway.keys'),
    stateDir: join(dir, 'state'),
    primaryName: null,
    args: ['--refresh', '1h'],
  });
  gatewayPort = gateway.port;
});

afterAll(async () => {
  if (gateway) {
    expect(await gateway.stop()).toBe(0);
    const { stdout, stderr } = await gateway.child.result;
    // The gateway showed none of the keys' secrets, in its output or its journal.
    for (const keyFile of ['certbot.key', 'lego.key', 'router.key', 'external-dns.key']) {
      const secret = /secret "([^"]+)"/.exec(readFileSync(join(dir, keyFile), 'utf8'))![1]!;
      expect(stdout + stderr).not.toContain(secret);
      const journal = join(dir, 'state', 'gateway', 'journal.jsonl');
      if (existsSync(journal)) expect(readFileSync(journal, 'utf8')).not.toContain(secret);
    }
  }
  await pebble?.close();
});

describe.skipIf(!TOOLS)('ACME clients through the gateway, as docs/gateway-clients.md shows them', () => {
  it.skipIf(!hasCertbotRfc2136)(
    'certbot --dns-rfc2136: a certificate for example.com and *.example.com in 8 provider calls; the zone as before',
    { timeout: CLIENT_TIMEOUT_MS + 10_000 },
    async () => {
      const before = await providerZone();
      let run = { code: null as number | null, output: '' };
      const spent = await callsDuring(async () => {
        run = await runBlocks(['gateway-certbot'], { REQUESTS_CA_BUNDLE: pebble.caFile });
      });
      expect(run.code, `${run.output}\n--- pebble:\n${pebble.output()}`).toBe(0);
      expectCertificate(join(home, 'certbot', 'live', 'example.com', 'cert.pem'));
      expect(gateway!.stderr()).toMatch(
        /key certbot\.example\.com changed example\.com: create _acme-challenge\.example\.com TXT/,
      );
      expect(await providerZone()).toEqual(before);
      expect(spent).toEqual({ 'service/dnslist': 4, 'service/dnscreate': 2, 'service/dnsdelete': 2 });
    },
  );

  it.skipIf(!requireTool('lego'))(
    'lego --dns rfc2136: the same certificate, the same 8 calls; the zone as before',
    { timeout: CLIENT_TIMEOUT_MS + 10_000 },
    async () => {
      const before = await providerZone();
      let run = { code: null as number | null, output: '' };
      const spent = await callsDuring(async () => {
        run = await runBlocks(['gateway-lego'], { LEGO_CA_CERTIFICATES: pebble.caFile });
      });
      expect(run.code, `${run.output}\n--- pebble:\n${pebble.output()}`).toBe(0);
      expectCertificate(join(dir, '.lego', 'certificates', 'example.com.crt'));
      expect(gateway!.stderr()).toMatch(
        /key lego\.example\.com changed example\.com: create _acme-challenge\.example\.com TXT/,
      );
      expect(await providerZone()).toEqual(before);
      expect(spent).toEqual({ 'service/dnslist': 4, 'service/dnscreate': 2, 'service/dnsdelete': 2 });
    },
  );

  it.skipIf(!requireTool('nsupdate', 'bind9-dnsutils'))(
    'the certificate keys may change their TXT records and nothing else (REFUSED)',
    { timeout: 60_000 },
    async () => {
      const before = await providerZone();
      for (const [keyFile, change] of [
        ['certbot.key', 'update add _acme-challenge.www.example.com 60 TXT "other name"'],
        ['certbot.key', 'update add _acme-challenge.example.com 60 CNAME elsewhere.example.net'],
        ['lego.key', 'update add example.com 60 TXT "v=spf1 -all"'],
        ['lego.key', 'update delete www.example.com'],
      ]) {
        const out = await program(
          'nsupdate',
          ['-t', '8', '-k', join(dir, keyFile!)],
          `server 127.0.0.1 ${gatewayPort}\n${change}\nsend\n`,
        );
        expect(out, change).toMatch(/REFUSED/);
      }
      expect(await providerZone()).toEqual(before);
    },
  );

  it.skipIf(!requireTool('nsupdate', 'bind9-dnsutils') || !requireTool('dig', 'bind9-dnsutils'))(
    "external-dns's key: transfers the zone (AXFR), changes its record types below k8s.example.com, nothing else",
    { timeout: 60_000 },
    async () => {
      const before = await providerZone();
      const axfr = await program('dig', [
        '-k',
        join(dir, 'external-dns.key'),
        '@127.0.0.1',
        '-p',
        String(gatewayPort),
        'example.com',
        'AXFR',
      ]);
      expect(axfr).toMatch(/^example\.com\.\s+\d+\s+IN\s+SOA\s/m);
      expect(axfr).not.toMatch(/Transfer failed/);
      const send = (lines: string) =>
        program(
          'nsupdate',
          ['-t', '8', '-k', join(dir, 'external-dns.key')],
          `server 127.0.0.1 ${gatewayPort}\n${lines}\nsend\n`,
        );
      expect(
        await send(
          'update add app.k8s.example.com 300 A 192.0.2.80\nupdate add a-app.k8s.example.com 300 TXT "heritage=external-dns,external-dns/owner=my-cluster"',
        ),
      ).not.toMatch(/REFUSED|failed/);
      expect((await providerZone()).filter((l) => l.includes('k8s.example.com'))).toHaveLength(2);
      expect(await send('update add www.example.com 300 A 192.0.2.81')).toMatch(/REFUSED/);
      expect(await send('update add mail.k8s.example.com 300 MX 10 mx.example.com')).toMatch(/REFUSED/);
      // external-dns removes records one by one (name, type and value).
      expect(
        await send(
          'update delete app.k8s.example.com A 192.0.2.80\nupdate delete a-app.k8s.example.com TXT "heritage=external-dns,external-dns/owner=my-cluster"',
        ),
      ).not.toMatch(/REFUSED|failed/);
      expect(await providerZone()).toEqual(before);
    },
  );

  // A delete of every RRset at a name (`update delete NAME`, type ANY) by a key whose grant names
  // types: BIND checks each RRset present at the name against the grants (ssu_checkall in its
  // update.c) and allows it when all are granted; so does the gateway (external-dns's key).
  it("BIND's rule for a delete of a name by a key granted some types: allowed when every RRset there is granted", {
    timeout: 60_000,
  }, async () => {
    const send = (lines: string) =>
      program(
        'nsupdate',
        ['-t', '8', '-k', join(dir, 'external-dns.key')],
        `server 127.0.0.1 ${gatewayPort}\n${lines}\nsend\n`,
      );
    const before = await providerZone();
    expect(
      await send('update add gone.k8s.example.com 300 A 192.0.2.90\nupdate add gone.k8s.example.com 300 TXT "owner"'),
    ).not.toMatch(/REFUSED|failed/);
    const deleted = await send('update delete gone.k8s.example.com');
    if (/REFUSED/.test(deleted))
      await send('update delete gone.k8s.example.com A\nupdate delete gone.k8s.example.com TXT'); // leave the zone as it was
    expect(deleted).not.toMatch(/REFUSED|failed/);
    expect(await providerZone()).toEqual(before);
  });

  it.skipIf(!requireTool('nsupdate', 'bind9-dnsutils') || !requireTool('knsupdate', 'knot-dnsutils'))(
    'the router key: nsupdate then knsupdate replace one A record, and nothing else changes',
    { timeout: 60_000 },
    async () => {
      const others = (await providerZone()).filter((l) => !l.startsWith('vpn.example.com A '));
      const ns = await runBlocks(['gateway-nsupdate']);
      expect(ns.code, ns.output).toBe(0);
      expect((await providerZone()).filter((l) => l.startsWith('vpn.example.com A '))).toEqual([
        'vpn.example.com A 300 192.0.2.10',
      ]);
      const kn = await runBlocks(['gateway-knsupdate']);
      expect(kn.code, kn.output).toBe(0);
      const after = await providerZone();
      expect(after.filter((l) => l.startsWith('vpn.example.com A '))).toEqual(['vpn.example.com A 300 192.0.2.11']);
      expect(after.filter((l) => !l.startsWith('vpn.example.com A '))).toEqual(others);
    },
  );
});
