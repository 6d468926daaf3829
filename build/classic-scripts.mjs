// Build step: the command's chunks as CommonJS modules, for dist/ddedge.mjs to run as classic
// scripts with V8's code cache (see bootstrap/launcher.ts). esbuild splits code only in ES module
// output, and Node 20 caches no compiled code for ES modules; so the command is built split,
// as ES modules, and each chunk is then turned into a CommonJS module here. Their imports of
// each other become require() calls, and import() becomes a require() inside a promise: a
// lazily loaded chunk still loads only when it is first used.
import { transform } from 'esbuild';

const REQUIRED_CHUNK = /\brequire\("(\.{1,2}\/[^"]+)\.mjs"\)/g;

/**
 * `files`: esbuild's output files of the split build ({ path, text }); returns the same chunks
 * as { path, text } with .cjs names.
 */
export async function classicScripts(files) {
  return Promise.all(
    files.map(async ({ path, text }) => {
      const { code } = await transform(text, {
        format: 'cjs',
        loader: 'js',
        platform: 'node',
        target: 'node20.18',
        // Without this, esbuild keeps import() in CommonJS output, and Node would load the
        // chunk as an ES module: a second copy of every module the chunks share.
        supported: { 'dynamic-import': false },
        minifySyntax: true,
        minifyWhitespace: true,
        // An ES module is strict code; the CommonJS module made of it must stay so.
        banner: '"use strict";',
        // import.meta has no CommonJS meaning (esbuild would leave an empty object): a source
        // must use __dirname and __filename, which the launcher gives every chunk.
        logOverride: { 'empty-import-meta': 'error' },
        // No sourcefile: a name ending in .mjs would make esbuild read every import() with
        // Node's rules (the whole module.exports as `default`), not as the ES module it was.
        logLevel: 'warning',
      }).catch((error) => {
        throw new Error(`${path}: ${error.message}`);
      });
      return { path: path.replace(/\.mjs$/, '.cjs'), text: code.replace(REQUIRED_CHUNK, 'require("$1.cjs")') };
    }),
  );
}
