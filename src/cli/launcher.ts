// dist/ddedge.mjs, the program. The command's code is in dist/chunks/*.cjs: esbuild's split
// ES module build, each chunk made a CommonJS module (scripts/classic-scripts.mjs). This file
// runs them as classic scripts with V8's code cache, the .v8cache beside each chunk, which the
// build makes from a common cycle (scripts/code-cache.mjs). Node 20 keeps no code cache for a
// program's own modules: without one every cycle parses its ~95 kB again and compiles each
// function it calls, about 10 ms of a cycle (README "Performance"). A cache made by another
// Node or for another source is not used (codeCache below), V8 refuses one made under other V8
// flags, and the chunk is then compiled as usual: the cache only saves time.
// The entry stays an ES module, dist/ddedge.mjs, as the contract names it.
import type { Script as VmScript } from 'node:vm';

const { readFileSync } = process.getBuiltinModule('node:fs');
const { Script } = process.getBuiltinModule('node:vm');
const { basename, dirname, resolve } = process.getBuiltinModule('node:path');

interface ChunkModule {
  exports: Record<string, unknown>;
}

/** Each script this process ran, by file: the build's code-cache step saves their caches. */
export const scripts = new Map<string, VmScript>();
const sources = new Map<string, string>();
const modules = new Map<string, ChunkModule>();

/**
 * Which Node made a cache. V8 compares only its own version numbers, the same in every Node 20
 * (11.3.244.8), while Node patches its V8 from one release to the next ("-node.N").
 */
const MADE_BY = `${process.version} ${process.arch}\n`;

/**
 * What the build writes as `<chunk>.v8cache` (scripts/code-cache-cycle.mjs): the Node that made
 * it and the source the script was compiled from, then V8's cache. V8 checks a cache against
 * its source's length only, and runs the code it holds: another build's cache beside a chunk of
 * the same length (main.cjs keeps its name and often its length, as only hashed names in it
 * change) would run that build's code. codeCache() gives V8 the cache only beside its very
 * source, in the Node that made it.
 */
export function codeCacheOf(file: string): Buffer {
  return Buffer.concat([Buffer.from(MADE_BY + sources.get(file)!), scripts.get(file)!.createCachedData()]);
}

/** A chunk's require(): Node's built-ins, or another chunk, run once and shared. */
function requireFrom(dir: string) {
  return (id: string): unknown => {
    const builtin = process.getBuiltinModule(id);
    if (builtin) return builtin;
    // Everything else was bundled: a bare name here is a build mistake, not a lookup to try.
    if (!id.startsWith('./') && !id.startsWith('../')) throw new Error(`dist/chunks require "${id}", which the build should have bundled`);
    return load(resolve(dir, id));
  };
}

/** Runs a chunk as Node runs a CommonJS module (the same wrapper), once; later calls share it. */
function load(file: string): ChunkModule['exports'] {
  const loaded = modules.get(file);
  if (loaded) return loaded.exports;
  const module: ChunkModule = { exports: {} };
  // Registered before it runs, as Node does, so that a cycle of requires ends.
  modules.set(file, module);
  try {
    const source = `(function (exports, require, module, __filename, __dirname) {${readFileSync(file, 'utf8')}\n})`;
    // Named as in the package, wherever it is: V8 (Node 20) keeps the name a cache was made
    // under and shows it in stack traces, which would name the build machine's checkout.
    const script = compile(source, `dist/chunks/${basename(file)}`, codeCache(file, source));
    scripts.set(file, script);
    sources.set(file, source);
    const dir = dirname(file);
    (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, requireFrom(dir), module, file, dir);
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

/**
 * The chunk's code cache (see codeCacheOf); none when the build made none (a chunk no common
 * cycle runs) or made it from another source. The comparison is a memcmp, ~0.1 ms.
 */
function codeCache(file: string, source: string): Buffer | undefined {
  let saved: Buffer;
  try {
    saved = readFileSync(`${file}.v8cache`);
  } catch {
    return undefined;
  }
  const compiled = Buffer.from(MADE_BY + source);
  if (saved.length <= compiled.length || !compiled.equals(saved.subarray(0, compiled.length))) return undefined;
  return saved.subarray(compiled.length);
}

(load(resolve(import.meta.dirname, 'chunks', 'main.cjs')).runAsProgram as () => void)();
