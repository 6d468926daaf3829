// npm run build:binaries: the single executables, dist/bin/ddedge-linux-x64 and
// dist/bin/ddedge-linux-arm64, and their SHA-256 sums in dist/bin/SHA256SUMS. Each is a Node.js
// single executable application of the LTS line (packaging/node-versions, from the npm
// registry's node-linux-<arch> packages, fetched by packaging/node.sh): the Node binary with
// dist/ddedge.mjs (bootstrap/launcher.ts) as its main script and the chunks as its assets.
// Node 25.5 and later build one in a single step (`node --build-sea`, the "executable" field
// naming the Node to build it from), so no injector (postject) is needed. The x64 one also
// carries V8's code cache of a common cycle, made by running it once (its own Node, so the
// cache fits); the arm64 one makes its cache on its first run, in the user's cache folder.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { commonCycle } from '../build/code-cache.mjs';

const root = resolve(import.meta.dirname, '..');
const dist = join(root, 'dist');
const out = join(dist, 'bin');
const versions = readFileSync(join(import.meta.dirname, 'node-versions'), 'utf8');
const lts = /^(\d+) \S+ lts$/m.exec(versions)?.[1];
if (!lts) throw new Error('packaging/node-versions marks no line lts');
const node = (arch) =>
  execFileSync(join(import.meta.dirname, 'node.sh'), [lts, arch], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
const builder = node('x64');
const arches = (process.env.DDEDGE_SEA_ARCHES ?? 'x64,arm64').split(',');

const chunks = readdirSync(join(dist, 'chunks')).filter((name) => name.endsWith('.cjs'));
if (!chunks.includes('main.cjs')) throw new Error('dist/chunks/main.cjs is missing: run npm run build first');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const work = mkdtempSync(join(tmpdir(), 'ddedge-sea-'));

/**
 * The Node binary to build from, without its symbols and debug sections (150 MB to 116 MB for
 * x64): binutils' strip, for another architecture its cross strip (binutils-aarch64-linux-gnu).
 * Without it, the binary as published.
 */
const bases = new Map();
function base(arch) {
  if (bases.has(arch)) return bases.get(arch);
  const published = node(arch);
  const tool = arch === process.arch ? 'strip' : `${{ arm64: 'aarch64', x64: 'x86_64' }[arch]}-linux-gnu-strip`;
  const stripped = join(work, `node-${arch}`);
  const result = spawnSync(tool, ['-o', stripped, published], { stdio: ['ignore', 'ignore', 'pipe'] });
  const chosen = result.status === 0 ? stripped : published;
  if (chosen === published)
    console.warn(
      `warning: ${tool} failed (${result.error?.message ?? result.stderr}); the ${arch} executable keeps Node's symbols`,
    );
  bases.set(arch, chosen);
  return chosen;
}

function buildSea(arch, extraAssets = {}) {
  const output = join(out, `ddedge-linux-${arch}`);
  const config = {
    main: join(dist, 'ddedge.mjs'),
    mainFormat: 'module',
    executable: base(arch),
    output,
    disableExperimentalSEAWarning: true,
    useSnapshot: false,
    useCodeCache: false,
    assets: {
      ...Object.fromEntries(chunks.map((name) => [`chunks/${name}`, join(dist, 'chunks', name)])),
      ...extraAssets,
    },
  };
  const file = join(work, `sea-${arch}.json`);
  writeFileSync(file, JSON.stringify(config, null, 2));
  rmSync(output, { force: true });
  execFileSync(builder, ['--build-sea', file], { stdio: ['ignore', 'ignore', 'inherit'] });
  return output;
}

try {
  for (const arch of arches) {
    let output = buildSea(arch);
    if (arch === process.arch) {
      // One common cycle of the executable itself: its launcher saves the caches it lacked in
      // CACHE_DIRECTORY, and they become assets beside the chunks.
      const cacheDir = join(work, `cache-${arch}`);
      mkdirSync(cacheDir, { mode: 0o700 });
      await commonCycle([output], { CACHE_DIRECTORY: cacheDir });
      const [folder] = readdirSync(cacheDir);
      const caches = folder ? readdirSync(join(cacheDir, folder)).filter((name) => name.endsWith('.v8cache')) : [];
      if (!caches.includes('main.cjs.v8cache'))
        throw new Error(`the ${arch} executable saved no code cache for chunks/main.cjs`);
      output = buildSea(
        arch,
        Object.fromEntries(caches.map((name) => [`chunks/${name}`, join(cacheDir, folder, name)])),
      );
    }
    console.log(`built ${output} (${statSync(output).size} bytes)`);
  }
  const sums = readdirSync(out)
    .filter((name) => name.startsWith('ddedge-'))
    .map(
      (name) =>
        `${createHash('sha256')
          .update(readFileSync(join(out, name)))
          .digest('hex')}  ${name}\n`,
    );
  writeFileSync(join(out, 'SHA256SUMS'), sums.join(''));
} finally {
  rmSync(work, { recursive: true, force: true });
}
