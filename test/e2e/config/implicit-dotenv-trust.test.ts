// The ./.env that ddedge reads from the folder it runs in, without being told to, is only there
// by chance: a folder another user can write (/tmp, a shared or cloned folder) may hold one
// they wrote. Run as root there, ddedge must not take its settings: not where the API password
// is sent, not a hook to run as root. One that is trusted still gets a warning naming each
// setting that sends things elsewhere or runs something. --env-file stays the user's choice.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, lchownSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentEnv } from '../../helpers/agent-env.js';
import { baseEnv, CANARY, DIST, runDist, tempDir, waitForOutput, type RunResult } from '../../helpers/cli.js';
import { requireTool } from '../../helpers/programs.js';
import { distForOtherUsers } from '../../helpers/staged-dist.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;

const sandbox = useSandbox({ per: 'file' });

/** A folder holding `.env` with `text`, owned by `uid` with `mode`; the marker a hook would make. */
function folderWithDotenv(text: string, uid: number, mode: number): { cwd: string; marker: string } {
  const cwd = tempDir('ddedge-dotenv-');
  const marker = join(tempDir('ddedge-marker-'), 'hook-ran');
  writeFileSync(join(cwd, '.env'), text.replaceAll('MARKER', marker));
  chownSync(join(cwd, '.env'), uid, uid);
  chmodSync(join(cwd, '.env'), mode);
  return { cwd, marker };
}

/** An update that changes the record, so that a hook would run. */
const update = (cwd: string, extra: Record<string, string> = {}): Promise<RunResult> =>
  runDist(['update', '--ip', `81.0.2.${20 + Math.floor(Math.random() * 200)}`], agentEnv(sandbox, extra), cwd);

// The first test needs a network of its own: unshare and nsenter (util-linux), ip (iproute2).
const NETNS =
  asRoot &&
  requireTool('unshare', 'util-linux') &&
  requireTool('nsenter', 'util-linux') &&
  requireTool('ip', 'iproute2');

describe.skipIf(!NETNS)('an implicit ./.env as root', () => {
  it("owned by another user: not read, so root's API password never reaches the URL it names; said once", async () => {
    // The listener and ddedge share a network namespace of their own: without the file's URL,
    // ddedge tries the provider's default URL, which must not reach the internet from a test.
    const listener = spawn(
      'unshare',
      ['-n', 'sh', '-c', 'ip link set lo up && exec "$0" -e "$1"', process.execPath, LISTENER],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const port = Number((await waitForOutput(listener, 'stdout', (t) => t.includes('\n'))).trim());
      let heard = '';
      listener.stdout!.on('data', (d) => (heard += d));
      const { cwd } = folderWithDotenv(`DDEDGE_API_URL=http://127.0.0.1:${port}\n`, NOBODY, 0o644);
      const env = baseEnv({ DDEDGE_API_USER: 'root-api-user', DDEDGE_API_PASSWORD: CANARY, DDEDGE_TIMEOUT: '3s' });
      const run = await new Promise<RunResult>((resolve) => {
        const child = spawn(
          'nsenter',
          [`--net=/proc/${listener.pid}/ns/net`, process.execPath, DIST, 'api', 'account', 'info'],
          { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] },
        );
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => (stderr += d));
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      });
      // The listener answers every request with a line; a request after ddedge ended cannot come.
      expect(heard).toBe('');
      expect(run.stderr).not.toContain(CANARY);
      expect(run.stderr.split('\n').filter((line) => line.includes('.env'))).toHaveLength(1);
      expect(run.stderr).toMatch(/\.\/\.env .*is owned by uid 65534, not by you \(uid 0\) or root: not read/);
      // The provider's own URL, unreachable here: a network failure, not the listener's answer.
      expect(run.code).toBe(4);
    } finally {
      listener.kill();
    }
  });

  it('owned by another user: the hook it names is not run by `ddedge update`', async () => {
    const { cwd, marker } = folderWithDotenv('DDEDGE_ON_CHANGE=touch MARKER\n', NOBODY, 0o644);
    const run = await update(cwd);
    expect(run.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(run.stderr.split('\n').filter((line) => line.includes('.env'))).toEqual([
      expect.stringMatching(
        /^warn: \.\/\.env .*is owned by uid 65534, not by you \(uid 0\) or root: not read; name it with --env-file to read it anyway$/,
      ),
    ]);
  });

  it.each([
    ['group', 0o664],
    ['other users', 0o646],
  ])("root's own, but writable by %s: not read", async (_who, mode) => {
    const { cwd, marker } = folderWithDotenv('DDEDGE_ON_CHANGE=touch MARKER\n', 0, mode);
    const run = await update(cwd);
    expect(run.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(run.stderr).toMatch(
      new RegExp(
        `warn: \\./\\.env .*can be written by its group or other users \\(mode 0${mode.toString(8)}\\): not read; if it is yours to trust, chmod go-w it, or name it with --env-file\n`,
      ),
    );
  });

  it('a link owned by another user, to a file of root: not read', async () => {
    const { cwd: target, marker } = folderWithDotenv('DDEDGE_ON_CHANGE=touch MARKER\n', 0, 0o644);
    const cwd = tempDir('ddedge-dotenv-link-');
    symlinkSync(join(target, '.env'), join(cwd, '.env'));
    lchownSync(join(cwd, '.env'), NOBODY, NOBODY);
    const run = await update(cwd);
    expect(run.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(run.stderr).toMatch(
      /warn: \.\/\.env .*is a link owned by uid 65534, not by you \(uid 0\) or root: not read/,
    );
  });

  it('trusted: read, with one warning naming each URL, hook and notification target it sets (never a secret value); one set in the environment is not named', async () => {
    const ping = 'http://127.0.0.1:9/ping-token-Zq81x';
    const { cwd, marker } = folderWithDotenv(
      `DDEDGE_ON_CHANGE=touch MARKER\nDDEDGE_PING_URL=${ping}\nDDEDGE_DYNDNS_URL=http://127.0.0.1:9\nDDEDGE_GATEWAY_NOTIFY=127.0.0.1:9\nDDEDGE_TIMEOUT=20s\n`,
      0,
      0o600,
    );
    const run = await update(cwd, { DDEDGE_LOG_LEVEL: 'warn' });
    expect(run.code).toBe(0);
    expect(existsSync(marker)).toBe(true);
    const warnings = run.stderr.split('\n').filter((line) => line.includes('.env'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^warn: \.\/\.env sets DDEDGE_ON_CHANGE, DDEDGE_PING_URL and DDEDGE_GATEWAY_NOTIFY /);
    expect(warnings[0]).toContain('--env-file');
    // DDEDGE_DYNDNS_URL is the environment's (the sandbox): the file's is not used, nor named.
    expect(run.stderr).not.toContain('DDEDGE_DYNDNS_URL');
    expect(run.stderr).not.toContain('ping-token');
    expect(run.stderr).not.toContain('DDEDGE_TIMEOUT');
  });

  it('a FIFO put in its place does not hold ddedge waiting for a writer', () => {
    const cwd = tempDir('ddedge-dotenv-fifo-');
    execFileSync('mkfifo', ['-m', '0644', join(cwd, '.env')]);
    const run = spawnSync(process.execPath, [DIST, 'status', '--json'], {
      env: baseEnv({ DDEDGE_STATE_DIR: tempDir('ddedge-state-') }),
      cwd,
      encoding: 'utf8',
      timeout: 30_000,
      killSignal: 'SIGKILL',
    });
    expect([run.signal, run.status, run.stderr]).toEqual([null, 0, '']);
  });

  it('one with nothing of the kind: read without a word', async () => {
    const stateDir = tempDir('ddedge-state-');
    const { cwd } = folderWithDotenv(`DDEDGE_STATE_DIR=${stateDir}\n`, 0, 0o644);
    const run = await runDist(['status', '--json'], baseEnv(), cwd);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(JSON.parse(run.stdout)).toMatchObject({ stateDir });
  });

  it('--env-file names a file of another user: the user chose it, it is read without a word', async () => {
    const { cwd, marker } = folderWithDotenv('DDEDGE_ON_CHANGE=touch MARKER\n', NOBODY, 0o664);
    const run = await runDist(
      ['update', '--ip', '81.0.2.250', '--env-file', join(cwd, '.env')],
      agentEnv(sandbox),
      tempDir(),
    );
    expect(run.code).toBe(0);
    expect(existsSync(marker)).toBe(true);
    expect(run.stderr).not.toContain('.env');
  });
});

describe.skipIf(!asRoot)('an implicit ./.env as another user', () => {
  const asNobody = (cwd: string): Promise<RunResult> =>
    new Promise((resolve) => {
      const child = spawn(process.execPath, [distForOtherUsers(), 'status', '--json'], {
        env: { PATH: process.env.PATH ?? '', HOME: '/' },
        cwd,
        uid: NOBODY,
        gid: NOBODY,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });

  it.each([
    ['its own', NOBODY],
    ["root's", 0],
  ])('%s is read', async (_whose, owner) => {
    const stateDir = join(tempDir('ddedge-state-'), 'nobody');
    mkdirSync(stateDir);
    chownSync(stateDir, NOBODY, NOBODY);
    chmodSync(join(stateDir, '..'), 0o755);
    const { cwd } = folderWithDotenv(`DDEDGE_STATE_DIR=${stateDir}\n`, owner, 0o644);
    chmodSync(cwd, 0o755);
    const run = await asNobody(cwd);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(JSON.parse(run.stdout)).toMatchObject({ stateDir });
  });

  it("another user's is not", async () => {
    const { cwd } = folderWithDotenv('DDEDGE_STATE_DIR=/nonexistent\n', 65533, 0o644);
    chmodSync(cwd, 0o755);
    const run = await asNobody(cwd);
    expect(run.stderr).toMatch(/\.\/\.env .*is owned by uid 65533, not by you \(uid 65534\) or root: not read/);
    expect(run.stdout).not.toContain('/nonexistent');
  });
});

/** A loopback HTTP listener: prints its port, then a line for each request it is sent. */
const LISTENER = `
const server = require('node:http').createServer((req, res) => {
  let body = '';
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    process.stdout.write(JSON.stringify({ url: req.url, body }) + '\\n');
    res.setHeader('content-type', 'application/json');
    res.end('{"success":true,"errorCode":0,"errorCodeMsg":"","action":"account/info","version":"1","responseData":{}}');
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
`;

// The skipped file is most often the very reason a command has no host or credentials: the
// warning must reach the user from every command, and the configuration error must say it.
describe('a skipped ./.env (made under umask 002: mode 0664) and a configuration left invalid', () => {
  const uid = process.getuid?.() ?? 0;
  const folder = (): string =>
    folderWithDotenv('DDEDGE_HOSTS=home.example.com\nDDEDGE_DYNDNS_USER=u\nDDEDGE_DYNDNS_KEY=k\n', uid, 0o664).cwd;
  const warning =
    /^warn: \.\/\.env \(.*\) can be written by its group or other users \(mode 0664\): not read; if it is yours to trust, chmod go-w it, or name it with --env-file$/;

  it.each([['update'], ['daemon']])(
    '`ddedge %s` warns once on stderr, and its error says ./.env was not read and why',
    async (command) => {
      const run = await runDist([command], baseEnv(), folder());
      expect(run.code).toBe(2);
      const lines = run.stderr.split('\n');
      expect(lines.filter((line) => warning.test(line))).toHaveLength(1);
      expect(run.stderr).toContain('no host to update');
      const error = run.stderr.slice(run.stderr.indexOf('ddedge: '));
      expect(error).toMatch(
        /\.\/\.env \(.*\) was not read: it can be written by its group or other users \(mode 0664\)/,
      );
    },
  );

  it('with --json, the error document says it too', async () => {
    const run = await runDist(['update', '--json'], baseEnv(), folder());
    expect(run.code).toBe(2);
    const { error } = JSON.parse(run.stdout) as { error: { message: string } };
    expect(error.message).toContain('no host to update');
    expect(error.message).toMatch(
      /\.\/\.env \(.*\) was not read: it can be written by its group or other users \(mode 0664\)/,
    );
    expect(run.stderr.split('\n').filter((line) => warning.test(line))).toHaveLength(1);
  });
});
