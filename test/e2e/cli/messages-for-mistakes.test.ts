// The messages a new user meets in the first hour, which decide whether they stay: only what is
// missing, in the form the user used; what a TLS error to a plain HTTP server means; hints for
// a list with spaces, a host missing from the zone, a mistyped *-file flag; warnings (not exit
// 2) for an unreadable implicit ./.env, a secret on the command line, a given address that is
// not public.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/server.js';
import { agentEnv, providerCalls, withApi } from '../../helpers/agent-env.js';
import { baseEnv, runDist, runMain, tempDir } from '../../helpers/cli.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox();

const flagsOnly = (sandbox: Sandbox) =>
  baseEnv({ DDEDGE_DYNDNS_URL: sandbox.url, DDEDGE_STATE_DIR: tempDir('ddedge-state-') });
const keyFile = (text: string) => {
  const path = join(tempDir(), 'key');
  writeFileSync(path, text, { mode: 0o600 });
  return path;
};

describe('what is missing, in the form the user used', () => {
  it('--dyndns-user without a key: only the key is asked for, as a flag', async () => {
    const run = await runDist(
      ['update', '--host', 'home.example.com', '--ip', '81.0.2.15', '--dyndns-user', 'demo-user'],
      flagsOnly(sandbox),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'ddedge: --dyndns-key is missing (or --dyndns-key-file, DDEDGE_DYNDNS_KEY_FILE, the dyndns-key credential); --dyndns-user is given\n',
    );
  });

  it('credentials the provider rejects are named as they were given', async () => {
    const run = await runMain(
      [
        'update',
        '--host',
        'home.example.com',
        '--ip',
        '81.0.2.15',
        '--dyndns-user',
        'demo-user',
        '--dyndns-key-file',
        keyFile('wrong-key'),
      ],
      flagsOnly(sandbox),
    );
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('(check --dyndns-user and --dyndns-key-file)');
    expect(run.stderr).not.toContain('DDEDGE_DYNDNS');
  });
});

describe('--dyndns-key-file and --api-password-file', () => {
  it('read the secret from a file; a mistyped one suggests it', async () => {
    const env = flagsOnly(sandbox);
    const run = await runMain(
      [
        'update',
        '--host',
        'home.example.com',
        '--ip',
        '81.0.2.15',
        '--dyndns-user',
        'demo-user',
        '--dyndns-key-file',
        keyFile(`${sandbox.model.account.dyndnsKey}\n`),
      ],
      env,
    );
    expect(run).toMatchObject({ code: 0, stdout: 'home.example.com A 81.0.2.15 updated\n' });
    // No warning: the key is not on the command line.
    expect(run.stderr).not.toContain('warn');
    const typo = await runMain(['update', '--dyndns-keyfile', 'k'], env);
    expect(typo).toMatchObject({ code: 2, stderr: expect.stringContaining('did you mean --dyndns-key-file?') });
  });
});

describe('hints', () => {
  it('DDEDGE_HOSTS with spaces: separate hosts with commas', async () => {
    const run = await runMain(
      ['update', '--ip', '81.0.2.15'],
      agentEnv(sandbox, { DDEDGE_HOSTS: 'home.example.com www.example.com' }),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('separate hosts with commas: DDEDGE_HOSTS=home.example.com,www.example.com');
  });

  it('a host missing from the zone, without API credentials: they would create it', async () => {
    const run = await runMain(['update', '--ip', '81.0.2.15'], agentEnv(sandbox, { DDEDGE_HOSTS: 'new.example.com' }));
    expect(run.code).toBe(7);
    expect(run.stderr).toContain(
      'dynamic DNS cannot create a record; with registrar API credentials (DDEDGE_API_USER and DDEDGE_API_PASSWORD_FILE), ddedge creates it',
    );
  });

  it('TLS to a server that speaks plain HTTP: is this server HTTPS?, on one line', async () => {
    const https = sandbox.url.replace('http:', 'https:');
    const run = await runMain(['api', 'tool', 'hello'], baseEnv({ ...withApi(sandbox), DDEDGE_API_URL: https }));
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(
      /^ddedge: TLS failure talking to https:\/\/127\.0\.0\.1:\d+\/tool\/hello\/: wrong version number: the server answered without TLS; is this server HTTPS\? \(a plain HTTP server on loopback takes http:\/\/\)\n$/,
    );
    expect(run.stderr).not.toContain('\\n');
  });
});

describe('warnings, not errors', () => {
  it('an implicit ./.env that cannot be read', async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, '.env'));
    const run = await runMain(['update', '--ip', '81.0.2.15', '--dry-run'], agentEnv(sandbox), cwd);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^warn: \.\/\.env: cannot read ".*\.env": a folder, not a file; going on without it/);
  });

  it('a secret on the command line, once, pointing to its file forms; a given address that is not public', async () => {
    const env = agentEnv(sandbox, { DDEDGE_DYNDNS_KEY: undefined });
    const run = await runMain(
      ['update', '--ip', '192.168.1.20', '--dry-run', '--dyndns-key', sandbox.model.account.dyndnsKey],
      env,
    );
    expect(run.code).toBe(0);
    const warnings = run.stderr.split('\n').filter((l) => l.startsWith('warn: '));
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('--dyndns-key on the command line can be read by other users of this machine');
    expect(warnings[0]).toContain('--dyndns-key-file or DDEDGE_DYNDNS_KEY_FILE');
    expect(warnings[1]).toContain('--ip 192.168.1.20 is not a public address');
    expect(run.stderr).not.toContain(sandbox.model.account.dyndnsKey);
    expect(providerCalls(sandbox)).toBe(0);
  });
});
