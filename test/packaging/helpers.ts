// What the packaging tests share: the artefacts `npm run build:binaries` and `npm run
// build:deb` write, a program run with no Node.js anywhere on PATH, and a sandbox to point it
// at. These tests run apart from `npm test` (npm run test:packaging; packaging/vitest.config.ts):
// the artefacts take minutes to build.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { tempDir, type RunResult } from '../helpers/cli.js';
import { toolsRequired } from '../helpers/programs.js';

export const ROOT = resolve(import.meta.dirname, '../..');
export const BIN = join(ROOT, 'dist', 'bin');

/**
 * Whether `path` exists; when it does not, a test skips on a developer's machine but fails in
 * CI (DDEDGE_REQUIRE_TOOLS=1), where .ci/run builds every artefact first.
 */
export function artefact(path: string, how: string): boolean {
  if (existsSync(path)) return true;
  if (toolsRequired()) throw new Error(`${path} is missing (DDEDGE_REQUIRE_TOOLS=1): ${how}`);
  return false;
}

/** An environment whose PATH holds no Node.js (an empty folder), and a home of its own. */
export function nodelessEnv(extra: Record<string, string> = {}): Record<string, string> {
  const empty = tempDir('ddedge-empty-path-');
  const home = tempDir('ddedge-home-');
  mkdirSync(join(home, '.cache'));
  return { PATH: empty, HOME: home, ...extra };
}

export function run(command: string[], env: Record<string, string>, timeout = 60_000): Promise<RunResult> {
  const [file, ...args] = command;
  const child = spawn(file!, args, {
    env,
    cwd: tempDir('ddedge-cwd-'),
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout,
    killSignal: 'SIGKILL',
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolveRun) => child.on('close', (code) => resolveRun({ code, stdout, stderr })));
}

export interface SandboxInfo {
  apiUrl: string;
  dyndnsUrl: string;
  apiUser: string;
  apiPassword: string;
  dyndnsUser: string;
  dyndnsKey: string;
}

/** `<command> sandbox --port 0 --json`, once it is listening; stop() ends it with SIGTERM. */
export async function sandbox(
  command: string[],
  env: Record<string, string>,
): Promise<SandboxInfo & { stop: () => Promise<number | null>; child: ChildProcess }> {
  const [file, ...args] = command;
  const child = spawn(file!, [...args, 'sandbox', '--port', '0', '--json'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const info = await new Promise<SandboxInfo>((resolveInfo, reject) => {
    const timer = setTimeout(() => reject(new Error(`the sandbox did not start: ${stderr}`)), 60_000);
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      resolveInfo(JSON.parse(line) as SandboxInfo);
    });
    child.once('exit', (code) => reject(new Error(`the sandbox exited with ${code}: ${stderr}`)));
  });
  const stop = () =>
    new Promise<number | null>((resolveStop) => {
      if (child.exitCode !== null) return resolveStop(child.exitCode);
      child.once('exit', (code) => resolveStop(code));
      child.kill('SIGTERM');
    });
  return { ...info, stop, child };
}

/** The settings that point ddedge at a sandbox, with a state folder of its own. */
export function sandboxEnv(info: SandboxInfo, stateDir = tempDir('ddedge-state-')): Record<string, string> {
  return {
    DDEDGE_DYNDNS_URL: info.dyndnsUrl,
    DDEDGE_DYNDNS_USER: info.dyndnsUser,
    DDEDGE_DYNDNS_KEY: info.dyndnsKey,
    DDEDGE_API_URL: info.apiUrl,
    DDEDGE_API_USER: info.apiUser,
    DDEDGE_API_PASSWORD: info.apiPassword,
    DDEDGE_HOSTS: 'home.example.com',
    DDEDGE_STATE_DIR: stateDir,
  };
}
