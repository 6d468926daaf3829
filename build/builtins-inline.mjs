// esbuild plugin: our sources' imports of Node built-ins become process.getBuiltinModule()
// calls in place (Node 20.16+). A built-in is then no module of the bundle at all: no shim
// chunk for the ESM loader to resolve, read and link, and no __toESM copy of its properties.
// Measured on `ddedge update` (see docs/performance.md). Dependencies (undici) keep the
// require() shim of build/build.mjs; they are off the agent's start path.
import { readFile } from 'node:fs/promises';

const STATIC = /^import\s+(?!type\b)(?:(\w+)|\*\s+as\s+(\w+)|\{([^}]*)\})\s+from\s+'(node:[\w/]+)';$/gm;
const DYNAMIC = /(?<!typeof\s+)\bimport\('(node:[\w/]+)'\)/g;

export function inlineBuiltins(source) {
  return source
    .replace(STATIC, (_all, name, namespace, names, id) => {
      const get = `process.getBuiltinModule(${JSON.stringify(id)})`;
      if (name || namespace) return `const ${name ?? namespace} = ${get};`;
      const bindings = names
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s && !s.startsWith('type '))
        .map((s) => s.replace(/^(\w+)\s+as\s+(\w+)$/, '$1: $2'));
      return bindings.length ? `const { ${bindings.join(', ')} } = ${get};` : '';
    })
    .replace(DYNAMIC, (_all, id) => `Promise.resolve(process.getBuiltinModule(${JSON.stringify(id)}))`);
}

export const builtinsInline = {
  name: 'builtins-inline',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => ({
      contents: inlineBuiltins(await readFile(args.path, 'utf8')),
      loader: 'ts',
    }));
  },
};
