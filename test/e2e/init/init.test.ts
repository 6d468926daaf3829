// `ddedge init` as a newcomer runs it: on a terminal (a pseudo-terminal here) and without one,
// as a user and as root, against the sandbox. Wrong credentials, a file that exists, a run
// stopped half-way: nothing written. Then `ddedge update` finds the settings on its own.
import { spawn } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CANARY, DIST, type RunResult, tempDir } from '../../helpers/cli.js';
import { distForOtherUsers } from '../../helpers/staged-dist.js';
import { requireTool } from '../../helpers/programs.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox();
const asRoot = process.getuid?.() === 0;
/** As root the tests act as nobody (root's settings file is /etc/ddedge, tried apart below). */
const NOBODY = 65534;
const PTY_SESSION = resolve(import.meta.dirname, '../../helpers/pty-session.py');

/** A home of the user's own, and the program run as that user with only PATH and HOME set. */
function userHome(): string {
  const home = tempDir('ddedge-home-');
  if (asRoot) chownSync(home, NOBODY, NOBODY);
  return home;
}
/** A program run to its end with only PATH and `env`; as `uid` when given (the tests run as root). */
function runProgram(
  command: string[],
  env: Record<string, string>,
  { cwd, uid }: { cwd: string; uid?: number },
): Promise<RunResult> {
  return new Promise((done) => {
    const child = spawn(command[0]!, command.slice(1), {
      env: { PATH: process.env.PATH ?? '', ...env },
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(uid === undefined ? {} : { uid, gid: uid }),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}
const runAsUser = (program: string, args: string[], env: Record<string, string>) =>
  runProgram([program, ...args], env, { cwd: env.HOME!, uid: asRoot ? NOBODY : undefined });
const dist = () => (asRoot ? distForOtherUsers() : DIST);
const ddedge = (args: string[], env: Record<string, string>) => runAsUser(process.execPath, [dist(), ...args], env);

const apiFlags = () => [
  '--api-url',
  sandbox.url,
  '--api-user',
  sandbox.credentials.apiUser,
  '--api-password',
  sandbox.credentials.apiPassword,
];
const homeAddress = () =>
  sandbox.model.services.flatMap((s) => s.dns).find((e) => e.name === 'home.example.com' && e.type === 'A')?.value;
const settingsDir = (home: string) => join(home, '.config', 'ddedge');

describe('ddedge init --non-interactive, as a user', () => {
  it('checks with the provider, writes the settings and a file per secret, and update then runs on its own', async () => {
    const HOME = userHome();
    const init = await ddedge(['init', '--non-interactive', '--hosts', 'home.example.com', ...apiFlags()], { HOME });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toMatch(/home\.example\.com: A 192\.0\.2\.20; ddedge keeps it up to date/);
    expect(init.stdout).toContain(`wrote ${join(settingsDir(HOME), 'credentials', 'api-password')}`);
    expect(init.stdout).toMatch(/try it: ddedge update --dry-run/);
    const dir = settingsDir(HOME);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'ddedge.env')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'credentials', 'api-password')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, 'ddedge.env'), 'utf8')).not.toContain(sandbox.credentials.apiPassword);
    expect(sandbox.calls.get('service/dnslist')).toBe(1);
    // Nothing but a home: the settings file and its credentials say the rest.
    const update = await ddedge(['update', '--ip', '81.0.2.44'], { HOME });
    expect(update.code, update.stderr).toBe(0);
    expect(homeAddress()).toBe('81.0.2.44');
  });

  it('writes nothing when the provider refuses the credentials (exit 3), and never shows the password', async () => {
    const HOME = userHome();
    const run = await ddedge(
      ['init', '--non-interactive', '--hosts', 'home.example.com', '--api-url', sandbox.url, '--api-user', 'x'],
      { HOME, DDEDGE_API_PASSWORD: CANARY },
    );
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/check the API user and password you gave/);
    expect(run.stdout + run.stderr).not.toContain(CANARY);
    expect(existsSync(join(HOME, '.config'))).toBe(false);
  });

  it('replaces an existing settings file only with --force', async () => {
    const HOME = userHome();
    const args = (hosts: string) => ['init', '--non-interactive', '--hosts', hosts, ...apiFlags()];
    expect((await ddedge(args('home.example.com'), { HOME })).code).toBe(0);
    const before = readFileSync(join(settingsDir(HOME), 'ddedge.env'), 'utf8');
    const again = await ddedge(args('nas.example.com'), { HOME });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/ddedge\.env already exists; nothing was written \(--force replaces it\)/);
    expect(readFileSync(join(settingsDir(HOME), 'ddedge.env'), 'utf8')).toBe(before);
    const forced = await ddedge([...args('nas.example.com'), '--force'], { HOME });
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(join(settingsDir(HOME), 'ddedge.env'), 'utf8')).toContain('DDEDGE_HOSTS=nas.example.com');
  });

  it('says to use --non-interactive when there is no terminal to ask on, and writes nothing', async () => {
    const HOME = userHome();
    const run = await ddedge(['init'], { HOME });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/not a terminal.*--non-interactive/);
    expect(existsSync(join(HOME, '.config'))).toBe(false);
  });

  it('refuses an answer the loader refuses (a host that is not a name), naming it', async () => {
    const HOME = userHome();
    const run = await ddedge(['init', '--non-interactive', '--hosts', 'not a host', ...apiFlags()], { HOME });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/"not a host" is not a fully qualified host name/);
    expect(existsSync(join(HOME, '.config'))).toBe(false);
  });
});

const PYTHON = requireTool('python3', 'python3');

describe.skipIf(!PYTHON)('ddedge init on a terminal', () => {
  const session = (steps: [string, string][], HOME: string) =>
    runAsUser('python3', [PTY_SESSION, JSON.stringify(steps), process.execPath, dist(), 'init'], {
      HOME,
      DDEDGE_DYNDNS_URL: sandbox.url,
      DDEDGE_API_URL: sandbox.url,
    });

  it('asks, hides the secrets it is typed, checks and writes', async () => {
    const HOME = userHome();
    const run = await session(
      [
        ['Host names to keep', 'home.example.com\r'],
        ['Dynamic DNS user', '\r'],
        ['API user', `${sandbox.credentials.apiUser}\r`],
        ['API password \\(not shown\\): ', `${sandbox.credentials.apiPassword}\r`],
      ],
      HOME,
    );
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toMatch(/home\.example\.com: A 192\.0\.2\.20/);
    expect(run.stdout).not.toContain(sandbox.credentials.apiPassword);
    expect(readFileSync(join(settingsDir(HOME), 'credentials', 'api-password'), 'utf8')).toBe(
      `${sandbox.credentials.apiPassword}\n`,
    );
  });

  it('writes nothing when stopped with Ctrl-C half-way', async () => {
    const HOME = userHome();
    const run = await session(
      [
        ['Host names to keep', 'home.example.com\r'],
        ['Dynamic DNS user', 'me\r'],
        ['Dynamic DNS key \\(not shown\\): ', '\x03'],
      ],
      HOME,
    );
    expect(run.code).toBe(2);
    expect(run.stdout).toMatch(/nothing was written/);
    expect(existsSync(join(HOME, '.config', 'ddedge', 'ddedge.env'))).toBe(false);
    expect(existsSync(join(HOME, '.config', 'ddedge', 'credentials'))).toBe(false);
  });
});

const UNSHARE = asRoot && requireTool('unshare', 'util-linux');

describe.skipIf(!UNSHARE)('ddedge init as root', () => {
  it('writes /etc/ddedge/ddedge.env and /etc/ddedge/credentials/, which root commands then read', async () => {
    // /etc seen through an overlay in a mount namespace of its own: the machine's /etc is not touched.
    const layer = tempDir('ddedge-etc-');
    mkdirSync(join(layer, 'upper'));
    mkdirSync(join(layer, 'work'));
    const node = `${process.execPath} ${DIST}`;
    const script = [
      `mount -t overlay overlay -o lowerdir=/etc,upperdir=${layer}/upper,workdir=${layer}/work /etc`,
      `${node} init --non-interactive --hosts home.example.com --api-url ${sandbox.url} ` +
        `--api-user ${sandbox.credentials.apiUser} --api-password ${sandbox.credentials.apiPassword}`,
      `${node} update --ip 81.0.2.45`,
    ].join(' && ');
    const run = await runAsRootIn(['unshare', '--mount', '--propagation', 'private', 'bash', '-c', script], layer);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('wrote /etc/ddedge/credentials/api-password, /etc/ddedge/ddedge.env');
    const written = join(layer, 'upper', 'ddedge');
    expect(readdirSync(join(written, 'credentials'))).toEqual(['api-password']);
    expect(statSync(join(written, 'credentials')).mode & 0o777).toBe(0o700);
    expect(statSync(join(written, 'credentials', 'api-password')).mode & 0o777).toBe(0o600);
    expect(homeAddress()).toBe('81.0.2.45');
    expect(existsSync('/etc/ddedge/ddedge.env') && readFileSync('/etc/ddedge/ddedge.env', 'utf8')).not.toContain(
      'home.example.com',
    );
  });
});

const runAsRootIn = (command: string[], cwd: string) =>
  runProgram(command, { HOME: tempDir('ddedge-home-'), DDEDGE_STATE_DIR: tempDir('ddedge-state-') }, { cwd });
