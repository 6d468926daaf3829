// Runs the built dist/ddedge.mjs as a user would, with a clean environment, and collects
// what it printed. Asynchronous, so servers in the test process keep answering.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

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

export function startDist(args: string[], env: Record<string, string>, cwd?: string): ChildProcess & { result: Promise<RunResult> } {
  const child = spawn(process.execPath, [DIST, ...args], { env, cwd: cwd ?? tempDir('ddedge-cwd-'), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const result = new Promise<RunResult>((resolveResult) => child.on('close', (code) => resolveResult({ code, stdout, stderr })));
  return Object.assign(child, { result });
}

export function runDist(args: string[], env: Record<string, string>, cwd?: string): Promise<RunResult> {
  return startDist(args, env, cwd).result;
}

/** Waits until `predicate` holds for the text a stream has produced so far. */
export function waitForOutput(child: ChildProcess, stream: 'stdout' | 'stderr', predicate: (text: string) => boolean, timeoutMs = 10_000): Promise<string> {
  return new Promise((resolveText, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${stream}; got: ${text}`)), timeoutMs);
    child[stream]!.on('data', (d) => {
      text += d;
      if (predicate(text)) {
        clearTimeout(timer);
        resolveText(text);
      }
    });
  });
}

/**
 * main() in this process, with its own output and environment: the same code path as the built
 * file without a process start, for tests that call the command line many times (a start of
 * the built file took seconds on a loaded machine). The e2e tests still run the built file for
 * what only it shows (bundling, exit, signals).
 */
export async function runMain(args: string[], env: Record<string, string>): Promise<RunResult> {
  const { main } = await import('../../src/cli/main.js');
  const out = { stdout: '', stderr: '' };
  const io = { stdout: (t: string) => void (out.stdout += t), stderr: (t: string) => void (out.stderr += t), env, cwd: tempDir('ddedge-cwd-'), isTTY: false };
  const code = await main(args, io);
  return { code, ...out };
}
