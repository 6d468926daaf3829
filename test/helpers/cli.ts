// Runs the built dist/ddedge.mjs as a user would, with a clean environment, and collects
// what it printed. Asynchronous, so servers in the test process keep answering.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { vi } from 'vitest';

export const DIST = resolve(import.meta.dirname, '../../dist/ddedge.mjs');

/** A secret that must never be seen: used as every key and password in the leak tests. */
export const CANARY = 'canary-5ecret-Zq81x';

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export const tempDir = (prefix = 'ddedge-test-'): string => mkdtempSync(join(tmpdir(), prefix));

/** The environment a test run sees: no inherited DDEDGE_* settings, no journald. */
export function baseEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: tempDir('ddedge-home-') };
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}

export function startDist(
  args: string[],
  env: Record<string, string>,
  cwd?: string,
): ChildProcess & { result: Promise<RunResult> } {
  const child = spawn(process.execPath, [DIST, ...args], {
    env,
    cwd: cwd ?? tempDir('ddedge-cwd-'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const result = new Promise<RunResult>((resolveResult) =>
    child.on('close', (code) => resolveResult({ code, stdout, stderr })),
  );
  return Object.assign(child, { result });
}

export function runDist(args: string[], env: Record<string, string>, cwd?: string): Promise<RunResult> {
  return startDist(args, env, cwd).result;
}

/**
 * Waits until `predicate` holds for the text a stream has produced so far; fails at once, with
 * that text, if the process ends first. The time bound only stops a hang: a start of the built
 * file took seconds on a loaded machine, so a test never waits on a tighter clock than this.
 */
export function waitForOutput(
  child: ChildProcess,
  stream: 'stdout' | 'stderr',
  predicate: (text: string) => boolean,
  timeoutMs = HANG_BOUND_MS,
): Promise<string> {
  return new Promise((resolveText, reject) => {
    let text = '';
    let done = false;
    const finish = (error?: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      child[stream]!.off('data', onData);
      child.off('close', onClose);
      if (error) reject(error);
      else resolveText(text);
    };
    const timer = setTimeout(() => finish(new Error(`timed out waiting for ${stream}; got: ${text}`)), timeoutMs);
    const onData = (d: Buffer | string) => {
      text += d;
      if (predicate(text)) finish();
    };
    const onClose = (code: number | null) =>
      finish(new Error(`the process ended (exit ${code}) before ${stream} showed what was awaited; got: ${text}`));
    child[stream]!.on('data', onData);
    child.once('close', onClose);
  });
}

/** How long a wait for a process's output may last before it is a hang, not a slow machine. */
export const HANG_BOUND_MS = 120_000;

/**
 * main() in this process, with its own output, environment and working folder: the same code
 * path as the built file without a process start, for tests about a command's logic (exit
 * codes, messages, state) that call it many times (a start of the built file took seconds on a
 * loaded machine). Each call imports the modules afresh, as a new process would: nothing one
 * run registered (secrets to mask, locks held, warnings given) is seen by the next. What only
 * the built file shows (bundling, its exit, signals, its real stdout and stderr) stays with
 * runDist: every command keeps at least one test through it. Also with runDist: hooks (a hook
 * inherits process.env, here the test runner's), NODE_* variables (Node reads them at its
 * start) and files that can block a read (a FIFO would stop this process, not a child).
 */
export async function runMain(args: string[], env: Record<string, string>, cwd?: string): Promise<RunResult> {
  vi.resetModules();
  const { main } = await import('../../src/cli/main.js');
  const out = { stdout: '', stderr: '' };
  const io = {
    stdout: (t: string) => {
      out.stdout += t;
    },
    stderr: (t: string) => {
      out.stderr += t;
    },
    env,
    cwd: cwd ?? tempDir('ddedge-cwd-'),
    isTTY: false,
  };
  const code = await main(args, io);
  return { code, ...out };
}
