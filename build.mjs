// Builds dist/ddedge.mjs: one ESM entry that runs with no node_modules present.
// Code that a plain `ddedge update` does not need (undici, yargs, the sandbox, the API table)
// is reached through dynamic import() and lands in chunks under dist/chunks/, so the start
// path parses only what it uses.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmod, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { builtinsInline } from './scripts/builtins-inline.mjs';
import { oneStartChunk } from './scripts/one-start-chunk.mjs';
import { dropRuntimeImport } from './scripts/drop-runtime-import.mjs';

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

// CommonJS dependencies call require() for Node built-ins, and yargs reads __dirname.
// process.getBuiltinModule, not an ESM import of node:module: no built-in facade per chunk.
const requireShim = "const require=process.getBuiltinModule('node:module').createRequire(import.meta.url);const __dirname=import.meta.dirname;";
const pkg = JSON.parse(await readFile(new URL('./package.json', import.meta.url), 'utf8'));
await rm('dist', { recursive: true, force: true });

const options = {
  outdir: 'dist',
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
  // The first two lines start Node with "--" when the file is run as a program: Node 20 reads
  // --env-file itself anywhere on its command line (exit 9 on a missing file) unless "--"
  // ends its own options. To Node, line two is a directive and a comment.
  banner: { js: `#!/bin/sh\n':' // ; exec node -- "$0" "$@"\n${requireShim}` },
  logLevel: 'warning',
};
// The command, and apart from it the SDK for `import { Registrar } from 'ddedge'`: built
// together they shared chunks, and every module the SDK shares with the start path (errors,
// redaction, HTTP) became one more file that each cycle loads. oneStartChunk keeps the
// command's start path in one chunk (see scripts/one-start-chunk.mjs).
const command = await build({ ...options, entryPoints: { ddedge: 'src/cli/main.ts' }, plugins: [oneStartChunk('src/cli/registry.ts'), builtinsInline, builtinsThroughRequire] });
const sdk = await build({ ...options, banner: { js: requireShim }, entryPoints: { sdk: 'src/sdk/index.ts' }, plugins: [builtinsInline, builtinsThroughRequire] });
const result = { metafile: { outputs: { ...command.metafile.outputs, ...sdk.metafile.outputs } } };
await dropRuntimeImport(command.metafile, 'dist/ddedge.mjs');
await chmod('dist/ddedge.mjs', 0o755);

// Type declarations for SDK users (dist/types/sdk/index.d.ts).
execFileSync(process.execPath, [join('node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { stdio: 'inherit' });

const outputs = Object.entries(result.metafile.outputs).filter(([f]) => f.endsWith('.mjs'));
const total = outputs.reduce((sum, [, o]) => sum + o.bytes, 0);
console.log(`built dist/ddedge.mjs (${result.metafile.outputs['dist/ddedge.mjs'].bytes} bytes; ${outputs.length} files, ${total} bytes in all)`);
