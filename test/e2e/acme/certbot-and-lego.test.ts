// The proof with real programs: certbot and lego obtain one certificate for example.com and
// *.example.com from Pebble (Let's Encrypt's test server), which validates DNS-01 against the
// sandbox's name server, with ddedge setting and removing the challenges through the sandbox's
// API. Afterwards the challenges are gone, the rest of the zone is as it was, and the API
// password (a canary) appears in none of the clients' output or logs.
// Skipped when a program is missing, unless DDEDGE_REQUIRE_TOOLS=1 (CI installs them).
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acmeEnv, challengeValues, zoneWithoutChallenges } from '../../helpers/acme.js';
import { CANARY, DIST, tempDir } from '../../helpers/cli.js';
import { startPebble, type Pebble } from '../../helpers/pebble.js';
import { requireTool } from '../../helpers/programs.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const hasPebble = requireTool('pebble');
const hasCertbot = requireTool('certbot');
const hasLego = requireTool('lego');
const WRAPPER = resolve(import.meta.dirname, '../../../bin/ddedge-acme');
const CLIENT_TIMEOUT_MS = 100_000;

const sandbox = useSandbox({ dnsPort: 0 });
let pebble: Pebble;
let zoneBefore: string;
beforeEach(async () => {
  sandbox.model.account.apiPassword = CANARY;
  zoneBefore = zoneWithoutChallenges(sandbox);
  if (hasPebble) pebble = await startPebble(`127.0.0.1:${sandbox.dnsPort}`);
});
afterEach(async () => {
  await pebble?.close();
});

/** What ddedge needs, at debug level so that any leak would show. */
const ddedgeEnv = () =>
  acmeEnv(sandbox, {
    DDEDGE_DNS_SERVERS: `127.0.0.1:${sandbox.dnsPort}`,
    DDEDGE_PROPAGATION_TIMEOUT: '20s',
    DDEDGE_LOG_LEVEL: 'debug',
  });

function run(
  command: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), CLIENT_TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, output });
    });
  });
}

/** Every file under `dir`, read as text. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile())
    .map((f) => readFileSync(f, 'latin1'));

function expectCertificateFor(pemFile: string) {
  const text = execFileSync('openssl', ['x509', '-noout', '-ext', 'subjectAltName', '-issuer', '-in', pemFile], {
    encoding: 'utf8',
  });
  expect(text).toContain('DNS:example.com');
  expect(text).toContain('DNS:*.example.com');
  expect(text).toMatch(/issuer=.*Pebble/);
}

function expectZoneRestored() {
  expect(challengeValues(sandbox, '_acme-challenge.example.com')).toEqual([]);
  expect(zoneWithoutChallenges(sandbox)).toBe(zoneBefore);
}

describe.skipIf(!hasPebble)('a certificate for example.com and *.example.com from Pebble', () => {
  it.skipIf(!hasCertbot)(
    'certbot --manual --preferred-challenges dns with the ddedge hooks',
    { timeout: 120_000 },
    async () => {
      const dir = tempDir('ddedge-certbot-');
      const env = ddedgeEnv();
      const hook = (action: string) => `${process.execPath} ${DIST} acme ${action}`;
      const result = await run(
        'certbot',
        [
          'certonly',
          '--manual',
          '--preferred-challenges',
          'dns',
          '--manual-auth-hook',
          hook('certbot-auth'),
          '--manual-cleanup-hook',
          hook('certbot-cleanup'),
          '-d',
          'example.com',
          '-d',
          '*.example.com',
          '--server',
          pebble.directoryUrl,
          '--config-dir',
          join(dir, 'config'),
          '--work-dir',
          join(dir, 'work'),
          '--logs-dir',
          join(dir, 'logs'),
          '--non-interactive',
          '--agree-tos',
          '--register-unsafely-without-email',
        ],
        { ...env, REQUESTS_CA_BUNDLE: pebble.caFile },
      );
      expect(result.code, `${result.output}\n--- pebble:\n${pebble.output()}`).toBe(0);
      expectCertificateFor(join(dir, 'config', 'live', 'example.com', 'fullchain.pem'));
      expectZoneRestored();
      // Both challenges were at one name at once: the second auth hook kept the first value.
      expect(sandbox.calls.get('service/dnscreate')).toBe(2);
      expect(sandbox.calls.get('service/dnsdelete')).toBe(2);
      const logs = filesUnder(join(dir, 'logs')).join('\n');
      expect(logs).toContain('acme certbot-auth');
      for (const text of [result.output, logs, ...filesUnder(env.DDEDGE_STATE_DIR!)])
        expect(text).not.toContain(CANARY);
    },
  );

  it.skipIf(!hasLego)('lego --dns exec with EXEC_PATH=ddedge-acme', { timeout: 120_000 }, async () => {
    const dir = tempDir('ddedge-lego-');
    const env = ddedgeEnv();
    const result = await run(
      'lego',
      [
        '--server',
        pebble.directoryUrl,
        '--accept-tos',
        '--email',
        'admin@example.com',
        '--domains',
        'example.com',
        '--domains',
        '*.example.com',
        '--dns',
        'exec',
        '--dns.resolvers',
        `127.0.0.1:${sandbox.dnsPort}`,
        // lego's own check would ask the zone's NS on port 53; ddedge has waited for them already.
        '--dns.disable-cp',
        '--path',
        dir,
        'run',
      ],
      // The exec provider solves one name at a time, 60 s apart by default.
      {
        ...env,
        EXEC_PATH: WRAPPER,
        LEGO_CA_CERTIFICATES: pebble.caFile,
        EXEC_POLLING_INTERVAL: '1',
        EXEC_PROPAGATION_TIMEOUT: '30',
        EXEC_SEQUENCE_INTERVAL: '1',
      },
    );
    expect(result.code, `${result.output}\n--- pebble:\n${pebble.output()}`).toBe(0);
    expectCertificateFor(join(dir, 'certificates', 'example.com.crt'));
    expectZoneRestored();
    expect(sandbox.calls.get('service/dnscreate')).toBe(2);
    expect(sandbox.calls.get('service/dnsdelete')).toBe(2);
    for (const text of [result.output, ...filesUnder(env.DDEDGE_STATE_DIR!)]) expect(text).not.toContain(CANARY);
  });
});
