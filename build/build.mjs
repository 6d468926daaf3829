// Builds dist/ddedge.mjs, the program, which runs with no node_modules present: a small
// launcher (bootstrap/launcher.ts) that runs the command's chunks in dist/chunks/ with V8's code
// cache. Code that a plain `ddedge update` does not need (undici, the help, the sandbox, the API
// table) is reached through import() and lands in chunks of its own, loaded on first use, so
// the start path reads and compiles only what it uses.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { builtinsInline } from './builtins-inline.mjs';
import { oneStartChunk } from './one-start-chunk.mjs';
import { dropRuntimeImport } from './drop-runtime-import.mjs';
import { classicScripts } from './classic-scripts.mjs';
import { makeCodeCache } from './code-cache.mjs';

// Node's built-ins are loaded through require(): an ESM import of a built-in builds a
// module facade first, which cost about 15 ms of a cycle's start-up here.
const builtinsThroughRequire = {
  name: 'builtins-through-require',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) =>
      // The require() inside the shim itself is left to Node.
      args.namespace === 'builtin' ? { path: args.path, external: true } : { path: args.path, namespace: 'builtin' },
    );
    b.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

// The SDK's CommonJS dependencies call require() for Node built-ins.
// process.getBuiltinModule, not an ESM import of node:module: no built-in facade per chunk.
const requireShim = "const require=process.getBuiltinModule('node:module').createRequire(import.meta.url);";
const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
// Only what this build makes is removed and made again. dist/ also holds what other builds
// made from it (build:binaries' dist/bin/, build:container's dist/container/, build:deb's
// package), which take minutes to make: they are left as they were, and named, because they
// now come from an earlier build than the program beside them.
await mkdir('dist', { recursive: true });
const ownOutput = (name) => name === 'chunks' || name === 'types' || /\.(mjs|cjs|map|LEGAL\.txt)$/.test(name);
const earlier = (await readdir('dist', { withFileTypes: true }))
  .filter((entry) => !ownOutput(entry.name))
  .map((entry) => `dist/${entry.name}${entry.isDirectory() ? '/' : ''}`)
  .sort();
for (const entry of await readdir('dist'))
  if (ownOutput(entry)) await rm(join('dist', entry), { recursive: true, force: true });

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
  banner: { js: `#!/bin/sh\n':' // ; exec node -- "$0" "$@"` },
  logLevel: 'warning',
};
// The command, and apart from it the SDK for `import { Registrar } from 'ddedge'`: built
// together they shared chunks, and every module the SDK shares with the start path (errors,
// redaction, HTTP) became one more file that each cycle loads. oneStartChunk keeps the
// command's start path in one chunk (see build/one-start-chunk.mjs). The command's chunks
// are CommonJS modules (build/classic-scripts.mjs), with no banner: CommonJS has require()
// and __dirname of its own.
const command = await build({
  ...options,
  banner: {},
  entryPoints: { main: 'src/cli/main.ts' },
  entryNames: 'chunks/[name]',
  write: false,
  plugins: [oneStartChunk('src/cli/registry.ts'), builtinsInline, builtinsThroughRequire],
});
const isModule = (file) => file.path.endsWith('.mjs');
const entry = join(process.cwd(), 'dist', 'chunks', 'main.mjs');
const chunks = await classicScripts(
  command.outputFiles
    .filter(isModule)
    .map(({ path, text }) => ({ path, text: path === entry ? dropRuntimeImport(command.metafile, text) : text })),
);
const licences = command.outputFiles
  .filter((file) => !isModule(file))
  .map(({ path, text }) => ({ path: path.replace(/\.mjs\.LEGAL\.txt$/, '.cjs.LEGAL.txt'), text }));
await mkdir('dist/chunks', { recursive: true });
for (const { path, text } of [...chunks, ...licences]) await writeFile(path, text);
// The program: the launcher, which runs chunks/main.cjs (see bootstrap/launcher.ts), twice over.
// dist/ddedge.mjs is the entry the contract names, for `node dist/ddedge.mjs` and the single
// executables. dist/ddedge.cjs is the same launcher as a CommonJS module, which the package's
// bin, the Debian package's /usr/bin/ddedge and so the systemd units run: Node starts its ES
// module loader for any .mjs entry, and for a .cjs one never (docs/performance.md).
const launcher = {
  ...options,
  splitting: false,
  minifySyntax: false,
  minifyWhitespace: false,
  entryPoints: { ddedge: 'bootstrap/launcher.ts' },
};
await build(launcher);
await build({
  ...launcher,
  format: 'cjs',
  outExtension: { '.js': '.cjs' },
  define: { ...launcher.define, 'import.meta.dirname': '__dirname' },
});
await chmod('dist/ddedge.mjs', 0o755);
await chmod('dist/ddedge.cjs', 0o755);
// One file: the API client's lazy import() of undici is inlined, not split into chunks. Not
// minified: Node prints the line an uncaught error was thrown from, and a minified bundle is a
// few lines of hundreds of kB (59 kB of code on stderr before an ApiError's message); SDK users
// read this code in their debugger too. It costs 40 kB in the gzipped package; a source map
// would cost 470 kB with the sources (120 kB without, pointing at files the package lacks).
await build({
  ...options,
  minifySyntax: false,
  minifyWhitespace: false,
  splitting: false,
  banner: { js: requireShim },
  entryPoints: { sdk: 'src/sdk/index.ts' },
  plugins: [builtinsInline, builtinsThroughRequire],
});

// V8's code cache for a common cycle's chunks. Without it ddedge works the same, slower.
const cached = await makeCodeCache('dist').catch((error) => {
  console.warn(`warning: built without a code cache (${error.message}); each cycle compiles its code again`);
  return [];
});

// Type declarations for SDK users (dist/types/sdk/index.d.ts).
execFileSync(process.execPath, [join('node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], {
  stdio: 'inherit',
});

const size = (path) => statSync(path).size;
const chunkBytes = chunks.reduce((sum, { path }) => sum + size(path), 0);
console.log(
  `built dist/ddedge.mjs (${size('dist/ddedge.mjs')} bytes), dist/ddedge.cjs (${size('dist/ddedge.cjs')} bytes) and their ${chunks.length} chunks (${chunkBytes} bytes; ${cached.length} with a code cache); dist/sdk.mjs (${size('dist/sdk.mjs')} bytes)`,
);
if (earlier.length)
  console.log(
    `left as they were: ${earlier.join(', ')} (made by an earlier build:binaries, build:container or build:deb, not by npm run build)`,
  );
