// esbuild plugin: keeps the start path of `ddedge update` in one chunk instead of many.
// esbuild treats every import() target as an entry point and splits the modules of the start
// path by the exact set of entries that reach each of them: every lazily loaded module that
// imports a few start-path modules (errors, redact, address, ...) cut the start path into
// another small chunk, and each chunk is one more file for the ESM loader to resolve, read
// and link in every cycle (16 files after the merges). Here each import() target under src/
// also imports the registry, whose static closure is the whole start path: every start-path
// module is then reached by the same entries and they land in one chunk. At run time that
// import costs nothing: main.ts has loaded the registry before any import() can run.
import { readFile, readdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { inlineBuiltins } from './builtins-inline.mjs';

const DYNAMIC_IMPORT = /\bimport\(\s*'(\.{1,2}\/[^']+)\.js'\s*\)/g;

/**
 * Every module under src/ that some source loads with import(). Found from the sources before
 * the build, not while esbuild resolves: a module that is also imported statically (by the
 * acme command, say) may be loaded before its import() is seen, and would escape the anchor.
 */
async function dynamicTargets(srcDir) {
  const targets = new Set();
  for (const entry of await readdir(srcDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const file = join(entry.parentPath ?? entry.path, entry.name);
    for (const [, path] of (await readFile(file, 'utf8')).matchAll(DYNAMIC_IMPORT))
      targets.add(resolve(dirname(file), `${path}.ts`));
  }
  return targets;
}

export function oneStartChunk(anchor) {
  const anchorPath = resolve(anchor);
  let lazy;
  return {
    name: 'one-start-chunk',
    setup(b) {
      b.onStart(async () => {
        lazy = await dynamicTargets(resolve(dirname(anchorPath), '..'));
      });
      b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
        if (!lazy.has(args.path) || args.path === anchorPath) return undefined;
        const source = inlineBuiltins(await readFile(args.path, 'utf8'));
        return { contents: `${source}\nimport ${JSON.stringify(anchorPath)};\n`, loader: 'ts' };
      });
    },
  };
}
