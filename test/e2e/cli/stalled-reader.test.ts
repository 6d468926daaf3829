// Long-running commands whose log reader has stopped reading (a stuck log collector, a parent
// that never drains the pipe): their logs must not stop their work, nor their exit on SIGTERM.
// The pipe is a FIFO this test holds open for reading and never reads: 64 KiB fill it.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { closeSync, constants, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentEnv } from '../../helpers/agent-env.js';
import { DIST, HANG_BOUND_MS, tempDir } from '../../helpers/cli.js';
import { waitUntil } from '../../helpers/wait.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

/**
 * Host names as long as DNS allows (253 characters): a request's debug lines grow with its name,
 * so fewer requests (each a cost in this process and the daemon) make the same log volume.
 */
const longName = (i: number) =>
  `h${i}.${['a', 'b', 'c'].map((c) => c.repeat(63)).join('.')}.example.com`.padStart(253, 'x');
const HOSTS = 320;

const sandbox = useSandbox();
let unread: number[] = [];
afterEach(async () => {
  for (const fd of unread) closeSync(fd);
  unread = [];
});

/** The write end of a pipe whose read end stays open and is not read until `readAll`. */
function stalledPipe(): number {
  const fifo = join(tempDir('ddedge-fifo-'), 'log');
  execFileSync('mkfifo', [fifo]);
  unread.push(openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK));
  return openSync(fifo, 'w');
}

/** What the stalled pipe holds now (its read end is non-blocking). */
function readAll(): string {
  const buffer = Buffer.alloc(64 * 1024);
  let text = '';
  // Each turn empties up to 64 KiB; the writer cannot outpace a bounded number of them for long.
  for (let i = 0; i < 1000; i++) {
    let count = 0;
    try {
      count = readSync(unread[0]!, buffer);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
    }
    if (!count) break;
    text += buffer.toString('utf8', 0, count);
  }
  return text;
}

function start(
  args: string[],
  env: Record<string, string>,
  stderr: number,
): ChildProcess & { exited: Promise<number | null> } {
  const child = spawn(process.execPath, [DIST, ...args], { env, stdio: ['ignore', 'ignore', stderr] });
  closeSync(stderr);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return Object.assign(child, { exited });
}

/** The exit code, or 'hung' (and the process killed) when it does not exit within `ms`. */
async function exitWithin(
  child: ChildProcess & { exited: Promise<number | null> },
  ms: number,
): Promise<number | null | 'hung'> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), ms)));
  const outcome = await Promise.race([child.exited, hung]);
  clearTimeout(timer);
  if (outcome === 'hung') child.kill('SIGKILL');
  return outcome;
}

describe('a log reader that has stopped reading', () => {
  it('bounds what the daemon holds for it: later lines are dropped, and how many is said once it reads again', async () => {
    // About 600 KB of debug logs a cycle; four cycles are more than the 1 MiB held and the pipe.
    const hosts = Array.from({ length: HOSTS }, (_, i) => longName(i)).join(',');
    const env = agentEnv(sandbox, {
      DDEDGE_HOSTS: hosts,
      DDEDGE_IP: '81.0.2.15',
      DDEDGE_LOG_LEVEL: 'debug',
      DDEDGE_INTERVAL: '1h',
      DDEDGE_MAX_CALLS_PER_HOUR: '3600',
    });
    const daemon = start(['daemon'], env, stalledPipe());
    const calls = () => sandbox.calls.get('dyndns') ?? 0;
    // A SIGUSR1 that arrives while a cycle runs is served when it ends: no pause is needed.
    for (let cycle = 1; cycle <= 4; cycle++) {
      await waitUntil(() => calls() >= cycle * HOSTS, `the requests of cycle ${cycle}`);
      if (cycle < 4) daemon.kill('SIGUSR1');
    }
    expect(calls()).toBe(4 * HOSTS);
    let log = '';
    await waitUntil(() => {
      log += readAll();
      return /lines of output dropped/.test(log);
    }, 'the daemon saying lines of output were dropped');
    daemon.kill('SIGTERM');
    expect(await exitWithin(daemon, HANG_BOUND_MS)).toBe(0);
    expect(log).toMatch(/^ddedge: \d+ lines of output dropped: the reader was not keeping up$/m);
    expect(log.length).toBeLessThan(1.5 * 1024 * 1024);
  });

  it('does not stop the daemon: SIGUSR1 still runs a cycle, SIGTERM still ends it with exit 0', async () => {
    // Debug logs of these hosts are over 100 KB: the first cycle alone fills the pipe.
    const hosts = Array.from({ length: HOSTS }, (_, i) => longName(i)).join(',');
    const env = agentEnv(sandbox, {
      DDEDGE_HOSTS: hosts,
      DDEDGE_IP: '81.0.2.15',
      DDEDGE_LOG_LEVEL: 'debug',
      DDEDGE_INTERVAL: '1h',
      DDEDGE_MAX_CALLS_PER_HOUR: '3600',
    });
    const daemon = start(['daemon'], env, stalledPipe());
    const calls = () => sandbox.calls.get('dyndns') ?? 0;
    await waitUntil(() => calls() >= HOSTS, "the first cycle's requests");
    daemon.kill('SIGUSR1');
    await waitUntil(() => calls() >= 2 * HOSTS, "the second cycle's requests");
    const tried = calls();
    daemon.kill('SIGTERM');
    expect(await exitWithin(daemon, HANG_BOUND_MS)).toBe(0);
    expect(tried).toBe(2 * HOSTS);
  });

  it('does not stop the sandbox answering: it logs every request', async () => {
    const child = spawn(process.execPath, [DIST, 'sandbox', '--port', '0', '--json'], {
      env: agentEnv(sandbox),
      stdio: ['ignore', 'pipe', stalledPipe()],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const { dyndnsUrl } = JSON.parse(
      await new Promise<string>((resolve) => child.stdout!.once('data', (d) => resolve(String(d)))),
    ) as { dyndnsUrl: string };
    // Each request is a log line of about 300 bytes (its long host name): 500 of them are more
    // than twice what the pipe holds.
    let answered = 0;
    for (let i = 0; i < 500; i++) {
      const response = await fetch(`${dyndnsUrl}/plain/?user=u&password=p&host=${longName(i)}`, {
        signal: AbortSignal.timeout(30_000),
      }).catch(() => undefined);
      if (!response) break;
      await response.text();
      answered++;
    }
    child.kill('SIGTERM');
    expect(await exitWithin(Object.assign(child, { exited }), HANG_BOUND_MS)).toBe(0);
    expect(answered).toBe(500);
  });
});
