// ddedge acme, as lego, certbot and scripts run it, against the sandbox. The built file runs in
// the first test, for values that start with a dash, and behind ddedge-acme and dns_ddedge.sh;
// the rest is the command's logic, run by main() in this process (a process start each took
// seconds on a loaded machine).
// Propagation waits are tested in acme-propagation.test.ts (they need a name server).
import { readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseFault } from '../../../src/sandbox/faults.js';
import { providerCalls } from '../../helpers/agent-env.js';
import { baseEnv, runDist, runMain, tempDir, type RunResult } from '../../helpers/cli.js';
import { acmeEnv, challengeValues, zoneWithoutChallenges } from '../../helpers/acme.js';
import { spawn } from 'node:child_process';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox({ dnsPort: 0 });

const NAME = '_acme-challenge.example.com';
const V1 = 'gfj9Xq-bB1rPpU0vTyvDBKpDqsm9dTHSpg9_5xJX0zk';
const V2 = 'LPsIwTo7o8BoG0-vjCyGQGBWSVIPxI-i_X336eUOQZo';
const acme = (
  args: string[],
  extra: Record<string, string | undefined> = {},
  env = acmeEnv(sandbox),
  run: (args: string[], env: Record<string, string>) => Promise<RunResult> = runMain,
) => run(['acme', ...args, '--no-wait'], { ...env, ...(extra as Record<string, string>) });

describe('ddedge acme present and cleanup', () => {
  it('adds the value beside the others with one list and one create, and cleanup removes exactly it', async () => {
    const before = zoneWithoutChallenges(sandbox);
    sandbox.model.services[0]!.dns.push({
      entityID: '90',
      name: NAME,
      type: 'TXT',
      ttl: '-',
      priority: '-',
      value: 'someone-elses-token',
    });
    const env = acmeEnv(sandbox);
    const present = await acme(['present', `${NAME}.`, V1], {}, env, runDist);
    // Nothing on stderr: certbot shows a hook's stderr as "error output".
    expect(present).toMatchObject({
      code: 0,
      stdout: `${NAME} TXT "${V1}" added; not waited for (--no-wait)\n`,
      stderr: '',
    });
    expect(Object.fromEntries(sandbox.calls)).toEqual({ 'service/dnslist': 1, 'service/dnscreate': 1 });
    expect(challengeValues(sandbox, NAME)).toEqual(['someone-elses-token', V1]);
    const state = JSON.parse(readFileSync(join(env.DDEDGE_STATE_DIR!, 'acme', 'challenges.json'), 'utf8'));
    expect(state.challenges).toMatchObject([{ name: NAME, value: V1, service: 'example.com' }]);

    const cleanup = await acme(['cleanup', `${NAME}.`, V1], {}, env, runDist);
    expect(cleanup).toMatchObject({ code: 0, stdout: `${NAME} TXT "${V1}" removed\n` });
    expect(challengeValues(sandbox, NAME)).toEqual(['someone-elses-token']);
    expect(JSON.parse(readFileSync(join(env.DDEDGE_STATE_DIR!, 'acme', 'challenges.json'), 'utf8')).challenges).toEqual(
      [],
    );
    expect(zoneWithoutChallenges(sandbox)).toEqual(before);
  });

  it('is idempotent: present twice adds the value once', async () => {
    const env = acmeEnv(sandbox);
    expect((await acme(['present', NAME, V1], {}, env)).code).toBe(0);
    const calls = providerCalls(sandbox);
    const again = await acme(['present', NAME, V1, '--json'], {}, env);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({
      name: NAME,
      value: V1,
      service: 'example.com',
      action: 'present',
      otherValues: 0,
      visibleOn: [],
    });
    expect(providerCalls(sandbox) - calls).toBe(1);
    expect(challengeValues(sandbox, NAME)).toEqual([V1]);
  });

  it('recognises its value however the zone lists it: quoted, or under a relative name', async () => {
    const dns = sandbox.model.services[0]!.dns;
    dns.push({ entityID: '91', name: '_acme-challenge', type: 'TXT', ttl: '-', priority: '-', value: `"${V1}"` });
    const present = await acme(['present', NAME, V1]);
    expect(present.stdout).toContain('already there');
    expect(sandbox.calls.get('service/dnscreate')).toBeUndefined();
    expect((await acme(['cleanup', NAME, V1])).stdout).toContain('removed');
    expect(dns.find((e) => e.entityID === '91')).toBeUndefined();
  });

  it.each(['-9gT3kQ2mYxV0bL7pR4sN1cW8eZ6uA5hJ0dF3iK2oM1', '--VxeSfX6h3n0QpL2mK8rT4yW1cB7dZ5gN9jU0aE3iO'])(
    'takes a value starting with a dash (%s), as lego passes it',
    async (value) => {
      const env = acmeEnv(sandbox);
      const present = await runDist(['acme', 'present', `${NAME}.`, value, '--no-wait'], env);
      expect(present.code, present.stderr).toBe(0);
      expect(challengeValues(sandbox, NAME)).toEqual([value]);
      expect((await runDist(['acme', 'cleanup', `${NAME}.`, value, '120'], env)).code).toBe(0);
      expect(challengeValues(sandbox, NAME)).toEqual([]);
    },
  );

  it('takes the TTL that older lego releases append, and ignores it', async () => {
    expect((await acme(['present', `${NAME}.`, V1, '120'])).code).toBe(0);
    expect(challengeValues(sandbox, NAME)).toEqual([V1]);
  });

  it('cleanup of a value that is not there is exit 0 and changes nothing', async () => {
    const before = JSON.stringify(sandbox.model.services);
    const result = await acme(['cleanup', NAME, V1]);
    expect(result).toMatchObject({ code: 0, stdout: `${NAME} TXT "${V1}" absent; nothing to remove\n` });
    expect(JSON.stringify(sandbox.model.services)).toBe(before);
    expect(sandbox.calls.get('service/dnsdelete')).toBeUndefined();
  });

  it('accepts a trailing dot, upper case and an IDN, and stores the name as the DNS knows it', async () => {
    sandbox.model.services.push({
      ...(JSON.parse(JSON.stringify(sandbox.model.services[1]!)) as (typeof sandbox.model.services)[number]),
      name: 'xn--bcher-kva.es',
      dns: [],
    });
    expect((await acme(['present', '_ACME-Challenge.Example.COM.', V1])).code).toBe(0);
    expect(challengeValues(sandbox, NAME)).toEqual([V1]);
    const idn = await acme(['present', '_acme-challenge.www.Bücher.es.', V2]);
    expect(idn).toMatchObject({
      code: 0,
      stdout: `_acme-challenge.www.xn--bcher-kva.es TXT "${V2}" added; not waited for (--no-wait)\n`,
    });
    expect(challengeValues(sandbox, '_acme-challenge.www.xn--bcher-kva.es')).toEqual([V2]);
    expect((await acme(['cleanup', '_acme-challenge.WWW.bücher.es', V2])).code).toBe(0);
    expect(challengeValues(sandbox, '_acme-challenge.www.xn--bcher-kva.es')).toEqual([]);
  });
});

describe('certbot hooks', () => {
  it('a name and its wildcard: two auth runs for one name before validation keep both values; each cleanup removes its own', async () => {
    const env = acmeEnv(sandbox);
    const hook = (action: string, value: string) =>
      acme(
        [action],
        {
          CERTBOT_DOMAIN: 'example.com',
          CERTBOT_VALIDATION: value,
          CERTBOT_TOKEN: '',
          CERTBOT_REMAINING_CHALLENGES: '1',
        },
        env,
      );
    expect((await hook('certbot-auth', V1)).code).toBe(0);
    expect((await hook('certbot-auth', V2)).code).toBe(0);
    expect(challengeValues(sandbox, NAME)).toEqual([V1, V2]);
    expect((await hook('certbot-cleanup', V1)).code).toBe(0);
    expect(challengeValues(sandbox, NAME)).toEqual([V2]);
    expect((await hook('certbot-cleanup', V2)).code).toBe(0);
    expect(challengeValues(sandbox, NAME)).toEqual([]);
  });

  it('a wildcard domain given as *.example.com is the same record', async () => {
    expect((await acme(['certbot-auth'], { CERTBOT_DOMAIN: '*.example.com', CERTBOT_VALIDATION: V1 })).code).toBe(0);
    expect(challengeValues(sandbox, NAME)).toEqual([V1]);
  });

  it('outside certbot (no CERTBOT_DOMAIN) is a usage error naming the variables', async () => {
    const result = await acme(['certbot-auth']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('CERTBOT_DOMAIN and CERTBOT_VALIDATION are not set');
    expect(providerCalls(sandbox)).toBe(0);
  });
});

describe('bad input and refusals', () => {
  it('a name outside every service: exit 7, nothing created', async () => {
    const before = JSON.stringify(sandbox.model.services);
    const result = await acme(['present', '_acme-challenge.example.org', V1]);
    expect(result.code).toBe(7);
    expect(result.stderr).toMatch(/no hosting service example\.org in this account.*--service/);
    expect(sandbox.calls.get('service/dnscreate')).toBeUndefined();
    expect(JSON.stringify(sandbox.model.services)).toBe(before);
  });

  it('a name outside the service given with --service: exit 2, no request', async () => {
    const result = await acme(['present', '_acme-challenge.example.org', V1, '--service', 'example.com']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('_acme-challenge.example.org is not inside the service example.com');
    expect(providerCalls(sandbox)).toBe(0);
  });

  it('no API credentials: exit 2, naming what is missing', async () => {
    const result = await acme(
      ['present', NAME, V1],
      { DDEDGE_API_USER: undefined, DDEDGE_API_PASSWORD: undefined },
      baseEnv({ DDEDGE_API_URL: sandbox.url, DDEDGE_STATE_DIR: tempDir() }),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('DDEDGE_API_USER and DDEDGE_API_PASSWORD');
    expect(providerCalls(sandbox)).toBe(0);
  });

  it('the API refusing the create (the zone is full): exit 7, nothing recorded', async () => {
    const net = sandbox.model.services[1]!;
    for (let i = net.dns.length; i < 50; i++)
      net.dns.push({
        entityID: `f${i}`,
        name: `h${i}.example.net`,
        type: 'A',
        ttl: '-',
        priority: '-',
        value: '192.0.2.1',
      });
    const env = acmeEnv(sandbox);
    const result = await acme(['present', '_acme-challenge.example.net', V1], {}, env);
    expect(result.code).toBe(7);
    expect(result.stderr).toContain('service/dnscreate failed with error 4003');
    expect(challengeValues(sandbox, '_acme-challenge.example.net')).toEqual([]);
  });

  it('a state directory that cannot be written: exit 2 before anything is created', async () => {
    const file = join(tempDir(), 'not-a-directory');
    writeFileSync(file, '');
    const result = await acme(['present', NAME, V1], { DDEDGE_STATE_DIR: file });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('DDEDGE_STATE_DIR');
    expect(providerCalls(sandbox)).toBe(0);
  });

  it('a server error on the create is transient (exit 4) and never retried', async () => {
    sandbox.faults.push(parseFault('service/dnscreate=503'));
    const result = await acme(['present', NAME, V1]);
    expect(result.code).toBe(4);
    expect(sandbox.calls.get('service/dnscreate')).toBe(1);
  });

  it.each([['present'], ['cleanup']])(
    '%s at a name without _acme-challenge. (the prefix forgotten): exit 2, no request, the name it meant',
    async (action) => {
      const before = JSON.stringify(sandbox.model.services);
      const result = await acme([action, 'example.com.', V1]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('"example.com." does not start with _acme-challenge.');
      expect(result.stderr).toContain('_acme-challenge.example.com');
      expect(result.stderr).toContain('--any-name');
      expect(providerCalls(sandbox)).toBe(0);
      expect(JSON.stringify(sandbox.model.services)).toBe(before);
    },
  );

  it('--any-name sets a challenge at a name a CNAME delegates to, and removes it', async () => {
    const env = acmeEnv(sandbox);
    const present = await acme(['present', 'challenges.example.com', V1, '--any-name'], {}, env);
    expect(present.code, present.stderr).toBe(0);
    expect(challengeValues(sandbox, 'challenges.example.com')).toEqual([V1]);
    expect((await acme(['cleanup', 'challenges.example.com', V1, '--any-name'], {}, env)).code).toBe(0);
    expect(challengeValues(sandbox, 'challenges.example.com')).toEqual([]);
  });

  it.each([
    [['present', NAME], 'expected <fqdn> <value>, got 1 argument'],
    [['present', 'example.com', 'token', 'keyauth'], "lego's EXEC_MODE=RAW"],
    [['present', 'not a name', V1], 'is not a DNS name'],
    [['present', NAME, 'two words'], 'printable characters without spaces'],
    [['renew', NAME, V1], 'unknown action "renew"'],
    [['present', NAME, V1, '--propagation-timeout', 'soon'], '"soon" is not a duration'],
  ])('%j: exit 2, no request', async (args, message) => {
    const result = await acme(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(providerCalls(sandbox)).toBe(0);
  });
});

describe('the shipped front-ends', () => {
  it('the package ships ddedge-acme as a second command and dns_ddedge.sh', () => {
    const pkg = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../package.json'), 'utf8'));
    expect(pkg.bin['ddedge-acme']).toBe('bin/ddedge-acme');
    expect(pkg.files).toEqual(expect.arrayContaining(['bin', 'dnsapi']));
    expect(statSync(resolve(import.meta.dirname, '../../../bin/ddedge-acme')).mode & 0o111).toBe(0o111);
    expect(readFileSync(resolve(import.meta.dirname, '../../../dnsapi/dns_ddedge.sh'), 'utf8')).toMatch(
      /^dns_ddedge_add\(\) \{$/m,
    );
  });

  it('ddedge-acme runs `ddedge acme "$@"`, also through a link as npm installs it', async () => {
    const link = join(tempDir(), 'ddedge-acme');
    symlinkSync(resolve(import.meta.dirname, '../../../bin/ddedge-acme'), link);
    const env = acmeEnv(sandbox);
    const present = await runCommand(link, ['present', `${NAME}.`, V1, '--no-wait'], env);
    expect(present).toMatchObject({ code: 0, stdout: `${NAME} TXT "${V1}" added; not waited for (--no-wait)\n` });
    expect((await runCommand(link, ['cleanup', `${NAME}.`, V1], env)).code).toBe(0);
    expect(challengeValues(sandbox, NAME)).toEqual([]);
  });

  it('dns_ddedge.sh: dns_ddedge_add and dns_ddedge_rm from a shell, settings saved for renewals as acme.sh does', async () => {
    // present waits until the sandbox's own name server shows the value.
    const env = acmeEnv(sandbox, {
      DDEDGE_DNS_SERVERS: `127.0.0.1:${sandbox.dnsPort}`,
      DDEDGE_PROPAGATION_TIMEOUT: '10s',
    });
    const bin = tempDir();
    symlinkSync(resolve(import.meta.dirname, '../../../dist/ddedge.mjs'), join(bin, 'ddedge'));
    const conf = join(tempDir(), 'account.conf');
    const hook = resolve(import.meta.dirname, '../../../dnsapi/dns_ddedge.sh');
    // acme.sh's helpers, reduced to what the hook calls: a key=value file.
    const fakeAcmeSh = `
      _info() { printf 'info: %s\\n' "$1"; }
      _err() { printf 'err: %s\\n' "$1"; }
      _saveaccountconf_mutable() { printf '%s=%s\\n' "$1" "$2" >> "${conf}"; }
      _readaccountconf_mutable() { sed -n "s/^$1=//p" "${conf}" 2>/dev/null | tail -n 1; }
    `;
    const add = await runCommand(
      'sh',
      ['-c', `${fakeAcmeSh} . "${hook}" && dns_ddedge_add ${NAME} ${V1} && dns_ddedge_add ${NAME} ${V2}`],
      { ...env, PATH: `${bin}:${env.PATH}` },
    );
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toContain(`info: ddedge acme present ${NAME} ${V1}`);
    expect(challengeValues(sandbox, NAME)).toEqual([V1, V2]);
    // A renewal from cron: none of the settings in the environment, all read back.
    const bare = baseEnv({ PATH: `${bin}:${env.PATH}` });
    const rm = await runCommand('sh', ['-c', `${fakeAcmeSh} . "${hook}" && dns_ddedge_rm ${NAME} ${V1}`], bare);
    expect(rm.code, rm.stderr).toBe(0);
    expect(challengeValues(sandbox, NAME)).toEqual([V2]);
    const failed = await runCommand('sh', ['-c', `. "${hook}" && dns_ddedge_rm ${NAME} ${V2}`], bare);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('ddedge acme cleanup failed (exit 2)');
  });
});

function runCommand(
  command: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}
