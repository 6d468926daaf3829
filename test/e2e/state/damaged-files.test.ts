// The state directory as a careless operator or a crash leaves it: FIFOs and directories in
// place of state.json or the lock, unreadable files, impossible directories, temporary files
// of a killed writer, a disk that fills up after the update was made.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentEnv, providerCalls } from '../../helpers/agent-env.js';
import { DIST, HANG_BOUND_MS, runDist, startDist, type RunResult } from '../../helpers/cli.js';
import { requireTool } from '../../helpers/programs.js';
import { distForOtherUsers } from '../../helpers/staged-dist.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox();

/**
 * The built file, killed past the hang bound (then code is null): "at once" is shown by the exit
 * and the message of the refusal, not by a clock, which a loaded machine stretched past 5 s.
 */
const timed = (args: string[], env: Record<string, string>): Promise<RunResult> => {
  const child = startDist(args, env);
  const timer = setTimeout(() => child.kill('SIGKILL'), HANG_BOUND_MS);
  return child.result.finally(() => clearTimeout(timer));
};

describe('something other than a regular file in place of state.json or the lock', () => {
  const makers: [string, (path: string) => void][] = [
    ['a FIFO', (path) => execFileSync('mkfifo', [path])],
    ['a directory', (path) => mkdirSync(path)],
  ];
  for (const [kind, make] of makers) {
    for (const name of ['state.json', 'lock']) {
      it(`${kind} as ${name}: update refuses at once (exit 2), says what it is, sends nothing`, async () => {
        const env = agentEnv(sandbox);
        make(join(env.DDEDGE_STATE_DIR!, name));
        const result = await timed(['update', '--ip', '81.0.2.15'], env);
        expect(result.code).toBe(2);
        expect(result.stderr).toContain(`${join(env.DDEDGE_STATE_DIR!, name)} is ${kind}, not a regular file`);
        expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
        expect(providerCalls(sandbox)).toBe(0);
      });
    }
    it(`${kind} as state.json: status and health refuse at once (exit 2)`, async () => {
      const env = agentEnv(sandbox);
      make(join(env.DDEDGE_STATE_DIR!, 'state.json'));
      for (const command of ['status', 'health']) {
        const result = await timed([command], env);
        expect(result).toMatchObject({ code: 2, stderr: expect.stringContaining(`is ${kind}, not a regular file`) });
      }
    });
  }
});

describe('an unreadable state file', () => {
  it('status says so and exits 2, rather than "never"', async () => {
    const env = agentEnv(sandbox);
    const dir = env.DDEDGE_STATE_DIR!;
    expect((await runDist(['update', '--ip', '81.0.2.15'], env)).code).toBe(0);
    const result = await runAsOtherUser(['status'], env, dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/cannot read .*state\.json: permission denied/);
    expect(result.stdout).not.toContain('never');
  });
});

/** Runs the built file so that the state file is unreadable: as nobody when we are root. */
function runAsOtherUser(args: string[], env: Record<string, string>, dir: string): Promise<RunResult> {
  const file = join(dir, 'state.json');
  const root = process.getuid?.() === 0;
  if (root) {
    chmodSync(dir, 0o755);
    chownSync(file, 0, 0);
    chmodSync(file, 0o600);
  } else {
    chmodSync(file, 0o000);
  }
  return new Promise((resolve) => {
    // As nobody, from a copy nobody can reach (the checkout may sit in a folder only root enters).
    const child = spawn(process.execPath, [root ? distForOtherUsers() : DIST, ...args], {
      env: { ...env, HOME: '/' },
      cwd: '/',
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(root ? { uid: 65534, gid: 65534 } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('an impossible state directory', () => {
  it.each(['/proc/ddedge', '/proc/ddedge/deeper'])('%s is exit 2 at once, for update and status', async (dir) => {
    for (const args of [['update', '--ip', '81.0.2.15'], ['status']]) {
      const result = await timed(args, agentEnv(sandbox, { DDEDGE_STATE_DIR: dir }));
      expect(result.code).toBe(args[0] === 'status' ? 0 : 2);
      if (args[0] === 'update') expect(result.stderr).toMatch(/--state-dir: cannot create "\/proc\/ddedge/);
    }
    expect(providerCalls(sandbox)).toBe(0);
  });
});

describe('temporary files left by a writer that was killed', () => {
  it('are removed by the next cycle; a directory of that name is left alone', async () => {
    const env = agentEnv(sandbox);
    const dir = env.DDEDGE_STATE_DIR!;
    writeFileSync(join(dir, 'state.json.999999.tmp'), '{"version":1,"rec');
    writeFileSync(join(dir, 'state.json.12.tmp'), '');
    writeFileSync(join(dir, 'state.json.12.k3j2h1xq0a.tmp'), '{"version":1,"rec');
    writeFileSync(join(dir, 'lock.77777.tmp'), '');
    writeFileSync(join(dir, 'history.json.4242.k3j2h1xq0a.tmp'), '{"version":1,"ent');
    mkdirSync(join(dir, 'state.json.5.tmp'));
    const result = await runDist(['update', '--ip', '81.0.2.15'], env);
    expect(result.code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['history.json', 'state.json', 'state.json.5.tmp']);
  });
});

describe('the state cannot be saved after a successful update (a full disk, a file-size limit)', () => {
  it.skipIf(!requireTool('prlimit', 'util-linux'))(
    'reports it in one line, says the update was made, exits 4, and releases the lock',
    async () => {
      const env = agentEnv(sandbox);
      const dir = env.DDEDGE_STATE_DIR!;
      // A file-size limit the budget's first save (the call reservation, ~80 bytes) fits in and the
      // save after the update (the record, ~400 bytes) does not: the write fails as on a full disk.
      // (A link to /dev/full at the temporary name did this once; temporary files no longer follow links.)
      const child = spawn('prlimit', ['--fsize=200', '--', process.execPath, DIST, 'update', '--ip', '81.0.2.15'], {
        env,
        cwd: dir,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(stdout).toBe('home.example.com A 81.0.2.15 updated\n');
      expect(code).toBe(4);
      expect(stderr).toMatch(
        /error: cannot save the state in .* \(EFBIG\); the provider was updated \(home\.example\.com A\)/,
      );
      expect(stderr).not.toMatch(/internal error|\n\s+at /);
      expect(existsSync(join(dir, 'lock'))).toBe(false);
      expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
      expect(sandbox.calls.get('dyndns')).toBe(1);
      // The state still reads: the next cycle sends again and saves.
      expect(
        JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')).records['home.example.com/A']?.address,
      ).toBeUndefined();
    },
  );
});
