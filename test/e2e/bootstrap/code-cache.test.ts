// dist/ddedge.mjs runs the command's chunks with V8's code cache that the build made
// (bootstrap/launcher.ts, build/code-cache.mjs). The cache must fit the Node that built it,
// and a cache that does not fit (another Node, a damaged file) or none at all must change
// nothing but the time a cycle takes.
import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  cpSync,
  existsSync,
  lchownSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseEnv, DIST, tempDir, type RunResult } from '../../helpers/cli.js';

const CYCLE = ['update', '--ip', '81.0.2.15', '--dry-run'];

/**
 * Runs `launcher` as the program, through a probe that imports it statically: the probe's
 * body runs before the command's first await, so its exit handler sees every script the
 * launcher ran and whether V8 took each one's cache (true: refused; undefined: none given).
 */
/** Node's own modules a CommonJS program that does nothing loads on this Node (its baseline). */
function bareCommonJsBuiltins(): string[] {
  const file = join(tempDir('ddedge-bare-cjs-'), 'bare.cjs');
  writeFileSync(
    file,
    `process.stdout.write(JSON.stringify(process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13))));`,
  );
  return JSON.parse(execFileSync(process.execPath, [file], { encoding: 'utf8' })) as string[];
}

function probe(
  launcher: string,
  args: string[],
  extraEnv: Record<string, string> = {},
): Promise<RunResult & { caches: Record<string, boolean | null>; builtins: string[] }> {
  const dir = tempDir('ddedge-cache-probe-');
  // A CommonJS launcher through a CommonJS probe, so that no ES module is anywhere in the process.
  const commonJs = launcher.endsWith('.cjs');
  const file = join(dir, commonJs ? 'probe.cjs' : 'probe.mjs');
  writeFileSync(
    file,
    [
      // Not an ESM import of node:fs: its facade reads every export, ReadStream too, which loads Node's streams.
      `const { writeSync } = process.getBuiltinModule('node:fs');`,
      commonJs
        ? `const { scripts } = require(${JSON.stringify(launcher)});`
        : `import { scripts } from ${JSON.stringify(launcher)};`,
      `process.on('exit', () => writeSync(2, '\\ncaches ' + JSON.stringify(Object.fromEntries([...scripts].map(([f, s]) => [f.split('/').pop(), s.cachedDataRejected ?? null]))) + '\\n'));`,
      // Node's own modules the process loaded (by then), as Node lists them: "NativeModule zlib".
      `process.on('exit', () => writeSync(2, '\\nbuiltins ' + JSON.stringify(process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13))) + '\\n'));`,
    ].join('\n'),
  );
  const stateDir = join(dir, 'state');
  const env = baseEnv({
    DDEDGE_HOSTS: 'home.example.com',
    DDEDGE_DYNDNS_USER: 'u',
    DDEDGE_DYNDNS_KEY: 'k',
    DDEDGE_STATE_DIR: stateDir,
    ...extraEnv,
  });
  // A damaged cache once hung V8 at 100% CPU: a run that does not end is killed, and fails.
  const child = spawn(process.execPath, [file, ...args], {
    env,
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 20_000,
    killSignal: 'SIGKILL',
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) =>
    child.on('close', (code) => {
      const line = /\ncaches (.*)\n/.exec(stderr);
      const builtins = /\nbuiltins (.*)\n/.exec(stderr);
      resolve({
        code,
        stdout,
        stderr: stderr.replace(/\ncaches .*\n/, '').replace(/\nbuiltins .*\n/, ''),
        caches: line ? JSON.parse(line[1]!) : {},
        builtins: builtins ? JSON.parse(builtins[1]!) : [],
      });
    }),
  );
}

/**
 * What of dist/ the command line runs: its entry and chunks, not the SDK's type files (about 220
 * files, copied ~50 times by this file) nor the SDK.
 */
const commandLineFiles = (from: string) => !/\/types(\/|$)|\/sdk\.mjs/.test(from.slice(dirname(DIST).length));

/** A copy of dist/ whose code caches `spoil` rewrites (or removes). */
function distCopy(spoil: (cache: string) => void): string {
  const copy = join(tempDir('ddedge-cache-copy-'), 'dist');
  cpSync(dirname(DIST), copy, { recursive: true, filter: commandLineFiles });
  const caches = readdirSync(join(copy, 'chunks')).filter((name) => name.endsWith('.v8cache'));
  expect(caches.length).toBeGreaterThan(0);
  for (const name of caches) spoil(join(copy, 'chunks', name));
  return join(copy, basename(DIST));
}

/** A copy of dist/ without its caches, beside the build's code-cache step (build/), to make them anew. */
function uncachedBuild(prefix: string): { other: string; chunks: string } {
  const other = tempDir(prefix);
  cpSync(dirname(DIST), join(other, 'dist'), { recursive: true, filter: commandLineFiles });
  mkdirSync(join(other, 'build'));
  copyFileSync(
    resolve(import.meta.dirname, '../../../build/code-cache-cycle.mjs'),
    join(other, 'build', 'code-cache-cycle.mjs'),
  );
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

  // The package's bin and /usr/bin/ddedge run dist/ddedge.cjs: the same launcher as a CommonJS
  // module, for which Node starts no ES module loader (about 10% of a common cycle's work).
  it('is taken by the CommonJS launcher the installed ddedge runs, in a process with no ES module loader', async () => {
    const run = await probe(join(dirname(DIST), 'ddedge.cjs'), CYCLE);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('home.example.com A 81.0.2.15 would-update\n');
    expect(Object.keys(run.caches)).toHaveLength(2);
    expect(run.caches['main.cjs']).toBe(false);
    expect(Object.values(run.caches)).toEqual([false, false]);
    // Node's bootstrap loads esm/utils for any program; the loader itself comes with an ES module. Newer Node lines
    // load it for every program: what a bare CommonJS program loads on this Node is not the launcher's doing.
    const bare = bareCommonJsBuiltins();
    for (const loaderPart of ['internal/modules/esm/loader', 'internal/fs/promises'])
      if (!bare.includes(loaderPart)) expect(run.builtins).not.toContain(loaderPart);
  });

  // A cache that does not begin with its chunk's source is not given to V8 at all (null).
  it.each([
    [
      'damaged (bytes that are no cache)',
      (cache: string) => writeFileSync(cache, Buffer.alloc(readFileSync(cache).length, 0x5a)),
      null,
    ],
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
    const holder = readdirSync(chunks).find(
      (name) => name.endsWith('.cjs') && readFileSync(join(chunks, name), 'utf8').includes(`"${version}"`),
    )!;
    writeFileSync(
      join(chunks, holder),
      readFileSync(join(chunks, holder), 'utf8').replace(`"${version}"`, `"${changed}"`),
    );
    const env = baseEnv({
      DDEDGE_HOSTS: 'home.example.com',
      DDEDGE_DYNDNS_USER: 'u',
      DDEDGE_DYNDNS_KEY: 'k',
      DDEDGE_STATE_DIR: join(other, 'state'),
    });
    execFileSync(process.execPath, [join(other, 'build', 'code-cache-cycle.mjs'), ...CYCLE], { env, cwd: other });
    expect((await probe(join(other, 'dist', 'ddedge.mjs'), ['--version'])).stdout.trim()).toBe(changed);

    // This build's dist/ with the other build's caches in place of its own.
    // The other build's cycle ran the chunks of CYCLE only; a cache it did not make is left out.
    const launcher = distCopy((cache) =>
      existsSync(join(chunks, basename(cache))) ? copyFileSync(join(chunks, basename(cache)), cache) : rmSync(cache),
    );
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

  it("is checked without node:zlib, whose streams a cycle needs for nothing else, and with Node's warnings on too", async () => {
    // node:zlib's crc32 cost a cycle ~5 ms: loading zlib.js loads Node's streams. The launcher
    // takes the same native CRC-32 from Node's zlib binding, unless Node would warn of that
    // (--pending-deprecation): then from node:zlib, and the checksums are the same.
    const launcher = distCopy(() => {});
    const run = await probe(launcher, CYCLE);
    expect([run.code, run.stdout, run.stderr]).toEqual([0, CYCLE_OUT, '']);
    expect(Object.values(run.caches)).toEqual([false, false]);
    expect(run.builtins).not.toContain('zlib');
    expect(run.builtins).not.toContain('stream');
    const warned = await probe(launcher, CYCLE, { NODE_PENDING_DEPRECATION: '1' });
    expect([warned.code, warned.stdout, warned.stderr]).toEqual([0, CYCLE_OUT, '']);
    expect(Object.values(warned.caches)).toEqual([false, false]);
    expect(warned.builtins).toContain('zlib');
  });

  it('is saved by the build step for a command that ends at once', () => {
    // build/code-cache-cycle.mjs must be listening for the exit before the command can end.
    const { other, chunks } = uncachedBuild('ddedge-cache-quick-');
    execFileSync(process.execPath, [join(other, 'build', 'code-cache-cycle.mjs'), '--version'], {
      env: baseEnv(),
      cwd: other,
    });
    expect(readdirSync(chunks)).toContain('main.cjs.v8cache');
  });
});

/** Where the launcher keeps this Node's caches under a cache home (bootstrap/launcher.ts). */
const NODE_FOLDER = `${process.version}-${process.arch}`;
const WRAPPER = (text: string) => `(function (exports, require, module, __filename, __dirname) {${text}\n})`;
const CYCLE_OUT = 'home.example.com A 81.0.2.15 would-update\n';

/** A copy of dist/ with no cache beside its chunks: a Node the package has no cache for. */
function bareCopy(): string {
  return distCopy((cache) => rmSync(cache));
}

describe('a damaged code cache', () => {
  // V8 checks no checksum of a cache in release builds. Of 80 single-bit flips in the build's
  // caches, 5 crashed Node, 2 hung it (one at 100% CPU) and 3 ran wrong.
  // The launcher checks the CRC-32 it stored and gives V8 nothing else. Each flip: a bit of the
  // header, of the source, across V8's part (its own header first, where a flip mattered most)
  // and of the checksum.
  // The caches of the chunks CYCLE runs: main.cjs and the chunks it requires at once (the
  // build also caches the DNS sources' chunks, which an `--ip` cycle does not load).
  const chunkDir = join(dirname(DIST), 'chunks');
  const started = [
    ...readFileSync(join(chunkDir, 'main.cjs'), 'utf8').matchAll(/(__toESM\(|=>)?require\("\.\/([^"]+\.cjs)"\)/g),
  ]
    .filter((m) => !m[1])
    .map((m) => m[2]!);
  const cacheNames = readdirSync(chunkDir).filter(
    (name) => name.endsWith('.v8cache') && ['main.cjs', ...started].includes(name.replace(/\.v8cache$/, '')),
  );
  const flips = cacheNames.flatMap((name) => {
    const size = statSync(join(dirname(DIST), 'chunks', name)).size;
    const chunk = readFileSync(join(dirname(DIST), 'chunks', name.replace(/\.v8cache$/, '')), 'utf8');
    const dataStart = Buffer.byteLength(`${process.version} ${process.arch}\n${WRAPPER(chunk)}`);
    const dataLength = size - dataStart - 4;
    const inData = [0, 5, 10, 16, 22, 28, 40].map((at) => dataStart + at);
    for (let i = 1; i <= 5; i++) inData.push(dataStart + Math.floor((dataLength * i) / 6));
    const offsets = [3, Math.floor(dataStart / 2), ...inData, size - 4, size - 1];
    // Every fourth case also runs again, to see the cache made anew taken.
    return offsets.map((at, i) => [name, at, i % 8, i % 4 === 0] as const);
  });

  it('the build made caches to flip', () => {
    expect(cacheNames).toContain('main.cjs.v8cache');
    expect(flips.length).toBeGreaterThanOrEqual(30);
  });

  it.concurrent.each(flips)(
    '%s with bit %i.%i flipped is refused, and the cycle runs as without it',
    async (name, at, bit, again) => {
      const launcher = distCopy((cache) => {
        if (basename(cache) !== name) return;
        const bytes = readFileSync(cache);
        bytes[at]! ^= 1 << bit;
        writeFileSync(cache, bytes);
      });
      const xdg = tempDir('ddedge-cache-xdg-');
      const run = await probe(launcher, CYCLE, { XDG_CACHE_HOME: xdg });
      expect([run.code, run.stdout, run.stderr]).toEqual([0, CYCLE_OUT, '']);
      const chunk = name.replace(/\.v8cache$/, '');
      // Not given to V8 at all; the undamaged one is taken.
      expect(run.caches[chunk]).toBeNull();
      for (const [other, refused] of Object.entries(run.caches)) if (other !== chunk) expect(refused).toBe(false);
      // Made anew in the user's folder, and taken from there by the next run.
      expect(existsSync(join(xdg, 'ddedge', NODE_FOLDER, name))).toBe(true);
      if (!again) return;
      const next = await probe(launcher, CYCLE, { XDG_CACHE_HOME: xdg });
      expect([next.code, next.stdout, next.stderr]).toEqual([0, CYCLE_OUT, '']);
      expect(next.caches[chunk]).toBe(false);
    },
  );
});

describe("the user's code cache", () => {
  it("is made by the first run of a Node the package has none for, in the user's folder, and used from then on; another Node's is removed", async () => {
    const launcher = bareCopy();
    const home = tempDir('ddedge-cache-home-');
    const stale = join(home, '.cache', 'ddedge', 'v19.0.0-x64');
    mkdirSync(stale, { recursive: true });
    writeFileSync(join(stale, 'main.cjs.v8cache'), 'old');
    const first = await probe(launcher, CYCLE, { HOME: home });
    expect([first.code, first.stdout, first.stderr]).toEqual([0, CYCLE_OUT, '']);
    expect(Object.values(first.caches)).toEqual([null, null]);
    const folder = join(home, '.cache', 'ddedge', NODE_FOLDER);
    expect(readdirSync(folder).sort()).toEqual(
      Object.keys(first.caches)
        .map((chunk) => `${chunk}.v8cache`)
        .sort(),
    );
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    for (const name of readdirSync(folder)) expect(statSync(join(folder, name)).mode & 0o777).toBe(0o600);
    expect(existsSync(stale)).toBe(false);

    const second = await probe(launcher, CYCLE, { HOME: home });
    expect([second.code, second.stdout, second.stderr]).toEqual([0, CYCLE_OUT, '']);
    expect(Object.values(second.caches)).toEqual([false, false]);
  });

  it("is kept in systemd's CacheDirectory= when the service has one, and XDG_CACHE_HOME is honoured", async () => {
    const launcher = bareCopy();
    const service = tempDir('ddedge-cache-service-');
    await probe(launcher, ['--version'], { CACHE_DIRECTORY: service, XDG_CACHE_HOME: tempDir() });
    expect(readdirSync(join(service, NODE_FOLDER))).toContain('main.cjs.v8cache');
    const xdg = tempDir('ddedge-cache-xdg-');
    await probe(launcher, ['--version'], { XDG_CACHE_HOME: xdg });
    expect(readdirSync(join(xdg, 'ddedge', NODE_FOLDER))).toContain('main.cjs.v8cache');
  });

  it('is neither read nor written in a folder others can write', async () => {
    const launcher = bareCopy();
    const xdg = tempDir('ddedge-cache-xdg-');
    await probe(launcher, CYCLE, { XDG_CACHE_HOME: xdg });
    const folder = join(xdg, 'ddedge', NODE_FOLDER);
    const made = readdirSync(folder).sort();
    expect(made.length).toBe(2);
    for (const writable of [folder, join(xdg, 'ddedge'), xdg]) {
      chmodSync(writable, 0o777);
      // The caches there fit, but another user could have put them there: not given to V8.
      const run = await probe(launcher, CYCLE, { XDG_CACHE_HOME: xdg });
      expect([run.code, run.stdout, run.stderr]).toEqual([0, CYCLE_OUT, '']);
      expect(Object.values(run.caches)).toEqual([null, null]);
      chmodSync(writable, 0o700);
    }
    rmSync(join(folder, made[0]!));
    chmodSync(folder, 0o777);
    await probe(launcher, CYCLE, { XDG_CACHE_HOME: xdg });
    expect(readdirSync(folder)).toEqual(made.slice(1));
  });

  it.skipIf(process.getuid?.() !== 0)(
    "as root, in another user's folder, neither follows their link nor creates or removes anything",
    async () => {
      // su keeps XDG_CACHE_HOME: root's ddedge --help once made its folder through another user's
      // link, in a folder of root's, and removed what it took for another Node's caches there.
      const top = tempDir('ddedge-cache-hostile-');
      chmodSync(top, 0o755);
      const theirs = join(top, 'nobody');
      const cacheHome = join(theirs, 'cache');
      mkdirSync(cacheHome, { recursive: true });
      const rootsFolder = join(top, 'root-owned');
      const rootsData = join(rootsFolder, 'v19.0.0-x64');
      mkdirSync(rootsData, { recursive: true });
      writeFileSync(join(rootsData, 'keep-me'), 'root data');
      symlinkSync(rootsFolder, join(cacheHome, 'ddedge'));
      for (const path of [theirs, cacheHome]) chownSync(path, 65534, 65534);
      lchownSync(join(cacheHome, 'ddedge'), 65534, 65534);
      const launcher = bareCopy();
      const run = await probe(launcher, ['--help'], { XDG_CACHE_HOME: cacheHome });
      expect(run.code).toBe(0);
      expect(run.stderr).toBe('');
      expect(readdirSync(rootsFolder)).toEqual(['v19.0.0-x64']);
      expect(readFileSync(join(rootsData, 'keep-me'), 'utf8')).toBe('root data');
      // Their folder, without the link: nothing of root's is made in it either.
      rmSync(join(cacheHome, 'ddedge'));
      const again = await probe(launcher, ['--help'], { XDG_CACHE_HOME: cacheHome });
      expect(again.code).toBe(0);
      expect(readdirSync(cacheHome)).toEqual([]);
    },
  );

  it("does not follow a link where its own folders go, even in the user's own cache home", async () => {
    const cacheHome = tempDir('ddedge-cache-xdg-');
    const elsewhere = tempDir('ddedge-cache-elsewhere-');
    mkdirSync(join(elsewhere, 'v19.0.0-x64'));
    symlinkSync(elsewhere, join(cacheHome, 'ddedge'));
    const run = await probe(bareCopy(), CYCLE, { XDG_CACHE_HOME: cacheHome });
    expect([run.code, run.stdout, run.stderr]).toEqual([0, CYCLE_OUT, '']);
    expect(readdirSync(elsewhere)).toEqual(['v19.0.0-x64']);
  });

  it('is not made when the run fails, nor without a home', async () => {
    const launcher = bareCopy();
    const xdg = tempDir('ddedge-cache-xdg-');
    const wrong = await probe(launcher, ['no-such-command'], { XDG_CACHE_HOME: xdg });
    expect(wrong.code).toBe(2);
    expect(existsSync(join(xdg, 'ddedge'))).toBe(false);
    const homeless = await probe(launcher, CYCLE, { HOME: '' });
    expect([homeless.code, homeless.stdout, homeless.stderr]).toEqual([0, CYCLE_OUT, '']);
  });
});
