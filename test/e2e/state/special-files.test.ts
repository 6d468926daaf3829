// Special files where ddedge expects a small regular file: a FIFO (no writer ever comes), a
// device that never ends (/dev/zero), through a link or in place. Opening a FIFO blocks one of
// libuv's four worker threads forever: `update` never exits after its result, and a daemon
// that meets it four times can no longer resolve a name or stop on SIGTERM.
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentEnv, providerCalls } from '../../helpers/agent-env.js';
import { HANG_BOUND_MS, startDist, tempDir, waitForOutput, type RunResult } from '../../helpers/cli.js';
import { acmeEnv, challengeValues } from '../../helpers/acme.js';
import { startServer, type TestServer } from '../../helpers/servers.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox();
let echo: TestServer;
const children: ReturnType<typeof startDist>[] = [];
beforeEach(async () => {
  echo = await startServer('81.0.2.15\n');
});
afterEach(async () => {
  // A run that hung (the failure these tests look for) is killed, not left behind.
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await echo.close();
});

/** The built file, killed when it has not exited after `ms` (then code is null). */
function runDist(args: string[], env: Record<string, string>, ms = HANG_BOUND_MS): Promise<RunResult> {
  const child = startDist(args, env);
  children.push(child);
  const timer = setTimeout(() => child.kill('SIGKILL'), ms);
  return child.result.finally(() => clearTimeout(timer));
}

const fifo = (): string => {
  const path = join(tempDir('ddedge-fifo-'), 'wan-address');
  execFileSync('mkfifo', [path]);
  return path;
};
const linkTo = (target: string): string => {
  const path = join(tempDir('ddedge-link-'), 'wan-address');
  symlinkSync(target, path);
  return path;
};

describe('file: source that is not a regular file', () => {
  it.each([
    ['a FIFO', fifo, 'a FIFO'],
    ['a link to /dev/zero', () => linkTo('/dev/zero'), 'a device'],
    ['a directory', () => tempDir(), 'a directory'],
  ])('%s: ip says what it is at once (exit 6)', async (_kind, make, what) => {
    const path = make();
    const result = await runDist(['ip', '--ip-source', `file:${path}`, '--timeout', '60s'], agentEnv(sandbox));
    expect(result.code).toBe(6);
    expect(result.stderr).toContain(`${path} is ${what}, not a regular file`);
  });

  it('a FIFO beside a source that answers: update reports and exits, it does not hang after its result', async () => {
    const env = agentEnv(sandbox, { DDEDGE_IP_SOURCES: `file:${fifo()},url:${echo.url}`, DDEDGE_IP_QUORUM: '1' });
    const result = await runDist(['update'], env);
    expect(result).toMatchObject({ code: 0, stdout: 'home.example.com A 81.0.2.15 updated\n' });
  });

  it('the daemon meets a FIFO in every cycle and still resolves names and stops on SIGTERM', async () => {
    // localhost is resolved by getaddrinfo on a worker thread: the first thing to stop when
    // FIFOs hold all four.
    const source = `url:${echo.url.replace('127.0.0.1', 'localhost')}`;
    const env = agentEnv(sandbox, {
      DDEDGE_IP_SOURCES: `file:${fifo()},${source}`,
      DDEDGE_IP_QUORUM: '1',
      DDEDGE_INTERVAL: '1h',
      DDEDGE_LOG_LEVEL: 'debug',
    });
    const daemon = startDist(['daemon'], env);
    children.push(daemon);
    let seen = 0;
    const answered = (n: number) =>
      waitForOutput(daemon, 'stderr', (t) => (t.match(/source answered source=url:/g) ?? []).length >= n);
    for (let cycle = 1; cycle <= 6; cycle++) {
      await answered(cycle - seen);
      seen = cycle;
      if (cycle < 6) daemon.kill('SIGUSR1');
    }
    daemon.kill('SIGTERM');
    const timer = setTimeout(() => daemon.kill('SIGKILL'), HANG_BOUND_MS);
    const result = await daemon.result.finally(() => clearTimeout(timer));
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('not a regular file');
    expect(echo.hits).toBe(6);
  });
});

describe('<state>/acme/challenges.json that is not a regular file', () => {
  it.each([
    ['a FIFO', (path: string) => execFileSync('mkfifo', [path]), 'a FIFO'],
    // Not followed: a link is refused as such, whatever it points at.
    ['a link to /dev/zero', (path: string) => symlinkSync('/dev/zero', path), 'a symbolic link'],
  ])('%s: acme present refuses at once (exit 2), frees its lock, and adds nothing', async (_kind, make, what) => {
    const env = acmeEnv(sandbox);
    const dir = join(env.DDEDGE_STATE_DIR!, 'acme');
    mkdirSync(dir, { recursive: true });
    make(join(dir, 'challenges.json'));
    const name = '_acme-challenge.example.com';
    const result = await runDist(['acme', 'present', name, 'token-value-1', '--no-wait'], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${join(dir, 'challenges.json')} is ${what}, not a regular file`);
    expect(challengeValues(sandbox, name)).toEqual([]);
    expect(providerCalls(sandbox)).toBe(0);
    // The lock was released: once the file is a file again, the next hook runs.
    execFileSync('rm', [join(dir, 'challenges.json')]);
    expect((await runDist(['acme', 'present', name, 'token-value-1', '--no-wait'], env)).code).toBe(0);
  });

  it('a huge regular file is refused, not read whole', async () => {
    const env = acmeEnv(sandbox);
    const dir = join(env.DDEDGE_STATE_DIR!, 'acme');
    mkdirSync(dir, { recursive: true });
    execFileSync('truncate', ['-s', '3G', join(dir, 'challenges.json')]);
    const result = await runDist(['acme', 'present', '_acme-challenge.example.com', 'token-value-1', '--no-wait'], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/challenges\.json is \d+ bytes, too large/);
    expect(providerCalls(sandbox)).toBe(0);
  });
});
