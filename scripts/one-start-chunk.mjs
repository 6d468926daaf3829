// esbuild plugin: keeps the start path of `ddedge update` in one chunk instead of many.
// esbuild treats every import() target as an entry point and splits the modules of the start
// path by the exact set of entries that reach each of them: every lazily loaded module that
// imports a few start-path modules (errors, redact, address, ...) cut the start path into
// another small chunk, and each chunk is one more file for the ESM loader to resolve, read
// and link in every cycle (16 files after the merges). Here each import() target under src/
// also imports the registry, whose static closure is the whole start path: every start-path
// module is then reached by the same entries and they land in one chunk. At run time that
// import costs nothing: main.ts has loaded the registry before any import() can run.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { inlineBuiltins } from './builtins-inline.mjs';

export function oneStartChunk(anchor) {
  const anchorPath = resolve(anchor);
  const lazy = new Set();
  return {
    name: 'one-start-chunk',
    setup(b) {
      b.onResolve({ filter: /^\./ }, async (args) => {
        if (args.kind !== 'dynamic-import' || args.pluginData?.oneStartChunk) return undefined;
        const result = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { oneStartChunk: true } });
        if (!result.errors.length && /[\\/]src[\\/].*\.ts$/.test(result.path)) lazy.add(result.path);
        return result.errors.length ? undefined : { path: result.path, external: result.external, namespace: result.namespace };
      });
      b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
        if (!lazy.has(args.path) || args.path === anchorPath) return undefined;
        const source = inlineBuiltins(await readFile(args.path, 'utf8'));
        return { contents: `${source}\nimport ${JSON.stringify(anchorPath)};\n`, loader: 'ts' };
      });
    },
  };
}
