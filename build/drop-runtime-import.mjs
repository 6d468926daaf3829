// Build step: esbuild puts its runtime helpers (__toESM, __commonJS, ... for the lazily
// loaded CommonJS dependencies) in a chunk of their own, and makes every entry import that
// chunk for its side effects even when the entry's code uses none of them. The chunk has no
// side effects (it only defines the helpers), and the chunks that use a helper import it by
// name, so the entry's bare import is only one more file to read and run in every cycle.
import { basename } from 'node:path';

/** The entry's text without its bare `import"./<runtime>.mjs";`, where esbuild wrote one. */
export function dropRuntimeImport(metafile, text) {
  // The runtime chunk is the one built from no source file and importing nothing.
  const runtime = Object.entries(metafile.outputs).filter(
    ([file, output]) =>
      file.endsWith('.mjs') &&
      Object.keys(output.inputs).length === 0 &&
      output.imports.length === 0 &&
      !output.entryPoint,
  );
  if (runtime.length !== 1) return text;
  // The entry sits beside the chunks (chunks/main.mjs).
  return text.replace(`import"./${basename(runtime[0][0])}";`, '');
}
