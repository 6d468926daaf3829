// A piece of ddedge's source (TypeScript, the tests' helpers too), bundled with esbuild into one ES
// module a bench imports or runs: a part alone, or what dist/ leaves out.
import { join } from 'node:path';
import { build } from 'esbuild';

/**
 * Bundles `contents` (imports and code, paths relative to `root`: this checkout unless another is
 * measured) into `outfile`, and returns it. `withRequire`: the bundle gets a require of its own, for
 * dependencies (undici) that require Node's modules.
 */
export async function bundleSource(outfile, contents, { root = join(import.meta.dirname, '..'), withRequire } = {}) {
  await build({
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    logLevel: 'error',
    ...(withRequire
      ? {
          banner: {
            js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
          },
        }
      : {}),
    stdin: { resolveDir: root, contents },
  });
  return outfile;
}
