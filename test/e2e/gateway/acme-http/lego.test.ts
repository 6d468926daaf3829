// Real ACME issuances through the gateway's HTTP door, from docs/certificates.md "ACME over HTTP"
// run as written: Debian's lego with `--dns httpreq`, then with HTTPREQ_MODE=RAW, each a
// certificate for example.com and *.example.com from Pebble, which validates DNS-01 at the
// sandbox's name server; the key is granted only `name _acme-challenge.example.com TXT`. Then
// acme-dns, which Debian's lego is built without: lego's `exec` provider runs a script that sends
// exactly what goacmedns's UpdateTXTRecord sends (lego's acme-dns provider calls it once per name
// from the account it fetched; its CleanUp sends nothing), from the accounts file
// `ddedge gateway acme-dns-account` wrote, as lego's ACME_DNS_STORAGE_PATH holds it. After each,
// the provider's zone is as before (httpreq) or holds only the two newest values (acme-dns), and
// the provider calls each certificate cost are counted.
//
// The page's blocks run unchanged in one directory, in an empty HOME, with `ddedge` on the PATH
// as the package installs it; the port 8245 in the blocks becomes the door's free port, and a
// `lego` first on the PATH adds what the page cannot say (Pebble's URL, the sandbox's name
// server, no wait for the zone's NS at port 53), as test/e2e/gateway/acme-clients.test.ts does.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIST, tempDir } from '../../../helpers/cli.js';
import { startPebble, type Pebble } from '../../../helpers/pebble.js';
import { requireTool } from '../../../helpers/programs.js';
import { readmeRecipe, runRecipe, withPorts } from '../../../helpers/readme-recipes.js';
import { sandboxRegistrar } from '../../../helpers/sandbox-sdk.js';
import { startGatewayProcess, type GatewayProcess } from '../../../helpers/use-gateway.js';
import { useSandbox } from '../../../helpers/use-sandbox.js';

const TOOLS = requireTool('pebble') && requireTool('openssl') && requireTool('lego');
const CLIENT_TIMEOUT_MS = 150_000;

const sandbox = useSandbox({ dnsPort: 0, per: 'file' });
let pebble: Pebble;
let gateway: GatewayProcess | undefined;
let doorPort: number;
let dir: string;
let home: string;
let bin: string;

/** The provider's zone, read through the API (service/dnslist), as `name TYPE ttl value` lines. */
async function providerZone(): Promise<string[]> {
  const { dns } = await sandboxRegistrar(sandbox).service.dnsList({ serviceName: 'example.com' });
  return dns.map((e) => `${e.name} ${e.type} ${e.ttl} ${e.value}`).sort();
}

/** Runs the page's blocks `names` in the gateway's directory, the door's port for 8245. */
function runBlocks(names: string[], env: Record<string, string> = {}) {
  const script = names.map((n) => readmeRecipe(n)).join('\n');
  return runRecipe(doorPort && script.includes('8245') ? withPorts(script, { 8245: doorPort }) : script, {
    cwd: dir,
    env: { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: home, ...env },
    timeoutMs: CLIENT_TIMEOUT_MS,
  });
}

/** Provider calls made while `action` ran, by operation. */
async function callsDuring(action: () => Promise<void>): Promise<Record<string, number>> {
  const before = new Map(sandbox.calls);
  await action();
  const spent: Record<string, number> = {};
  for (const [op, n] of sandbox.calls) if (n !== (before.get(op) ?? 0)) spent[op] = n - (before.get(op) ?? 0);
  return spent;
}

function certificateOf(pemFile: string): string {
  const text = execFileSync('openssl', ['x509', '-noout', '-ext', 'subjectAltName', '-issuer', '-in', pemFile], {
    encoding: 'utf8',
  });
  expect(text).toContain('DNS:example.com, DNS:*.example.com');
  expect(text).toMatch(/issuer=.*Pebble/);
  return readFileSync(pemFile, 'utf8');
}

beforeAll(async () => {
  if (!TOOLS) return;
  pebble = await startPebble(`127.0.0.1:${sandbox.dnsPort}`, 600_000);
  dir = tempDir('ddedge-acme-http-');
  home = tempDir('ddedge-acme-http-home-');
  bin = tempDir('ddedge-acme-http-bin-');
  writeFileSync(join(bin, 'ddedge'), `#!/bin/sh\nexec "${process.execPath}" "${DIST}" "$@"\n`, { mode: 0o755 });
  const realLego = execFileSync('sh', ['-c', 'command -v lego'], { encoding: 'utf8' }).trim();
  writeFileSync(
    join(bin, 'lego'),
    `#!/bin/sh\nexec "${realLego}" --server "${pebble.directoryUrl}" --dns.resolvers 127.0.0.1:${sandbox.dnsPort} --dns.disable-cp "$@"\n`,
    { mode: 0o755 },
  );
  const keys = await runBlocks(['acme-http-key']);
  expect(keys.code, keys.output).toBe(0);
  gateway = await startGatewayProcess({
    apiUrl: sandbox.url,
    zone: 'example.com',
    keysFile: join(dir, 'gateway.keys'),
    stateDir: join(dir, 'state'),
    primaryName: null,
    args: ['--refresh', '1h', '--http-listen', '127.0.0.1:0', '--log-level', 'debug'],
  });
  doorPort = Number(new URL(gateway.dyndns2!).port);
});

afterAll(async () => {
  if (gateway) {
    expect(await gateway.stop()).toBe(0);
    const { stdout, stderr } = await gateway.child.result;
    const secret = /secret "([^"]+)"/.exec(readFileSync(join(dir, 'acme.key'), 'utf8'))![1]!;
    expect(stdout + stderr).not.toContain(secret);
    expect(readFileSync(join(dir, 'state', 'gateway', 'journal.jsonl'), 'utf8')).not.toContain(secret);
  }
  await pebble?.close();
});

describe.skipIf(!TOOLS)('lego through the HTTP door, as docs/certificates.md shows it', () => {
  let first = '';

  it('httpreq: a certificate for example.com and *.example.com in 8 provider calls; the zone as before', {
    timeout: CLIENT_TIMEOUT_MS + 10_000,
  }, async () => {
    const before = await providerZone();
    let run = { code: null as number | null, output: '' };
    const spent = await callsDuring(async () => {
      run = await runBlocks(['acme-http-lego'], { LEGO_CA_CERTIFICATES: pebble.caFile });
    });
    expect(run.code, `${run.output}\n--- pebble:\n${pebble.output()}`).toBe(0);
    first = certificateOf(join(dir, '.lego', 'certificates', 'example.com.crt'));
    expect(await providerZone()).toEqual(before);
    expect(spent).toEqual({ 'service/dnslist': 4, 'service/dnscreate': 2, 'service/dnsdelete': 2 });
    const journal = readFileSync(join(dir, 'state', 'gateway', 'journal.jsonl'), 'utf8');
    expect(journal).toMatch(/"key":"acme\.example\.com"/);
  });

  it('httpreq in RAW mode: the gateway hashes keyAuth; a new certificate, the same 8 calls, the zone as before', {
    timeout: CLIENT_TIMEOUT_MS + 10_000,
  }, async () => {
    const before = await providerZone();
    let run = { code: null as number | null, output: '' };
    const spent = await callsDuring(async () => {
      run = await runBlocks(['acme-http-lego-raw'], { LEGO_CA_CERTIFICATES: pebble.caFile });
    });
    expect(run.code, `${run.output}\n--- pebble:\n${pebble.output()}`).toBe(0);
    expect(certificateOf(join(dir, '.lego', 'certificates', 'example.com.crt'))).not.toBe(first);
    expect(await providerZone()).toEqual(before);
    expect(spent).toEqual({ 'service/dnslist': 4, 'service/dnscreate': 2, 'service/dnsdelete': 2 });
  });

  it("a name outside the key's grants: refused 403, lego fails, nothing written", {
    timeout: CLIENT_TIMEOUT_MS + 10_000,
  }, async () => {
    const before = await providerZone();
    const script = readmeRecipe('acme-http-lego').replace("-d example.com -d '*.example.com'", '-d www.example.com');
    const run = await runRecipe(withPorts(script, { 8245: doorPort }), {
      cwd: dir,
      env: { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: home, LEGO_CA_CERTIFICATES: pebble.caFile },
      timeoutMs: CLIENT_TIMEOUT_MS,
    });
    expect(run.code).not.toBe(0);
    expect(run.output).toMatch(/403/);
    await gateway!.logged(
      /403: .*httpreq: the key acme\.example\.com may not change _acme-challenge\.www\.example\.com TXT/,
    );
    expect(await providerZone()).toEqual(before);
  });

  it('acme-dns: two certificates from the accounts file, as goacmedns sends; 4 calls each; only the newest two stay', {
    timeout: 2 * CLIENT_TIMEOUT_MS + 10_000,
  }, async () => {
    const accounts = await runBlocks(['acme-http-accounts']);
    expect(accounts.code, accounts.output).toBe(0);
    // lego's acme-dns provider, as it runs: Present fetches the account of the domain from
    // ACME_DNS_STORAGE_PATH and calls goacmedns's UpdateTXTRecord; CleanUp sends nothing.
    const goacmedns = join(bin, 'goacmedns-update');
    writeFileSync(
      goacmedns,
      `#!${process.execPath}
const [action, fqdn, txt] = process.argv.slice(2);
if (action !== 'present') process.exit(0);
const domain = fqdn.slice('_acme-challenge.'.length).replace(/[.]$/, '');
const account = JSON.parse(require('node:fs').readFileSync(process.env.ACME_DNS_STORAGE_PATH, 'utf8'))[domain];
const base = process.env.ACME_DNS_API_BASE;
fetch(new URL('update', base.endsWith('/') ? base : base + '/'), {
  method: 'POST',
  headers: { Accept: 'application/json', 'User-Agent': 'goacmedns (linux; amd64)', 'X-Api-User': account.username,
    'X-Api-Key': account.password, 'Content-Type': 'application/json' },
  body: JSON.stringify({ subdomain: account.subdomain, txt }) + String.fromCharCode(10),
}).then(async (res) => { if (res.status !== 200) { console.error(res.status, await res.text()); process.exit(1); } });
`,
      { mode: 0o755 },
    );
    const issue = () =>
      runRecipe(
        `lego --email admin@example.com --accept-tos --path acme-dns-lego --dns exec -d example.com -d '*.example.com' run`,
        {
          cwd: dir,
          env: {
            PATH: `${bin}:${process.env.PATH ?? ''}`,
            HOME: home,
            LEGO_CA_CERTIFICATES: pebble.caFile,
            EXEC_PATH: goacmedns,
            EXEC_SEQUENCE_INTERVAL: '1',
            ACME_DNS_API_BASE: `http://127.0.0.1:${doorPort}`,
            ACME_DNS_STORAGE_PATH: join(dir, 'acme-dns.json'),
          },
          timeoutMs: CLIENT_TIMEOUT_MS,
        },
      );
    const before = await providerZone();
    const challenges = async () => (await providerZone()).filter((l) => l.startsWith('_acme-challenge.example.com '));
    for (const [round, calls] of [
      [1, { 'service/dnslist': 2, 'service/dnscreate': 2 }],
      // The zone engine makes "add the new value, remove the oldest" one call: the old entry updated in place.
      [2, { 'service/dnslist': 2, 'service/dnsupdate': 2 }],
    ] as const) {
      let run = { code: null as number | null, output: '' };
      const spent = await callsDuring(async () => {
        run = await issue();
      });
      expect(run.code, `round ${round}: ${run.output}\n--- pebble:\n${pebble.output()}`).toBe(0);
      certificateOf(join(dir, 'acme-dns-lego', 'certificates', 'example.com.crt'));
      expect(spent, `round ${round}: ${JSON.stringify(spent)}`).toEqual(calls);
      // acme-dns's clients never clean up: the two values of the last certificate stay, older ones are gone.
      expect(await challenges()).toHaveLength(2);
      expect((await providerZone()).filter((l) => !l.startsWith('_acme-challenge.example.com '))).toEqual(before);
    }
    const kept = JSON.parse(readFileSync(join(dir, 'state', 'gateway', 'acme-dns.json'), 'utf8')).names;
    expect((await challenges()).map((l) => l.split(' ')[3]).sort()).toEqual(
      [...kept['_acme-challenge.example.com']].sort(),
    );
  });
});
