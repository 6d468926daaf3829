// After the build: esbuild puts its runtime helpers (__toESM, __commonJS, ... for the lazily
// loaded CommonJS dependencies) in a chunk of their own, and makes every entry import that
// chunk for its side effects even when the entry's code uses none of them. The chunk has no
// side effects (it only defines the helpers), and the chunks that use a helper import it by
// name, so the entry's bare import is only one more file for the ESM loader in every cycle.
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, relative } from 'node:path';

/** Removes `import"./chunks/<runtime>.mjs";` from `entry`, where esbuild wrote one. */
export async function dropRuntimeImport(metafile, entry) {
  // The runtime chunk is the one built from no source file and importing nothing.
  const runtime = Object.entries(metafile.outputs).filter(([file, output]) => file.endsWith('.mjs') && Object.keys(output.inputs).length === 0 && output.imports.length === 0 && !output.entryPoint);
  if (runtime.length !== 1) return;
  const specifier = `./${relative(dirname(entry), runtime[0][0]).split('\\').join('/')}`;
  const text = await readFile(entry, 'utf8');
  const bare = `import"${specifier}";`;
  if (text.includes(bare)) await writeFile(entry, text.replace(bare, ''));
}
