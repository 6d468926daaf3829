// Builds dist/ddedge.mjs: one ESM entry that runs with no node_modules present.
// Code that a plain `ddedge update` does not need (undici, yargs, the sandbox, the API table)
// is reached through dynamic import() and lands in chunks under dist/chunks/, so the start
// path parses only what it uses.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmod, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { builtinsInline } from './scripts/builtins-inline.mjs';

// Node's built-ins are loaded through require(): an ESM import of a built-in builds a
// module facade first, which cost about 15 ms of a cycle's start-up here.
const builtinsThroughRequire = {
  name: 'builtins-through-require',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) =>
      // The require() inside the shim itself is left to Node.
      args.namespace === 'builtin' ? { path: args.path, external: true } : { path: args.path, namespace: 'builtin' },
    );
    b.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
  },
};

const pkg = JSON.parse(await readFile(new URL('./package.json', import.meta.url), 'utf8'));
await rm('/tmp/perf/mdist', { recursive: true, force: true });

const result = await build({
  // The command, and the SDK for `import { Registrar } from 'ddedge'`; they share chunks.
  entryPoints: { ddedge: 'src/cli/main.ts', sdk: 'src/sdk/index.ts' },
  outdir: '/tmp/perf/mdist',
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.18',
  minifySyntax: true,
  minifyWhitespace: true,
  legalComments: 'linked',
  metafile: true,
  define: { __DDEDGE_VERSION__: JSON.stringify(pkg.version) },
  // CommonJS dependencies call require() for Node built-ins, and yargs reads __dirname.
  // The first two lines start Node with "--" when the file is run as a program: Node 20 reads
  // --env-file itself anywhere on its command line (exit 9 on a missing file) unless "--"
  // ends its own options. To Node, line two is a directive and a comment.
  banner: {
    // process.getBuiltinModule, not an ESM import of node:module: no built-in facade per chunk.
    js: "#!/bin/sh\n':' // ; exec node -- \"$0\" \"$@\"\nconst require=process.getBuiltinModule('node:module').createRequire(import.meta.url);const __dirname=import.meta.dirname;",
  },
  logLevel: 'warning',
  plugins: [builtinsInline, builtinsThroughRequire],
});


// Type declarations for SDK users (dist/types/sdk/index.d.ts).


import('node:fs').then(f=>f.writeFileSync('/tmp/perf/meta.json', JSON.stringify(result.metafile)));


