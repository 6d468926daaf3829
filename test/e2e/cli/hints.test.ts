// Help, hints and small words, through the built file: api --help, "did you mean" for
// flags, errors as JSON with --json, durations as people write them, and the wording fixes.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withApi } from '../../helpers/agent-env.js';
import { baseEnv, runDist, runMain, tempDir } from '../../helpers/cli.js';
import { startServer, type TestServer } from '../../helpers/servers.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox({ per: 'file' });

describe('ddedge api help', () => {
  it('ddedge api --help lists the modules and how values are given', async () => {
    const run = await runDist(['api', '--help'], baseEnv());
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ddedge api <module> <action>/);
    for (const module of ['tool', 'account', 'domain', 'contact', 'service', 'ssl'])
      expect(run.stdout).toMatch(new RegExp(`^  ${module} +\\d+ operations`, 'm'));
    expect(run.stdout).toContain('@FILE');
  });

  it('ddedge api <module> --help lists its actions, in plain English', async () => {
    const run = await runMain(['api', 'service', '--help'], baseEnv());
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ {2}dnscreate +Create a DNS/m);
    expect(run.stdout).toContain('List the mailboxes of a service');
    expect(run.stdout).toContain('List the mail aliases of a service');
    expect(run.stdout).not.toMatch(/mailboxs|aliass/);
  });

  it('a mistyped module gets "did you mean"', async () => {
    expect(await runMain(['api', 'sll', 'list'], baseEnv())).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('did you mean ssl?'),
    });
  });
});

describe('unknown flags', () => {
  it.each([
    [['update', '--intervall', '5m'], '--interval'],
    [['status', '--state-dri', '/tmp/x'], '--state-dir'],
    [['sandbox', '--prot', '0'], '--port'],
    [['health', '--jsn'], '--json'],
  ])('%j: exit 2, did you mean %s', async (args, flag) => {
    const run = await runMain(args, baseEnv());
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`did you mean ${flag}?`);
  });

  it('a mistyped switch of ddedge api gets "did you mean"', async () => {
    const run = await runMain(['api', 'contact', 'list', '--al'], baseEnv(withApi(sandbox)));
    expect(run).toMatchObject({ code: 2, stderr: expect.stringContaining('did you mean --all') });
    const user = await runMain(['api', 'contact', 'list', '--api-usr', 'x'], baseEnv(withApi(sandbox)));
    expect(user).toMatchObject({ code: 2, stderr: expect.stringMatching(/did you mean .*--api-user/) });
  });

  it('an unknown API parameter gets the nearest names', async () => {
    const run = await runMain(['api', 'service', 'dnslist', '--serviceNam', 'example.com'], baseEnv(withApi(sandbox)));
    expect(run).toMatchObject({ code: 2, stderr: expect.stringContaining('did you mean serviceName') });
  });
});

describe('--json errors', () => {
  it.each([
    [['update', '--json', '--intervall', '5m'], 2, 'usage'],
    [['ip', '--json', '--interval', '10s'], 2, 'usage'],
    [['api', 'domain', 'list', '--json', '--pageLength', '0'], 2, 'usage'],
  ])('%j: one JSON document on stdout {"error":{message, exitCode, kind}}', async (args, exitCode, kind) => {
    const run = await runMain(args, baseEnv(withApi(sandbox)));
    expect(run.code).toBe(exitCode);
    const doc = JSON.parse(run.stdout);
    expect(doc).toEqual({ error: { message: expect.any(String), exitCode, kind } });
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
  });

  it('an API refusal keeps its own kind; the password never appears', async () => {
    const env = baseEnv({
      DDEDGE_API_URL: sandbox.url,
      DDEDGE_API_USER: 'demo-user',
      DDEDGE_API_PASSWORD: 'canary-json-wrong-password',
    });
    const run = await runMain(['api', 'tool', 'hello', '--json'], env);
    expect(run.code).toBe(3);
    expect(JSON.parse(run.stdout).error).toMatchObject({ exitCode: 3, kind: 'auth' });
    expect(run.stdout + run.stderr).not.toContain('canary-json-wrong-password');
  });
});

describe('durations', () => {
  it('--interval 10s is under the minimum of 30s, in the unit written', async () => {
    expect(await runMain(['status', '--interval', '10s'], baseEnv())).toMatchObject({
      code: 2,
      stderr: 'ddedge: --interval: 10s is under the minimum of 30s\n',
    });
    expect(await runMain(['status', '--interval', '8d'], baseEnv())).toMatchObject({
      code: 2,
      stderr: 'ddedge: --interval: 8d is over the maximum of 7d\n',
    });
    expect(await runMain(['status', '--timeout', '50ms'], baseEnv())).toMatchObject({
      code: 2,
      stderr: 'ddedge: --timeout: 50ms is under the minimum of 100ms\n',
    });
  });

  it('compound forms: --interval 1h30m, health --max-age 1h30m', async () => {
    const env = baseEnv({ DDEDGE_STATE_DIR: tempDir('ddedge-state-') });
    expect((await runMain(['status', '--interval', '1h30m'], env)).code).toBe(0);
    const health = JSON.parse((await runMain(['health', '--json', '--max-age', '1h30m'], env)).stdout);
    expect(health.maxAgeMs).toBe(5_400_000);
  });
});

describe('small words', () => {
  let notFound: TestServer;
  let alsoNotFound: TestServer;
  beforeAll(async () => {
    notFound = await startServer((_req, res) => res.writeHead(404).end('not here'));
    alsoNotFound = await startServer((_req, res) => res.writeHead(404).end('not here'));
  });
  afterAll(async () => {
    await notFound.close();
    await alsoNotFound.close();
  });

  it('an address source answering 404: the source URL to check, no credentials hint, no double space', async () => {
    const run = await runMain(
      ['ip', '--ip-source', `url:${notFound.url}`, '--ip-source', `url:${alsoNotFound.url}`],
      baseEnv(),
    );
    expect(run.code).toBe(6);
    expect(run.stderr).toContain('answered HTTP 404 (check the source URL)');
    expect(run.stderr).not.toContain('credentials');
    expect(run.stderr).not.toMatch(/\S: {2}/);
  });

  it('an AAAA value for an A record: "an A entry"', async () => {
    const run = await runMain(
      [
        'api',
        'service',
        'dnscreate',
        '--serviceName',
        'example.com',
        '--name',
        'v6.example.com',
        '--type',
        'A',
        '--value',
        '2001:db8::1',
      ],
      baseEnv(withApi(sandbox)),
    );
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('is not valid for an A entry');
  });
});

describe('the commands do not import the registry that lists them', () => {
  it('no file in src/cli/commands imports ../registry.js (completion gets the command list from its context)', () => {
    const dir = join(import.meta.dirname, '../../../src/cli/commands');
    const importers = readdirSync(dir).filter((f) =>
      /from '\.\.\/registry\.js'/.test(readFileSync(join(dir, f), 'utf8')),
    );
    expect(importers).toEqual([]);
  });
});

// A misspelled variable is no setting at all: the error that a setting is missing says which
// set variable was most likely meant, as "did you mean" does for flags.
describe('a misspelled DDEDGE_ variable or source name', () => {
  const credentials = { DDEDGE_DYNDNS_USER: 'u', DDEDGE_DYNDNS_KEY: 'k', DDEDGE_STATE_DIR: tempDir() };

  it('DDEDGE_HOST in the environment: "did you mean DDEDGE_HOSTS?"', async () => {
    const run = await runDist(
      ['update', '--ip', '81.0.2.15'],
      baseEnv({ ...credentials, DDEDGE_HOST: 'home.example.com' }),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no host to update');
    expect(run.stderr).toMatch(/DDEDGE_HOST is set but is not a setting: did you mean DDEDGE_HOSTS\?/);
  });

  it('DDEDGE_HOST in ./.env: the same', async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, '.env'), 'DDEDGE_HOST=home.example.com\n', { mode: 0o600 });
    const run = await runDist(['update', '--ip', '81.0.2.15', '--json'], baseEnv(credentials), cwd);
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout).error.message).toMatch(
      /DDEDGE_HOST is set but is not a setting: did you mean DDEDGE_HOSTS\?/,
    );
  });

  it('a known variable is never suggested against, nor one far from every setting', async () => {
    const run = await runDist(
      ['update', '--ip', '81.0.2.15'],
      baseEnv({ ...credentials, DDEDGE_GATEWAY_ZONES: 'example.com' }),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).not.toContain('did you mean');
  });

  it.each([
    ['--ip-source', ['--ip-source', 'ipfy']],
    ['DDEDGE_IP_SOURCES', []],
  ])('%s ipfy: "did you mean ipify?"', async (_how, args) => {
    const run = await runDist(['ip', ...args], baseEnv(args.length ? {} : { DDEDGE_IP_SOURCES: 'ipfy' }));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown IPv4 source "ipfy".*; did you mean ipify\?/);
  });
});

// A key file that cannot be read is said once: not also as a key that is missing.
describe('an unreadable key file', () => {
  it.each([
    ['DDEDGE_DYNDNS_KEY_FILE', [] as string[], { DDEDGE_HOSTS: 'home.example.com', DDEDGE_DYNDNS_USER: 'u' }],
    ['--dyndns-key-file', ['--host', 'home.example.com', '--dyndns-user', 'u'], {}],
    ['DDEDGE_API_PASSWORD_FILE', ['--via', 'api'], { DDEDGE_HOSTS: 'home.example.com', DDEDGE_API_USER: 'u' }],
  ])('%s: the read error alone', async (origin, args, env) => {
    const missing = join(tempDir(), 'no-such-key');
    const fileArgs = origin.startsWith('--') ? [origin, missing] : [];
    const run = await runDist(
      ['update', '--ip', '81.0.2.15', ...args, ...fileArgs],
      baseEnv({ ...env, DDEDGE_STATE_DIR: tempDir(), ...(origin.startsWith('--') ? {} : { [origin]: missing }) }),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`ddedge: ${origin}: cannot read "${missing}": ENOENT\n`);
  });
});

// The provider's answer repeats itself (errorCodeMsg "Account invalid password", messages
// ["invalid password"]): the error says each thing once.
describe('an API error', () => {
  it('says a part that repeats another once', async () => {
    const run = await runDist(
      ['api', 'account', 'info'],
      baseEnv({ ...withApi(sandbox), DDEDGE_API_PASSWORD: 'not-the-password' }),
    );
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(
      'ddedge: account/info failed with error 1004: Account invalid password (check DDEDGE_API_USER and DDEDGE_API_PASSWORD)\n',
    );
  });
});
