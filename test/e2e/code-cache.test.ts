// dist/ddedge.mjs runs the command's chunks with V8's code cache that the build made
// (src/cli/launcher.ts, scripts/code-cache.mjs). The cache must fit the Node that built it,
// and a cache that does not fit (another Node, a damaged file) or none at all must change
// nothing but the time a cycle takes.
import { spawn } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseEnv, DIST, tempDir, type RunResult } from '../helpers/cli.js';

const CYCLE = ['update', '--ip', '81.0.2.15', '--dry-run'];

/**
 * Runs `launcher` as the program, through a probe that imports it statically: the probe's
 * body runs before the command's first await, so its exit handler sees every script the
 * launcher ran and whether V8 took each one's cache (true: refused; undefined: none given).
 */
function probe(launcher: string, args: string[]): Promise<RunResult & { caches: Record<string, boolean | undefined> }> {
  const dir = tempDir('ddedge-cache-probe-');
  const file = join(dir, 'probe.mjs');
  writeFileSync(
    file,
    [
      `import { writeSync } from 'node:fs';`,
      `import { scripts } from ${JSON.stringify(launcher)};`,
      `process.on('exit', () => writeSync(2, '\\ncaches ' + JSON.stringify(Object.fromEntries([...scripts].map(([f, s]) => [f.split('/').pop(), s.cachedDataRejected ?? null]))) + '\\n'));`,
    ].join('\n'),
  );
  const stateDir = join(dir, 'state');
  const env = baseEnv({ DDEDGE_HOSTS: 'home.example.com', DDEDGE_DYNDNS_USER: 'u', DDEDGE_DYNDNS_KEY: 'k', DDEDGE_STATE_DIR: stateDir });
  const child = spawn(process.execPath, [file, ...args], { env, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) =>
    child.on('close', (code) => {
      const line = /\ncaches (.*)\n/.exec(stderr);
      resolve({ code, stdout, stderr: stderr.replace(/\ncaches .*\n/, ''), caches: line ? JSON.parse(line[1]!) : {} });
    }),
  );
}

/** A copy of dist/ whose code caches `spoil` rewrites (or removes). */
function distCopy(spoil: (cache: string) => void): string {
  const copy = join(tempDir('ddedge-cache-copy-'), 'dist');
  cpSync(dirname(DIST), copy, { recursive: true });
  const caches = readdirSync(join(copy, 'chunks')).filter((name) => name.endsWith('.v8cache'));
  expect(caches.length).toBeGreaterThan(0);
  for (const name of caches) spoil(join(copy, 'chunks', name));
  return join(copy, basename(DIST));
}

describe('the code cache', () => {
  it('is made by the build for the chunks a cycle runs, and this Node takes it', async () => {
    const run = await probe(DIST, CYCLE);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('home.example.com A 81.0.2.15 would-update\n');
    // main.cjs and the start chunk, each with a cache V8 did not refuse.
    expect(Object.keys(run.caches)).toHaveLength(2);
    expect(run.caches['main.cjs']).toBe(false);
    expect(Object.values(run.caches)).toEqual([false, false]);
  });

  it.each([
    ['damaged (bytes that are no cache)', (cache: string) => writeFileSync(cache, Buffer.alloc(readFileSync(cache).length, 0x5a)), true],
    ['cut short', (cache: string) => writeFileSync(cache, readFileSync(cache).subarray(0, 1000)), true],
    ['missing', (cache: string) => rmSync(cache), null],
  ] as const)('changes nothing but the time when it is %s', async (_case, spoil, refused) => {
    const launcher = distCopy(spoil);
    const run = await probe(launcher, CYCLE);
    expect([run.code, run.stdout, run.stderr]).toEqual([0, 'home.example.com A 81.0.2.15 would-update\n', '']);
    expect(Object.values(run.caches)).toEqual([refused, refused]);
    // The command line and its errors as ever.
    const wrong = await probe(launcher, ['no-such-command']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/unknown command "no-such-command"/);
  });
});
