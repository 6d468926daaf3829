// dist/ddedge.mjs runs the command's chunks with V8's code cache that the build made
// (src/cli/launcher.ts, scripts/code-cache.mjs). The cache must fit the Node that built it,
// and a cache that does not fit (another Node, a damaged file) or none at all must change
// nothing but the time a cycle takes.
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
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

/** A copy of dist/ without its caches, beside the build's code-cache step (scripts/), to make them anew. */
function uncachedBuild(prefix: string): { other: string; chunks: string } {
  const other = tempDir(prefix);
  cpSync(dirname(DIST), join(other, 'dist'), { recursive: true });
  mkdirSync(join(other, 'scripts'));
  copyFileSync(resolve(import.meta.dirname, '../../scripts/code-cache-cycle.mjs'), join(other, 'scripts', 'code-cache-cycle.mjs'));
  const chunks = join(other, 'dist', 'chunks');
  for (const name of readdirSync(chunks).filter((n) => n.endsWith('.v8cache'))) rmSync(join(chunks, name));
  return { other, chunks };
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

  // A cache that does not begin with its chunk's source is not given to V8 at all (null).
  it.each([
    ['damaged (bytes that are no cache)', (cache: string) => writeFileSync(cache, Buffer.alloc(readFileSync(cache).length, 0x5a)), null],
    ['cut short', (cache: string) => writeFileSync(cache, readFileSync(cache).subarray(0, 1000)), null],
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

  it('is not used beside a chunk it was not made from, even one of the same length', async () => {
    // V8 checks a cache against its source's length only. Another build's cache beside a chunk
    // of the same length (main.cjs keeps its name across builds, and often its length: only the
    // hashes in the names it requires change) would run the other build's code. The other build
    // here: this one with the version string changed in place, its caches made by the build's
    // own code-cache step.
    const version = (await probe(DIST, ['--version'])).stdout.trim();
    const changed = version.replace(/\d/g, (d) => String((Number(d) + 1) % 10));
    const { other, chunks } = uncachedBuild('ddedge-cache-other-');
    const holder = readdirSync(chunks).find((name) => name.endsWith('.cjs') && readFileSync(join(chunks, name), 'utf8').includes(`"${version}"`))!;
    writeFileSync(join(chunks, holder), readFileSync(join(chunks, holder), 'utf8').replace(`"${version}"`, `"${changed}"`));
    const env = baseEnv({ DDEDGE_HOSTS: 'home.example.com', DDEDGE_DYNDNS_USER: 'u', DDEDGE_DYNDNS_KEY: 'k', DDEDGE_STATE_DIR: join(other, 'state') });
    execFileSync(process.execPath, [join(other, 'scripts', 'code-cache-cycle.mjs'), ...CYCLE], { env, cwd: other });
    expect((await probe(join(other, 'dist', 'ddedge.mjs'), ['--version'])).stdout.trim()).toBe(changed);

    // This build's dist/ with the other build's caches in place of its own.
    const launcher = distCopy((cache) => copyFileSync(join(chunks, basename(cache)), cache));
    const run = await probe(launcher, ['--version']);
    expect([run.code, run.stdout.trim(), run.stderr]).toEqual([0, version, '']);
    // main.cjs is the same in both: its cache fits; the changed chunk's is not given to V8.
    expect(run.caches).toEqual({ 'main.cjs': false, [holder]: null });
  });

  it('is not used by a Node other than the one that made it', async () => {
    // Every Node 20 reports V8 11.3.244.8, and V8's own check compares only those numbers;
    // Node patches its V8 between its releases (the "-node.N" in process.versions.v8), so a
    // cache made by the build machine's Node must not be given to another (the container's).
    const other = process.version.replace(/\d+$/, (n) => String(Number(n) + 1)).slice(0, process.version.length);
    const launcher = distCopy((cache) => {
      const text = readFileSync(cache);
      const at = text.indexOf(`${process.version} `);
      expect(at).toBeGreaterThanOrEqual(0);
      text.write(other, at, 'latin1');
      writeFileSync(cache, text);
    });
    const run = await probe(launcher, CYCLE);
    expect([run.code, run.stdout, run.stderr]).toEqual([0, 'home.example.com A 81.0.2.15 would-update\n', '']);
    expect(Object.values(run.caches)).toEqual([null, null]);
  });

  it('leaves stack traces naming no path of the machine that made it', async () => {
    // A cache keeps the file name its script was compiled under, and V8 (Node 20) shows that
    // name in stack traces: an installed copy named the build's checkout. An internal error
    // on a lazily loaded chunk (here: removed) prints its stack from cached main.cjs.
    const launcher = distCopy(() => {});
    const chunks = join(dirname(launcher), 'chunks');
    for (const name of readdirSync(chunks).filter((n) => n.startsWith('help-'))) rmSync(join(chunks, name));
    const run = await probe(launcher, ['--help']);
    expect(run.code).toBe(1);
    expect(run.caches['main.cjs']).toBe(false);
    expect(run.stderr).toMatch(/internal error/);
    expect(run.stderr).toMatch(/chunks\/main\.cjs:\d+:\d+/);
    expect(run.stderr).not.toContain(dirname(DIST));
  });

  it('is saved by the build step for a command that ends at once', () => {
    // scripts/code-cache-cycle.mjs must be listening for the exit before the command can end.
    const { other, chunks } = uncachedBuild('ddedge-cache-quick-');
    execFileSync(process.execPath, [join(other, 'scripts', 'code-cache-cycle.mjs'), '--version'], { env: baseEnv(), cwd: other });
    expect(readdirSync(chunks)).toContain('main.cjs.v8cache');
  });
});
