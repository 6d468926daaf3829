// dist/ddedge.mjs, the program. The command's code is in dist/chunks/*.cjs: esbuild's split
// ES module build, each chunk made a CommonJS module (build/classic-scripts.mjs). This file
// runs them as classic scripts with V8's code cache. Node 20 keeps no code cache for a
// program's own modules: without one every cycle parses its ~95 kB again and compiles each
// function it calls, about 10 ms of a cycle (docs/performance.md).
//
// Where a chunk's cache comes from, first that fits:
// 1. `<chunk>.v8cache` beside the chunk: made by the build (and shipped with the npm package),
//    or at install by the Node that runs ddedge (build/code-cache.mjs, run by the Debian
//    package's postinst), or in a single executable its asset of that name, made by its build;
// 2. the user's own cache folder (cache-folder.ts: $CACHE_DIRECTORY under systemd, else
//    $XDG_CACHE_HOME/ddedge or ~/.cache/ddedge), one folder per Node version, architecture and
//    kind of build (single executable or not), written at the end of the first run that found
//    no fitting cache, and never read, made or emptied where another user could have a hand.
//    A folder of the same kind for another Node is removed when this one is made.
// A cache fits only the Node that made it, beside the very source it was made from, and only
// when its checksum holds (codeCache below); anything else is not given to V8, and the chunk
// is compiled as usual: the cache only saves time.
//
// The same file is the main script of the single executables (packaging/sea.mjs), where the
// chunks are the executable's assets (node:sea) rather than files.
// It is built twice (build/build.mjs): dist/ddedge.mjs, the ES module the contract names, and
// dist/ddedge.cjs, a CommonJS module, which the package's bin and /usr/bin/ddedge run: for it
// Node starts no ES module loader (docs/performance.md). import.meta.dirname is __dirname there.
import type { Script as VmScript } from 'node:vm';
import { cacheFolderOf, removeOtherNodes, trustedCacheFolder } from './cache-folder.js';

refuseOldNode();
const { closeSync, existsSync, openSync, readFileSync, renameSync, writeSync } = process.getBuiltinModule('node:fs');
const { Script } = process.getBuiltinModule('node:vm');
const { basename, dirname, join, resolve } = process.getBuiltinModule('node:path');
const sea = process.getBuiltinModule('node:sea') as typeof import('node:sea') | undefined;

interface ChunkModule {
  exports: Record<string, unknown>;
}

/** Each script this process ran, by file: the build's code-cache step saves their caches. */
export const scripts = new Map<string, VmScript>();
const sources = new Map<string, string>();
const modules = new Map<string, ChunkModule>();
/** The chunks this process compiled with no cache that fit: their caches are saved at exit. */
const uncached = new Set<string>();

/** Set (to true) by a command that changed V8's flags: zone/young-generation.ts. */
const V8_FLAGS_CHANGED = Symbol.for('ddedge.v8-flags-changed');

/** In a single executable the chunks are its assets, named `chunks/<name>`, under this folder. */
const SEA_ROOT = '/ddedge.sea';
const inSea = sea?.isSea() === true;

/**
 * Which Node made a cache. V8 compares only its own version numbers, the same in every Node 20
 * (11.3.244.8), while Node patches its V8 from one release to the next ("-node.N").
 */
const MADE_BY = `${process.version} ${process.arch}\n`;

/**
 * What a `.v8cache` file holds: the Node that made it and the source the script was compiled
 * from, then V8's cache, then the CRC-32 of V8's cache (4 bytes, big-endian). V8 checks a cache
 * against its source's length only, and runs the code it holds: another build's cache beside a
 * chunk of the same length (main.cjs keeps its name and often its length, as only hashed names
 * in it change) would run that build's code; and V8's own checksum of a cache is off in release
 * builds, so a damaged cache could crash it, hang it or run wrong code. codeCache() gives V8 the
 * cache only beside its very source, in the Node that made it, with its checksum intact.
 */
export function codeCacheOf(file: string): Buffer {
  const data = scripts.get(file)!.createCachedData();
  const sum = Buffer.alloc(4);
  sum.writeUInt32BE(crc32(data));
  return Buffer.concat([Buffer.from(MADE_BY + sources.get(file)!), data, sum]);
}

/**
 * The CRC-32 of node:zlib, without loading node:zlib when Node allows: zlib.js loads Node's
 * streams, which nothing else in a cycle needs, and that cost a cycle ~5 ms of its ~60
 * (docs/performance.md). Its native half, the same function, is in Node's zlib binding, reachable
 * through process.binding(), whose deprecation (DEP0111) is only documented; with
 * --pending-deprecation Node would warn of it, and then process.binding is Node's warning
 * wrapper (named "deprecated"): node:zlib it is. So too if a later Node takes the binding away.
 * Made on first use: a run that finds no cache checks none.
 */
let crc32Function: ((data: Uint8Array) => number) | undefined;
function crc32(data: Uint8Array): number {
  crc32Function ??= nativeCrc32() ?? process.getBuiltinModule('node:zlib').crc32;
  return crc32Function(data);
}

function nativeCrc32(): ((data: Uint8Array) => number) | undefined {
  const binding = (process as { binding?: (name: string) => unknown }).binding;
  if (typeof binding !== 'function' || binding.name !== 'binding') return undefined;
  try {
    const native = (binding('zlib') as { crc32?: unknown }).crc32;
    return typeof native === 'function'
      ? (data) => (native as (data: Uint8Array, value: number) => number)(data, 0)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Node.js older than 20.18 (Debian 12's is 18, and npm installs ddedge there with a mere
 * warning) would fail at the next line with a TypeError and a stack; it gets one line instead,
 * with what to do, and exit 2 (a configuration error: a service should not restart). Written
 * for any Node: it runs before anything else.
 */
function refuseOldNode(): void {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  if (typeof process.getBuiltinModule === 'function' && (major > 20 || (major === 20 && minor >= 18))) return;
  console.error(
    `ddedge: needs Node.js 20.18 or newer (20, 22, 24 or 26), and this is Node.js ${process.version} (${process.execPath}). Install a newer Node.js, or take ddedge's single executable, which carries its own (README "Install").`,
  );
  process.exit(2);
}

/** A chunk's require(): Node's built-ins, or another chunk, run once and shared. */
function requireFrom(dir: string) {
  return (id: string): unknown => {
    const builtin = process.getBuiltinModule(id);
    if (builtin) return builtin;
    // Everything else was bundled: a bare name here is a build mistake, not a lookup to try.
    if (!id.startsWith('./') && !id.startsWith('../'))
      throw new Error(`dist/chunks require "${id}", which the build should have bundled`);
    return load(resolve(dir, id));
  };
}

function chunkText(file: string): string {
  if (!inSea) return readFileSync(file, 'utf8');
  try {
    return sea!.getAsset(`chunks/${basename(file)}`, 'utf8');
  } catch {
    throw new Error(`the executable holds no chunks/${basename(file)}`);
  }
}

/** Runs a chunk as Node runs a CommonJS module (the same wrapper), once; later calls share it. */
function load(file: string): ChunkModule['exports'] {
  const loaded = modules.get(file);
  if (loaded) return loaded.exports;
  const module: ChunkModule = { exports: {} };
  // Registered before it runs, as Node does, so that a cycle of requires ends.
  modules.set(file, module);
  try {
    const source = `(function (exports, require, module, __filename, __dirname) {${chunkText(file)}\n})`;
    // Named as in the package, wherever it is: V8 (Node 20) keeps the name a cache was made
    // under and shows it in stack traces, which would name the build machine's checkout.
    const cache = codeCache(file, source);
    const script = compile(source, `dist/chunks/${basename(file)}`, cache);
    scripts.set(file, script);
    sources.set(file, source);
    if (!cache || script.cachedDataRejected) uncached.add(file);
    const dir = dirname(file);
    (script.runInThisContext() as (...args: unknown[]) => void).call(
      module.exports,
      module.exports,
      requireFrom(dir),
      module,
      file,
      dir,
    );
  } catch (error) {
    // Forgotten, as Node forgets a module that threw: the next require fails the same way
    // rather than getting the exports half made.
    modules.delete(file);
    throw error;
  }
  return module.exports;
}

function compile(source: string, filename: string, cachedData: Buffer | undefined): VmScript {
  try {
    return new Script(source, { filename, cachedData });
  } catch (error) {
    // A damaged chunk. Node's report of a SyntaxError quotes the line, and a chunk is one long
    // line (tens of kB in a log): the chunk's name and the reason say it.
    if (error instanceof SyntaxError) throw new SyntaxError(`${filename}: ${error.message}`);
    throw error;
  }
}

/** The chunk's code cache that fits (see codeCacheOf): beside the chunk, else the user's. */
function codeCache(file: string, source: string): Buffer | undefined {
  const compiled = Buffer.from(MADE_BY + source);
  const beside = fitting(inSea ? asset(`chunks/${basename(file)}.v8cache`) : read(`${file}.v8cache`), compiled);
  if (beside) return beside;
  readableFolder ??= trustedFolderOrNone();
  return readableFolder ? fitting(read(join(readableFolder, `${basename(file)}.v8cache`)), compiled) : undefined;
}

/** The user's cache folder when it is there and trusted, else '': looked at once a run. */
let readableFolder: string | undefined;
function trustedFolderOrNone(): string {
  const folder = cacheFolderOf(process.env, inSea);
  return folder && trustedCacheFolder(folder, false) ? folder.path : '';
}

/** An asset of the single executable, not copied (the build adds x64's caches: packaging/sea.mjs). */
function asset(key: string): Buffer | undefined {
  try {
    return Buffer.from(sea!.getRawAsset(key) as ArrayBuffer);
  } catch {
    return undefined;
  }
}

function read(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/**
 * V8's part of `saved` when it was made by this Node from `compiled`'s source and its checksum
 * holds. The comparison is a memcmp and the CRC-32 a native one: ~0.1 ms for a cycle's chunks.
 */
function fitting(saved: Buffer | undefined, compiled: Buffer): Buffer | undefined {
  if (!saved || saved.length <= compiled.length + 4 || !compiled.equals(saved.subarray(0, compiled.length)))
    return undefined;
  const data = saved.subarray(compiled.length, saved.length - 4);
  return crc32(data) === saved.readUInt32BE(saved.length - 4) ? data : undefined;
}

/**
 * At a successful exit: the caches this run had none for, into the user's folder. Not after the
 * command changed V8's flags (a zone command's young generation, zone/young-generation.ts): V8
 * takes a cache only under the flags it was made under, and no later run loads every chunk under
 * the flags of this run's end, so each run would compile and save the same caches again.
 */
function saveUserCaches(code: number): void {
  if (code !== 0 || uncached.size === 0 || (globalThis as Record<symbol, unknown>)[V8_FLAGS_CHANGED]) return;
  const folder = cacheFolderOf(process.env, inSea);
  if (!folder) return;
  try {
    const made = !existsSync(folder.path);
    if (!trustedCacheFolder(folder, true)) return;
    // Another Node's caches are of no more use: replaced by this one's.
    if (made) removeOtherNodes(folder);
    const dir = folder.path;
    for (const file of uncached) {
      const target = join(dir, `${basename(file)}.v8cache`);
      // A new file of a random name, never one that exists (O_EXCL), then renamed in place.
      const temporary = `${target}.${process.getBuiltinModule('node:crypto').randomBytes(6).toString('hex')}.tmp`;
      const fd = openSync(temporary, 'wx', 0o600);
      try {
        // No fsync: a file cut short by a crash fails its checksum and is made again.
        writeSync(fd, codeCacheOf(file));
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, target);
    }
  } catch {
    // A cache only saves time: a folder that cannot be written costs nothing but that.
  }
}

process.on('exit', saveUserCaches);
const chunks = inSea ? join(SEA_ROOT, 'chunks') : resolve(import.meta.dirname, 'chunks');
(load(join(chunks, 'main.cjs')).runAsProgram as () => void)();
