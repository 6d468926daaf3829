// dist/ddedge.mjs, the program. The command's code is in dist/chunks/*.cjs: esbuild's split
// ES module build, each chunk made a CommonJS module (scripts/classic-scripts.mjs). This file
// runs them as classic scripts with V8's code cache, the .v8cache beside each chunk, which the
// build makes from a common cycle (scripts/code-cache.mjs). Node 20 keeps no code cache for a
// program's own modules: without one every cycle parses its ~95 kB again and compiles each
// function it calls, about 10 ms of a cycle (README "Performance"). V8 refuses a cache made by
// another Node (version, V8 flags) and then compiles as usual: the cache only saves time.
// The entry stays an ES module, dist/ddedge.mjs, as the contract names it.
import type { Script as VmScript } from 'node:vm';

const { readFileSync } = process.getBuiltinModule('node:fs');
const { Script } = process.getBuiltinModule('node:vm');
const { dirname, resolve } = process.getBuiltinModule('node:path');

interface ChunkModule {
  exports: Record<string, unknown>;
}

/** Each script this process ran, by file: the build's code-cache step saves their caches. */
export const scripts = new Map<string, VmScript>();
const modules = new Map<string, ChunkModule>();

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
  const source = `(function (exports, require, module, __filename, __dirname) {${readFileSync(file, 'utf8')}\n})`;
  const script = new Script(source, { filename: file, cachedData: codeCache(file) });
  scripts.set(file, script);
  const dir = dirname(file);
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, requireFrom(dir), module, file, dir);
  return module.exports;
}

/** The chunk's code cache; none when the build made none (a chunk no common cycle runs). */
function codeCache(file: string): Buffer | undefined {
  try {
    return readFileSync(`${file}.v8cache`);
  } catch {
    return undefined;
  }
}

(load(resolve(import.meta.dirname, 'chunks', 'main.cjs')).runAsProgram as () => void)();
