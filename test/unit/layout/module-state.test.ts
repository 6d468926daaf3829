// Mutable state lives in objects that their owner makes and hands on, never in a module: a
// module's state is shared by every caller in the process (two gateways, two tests) and is
// never reset. So in the folders named here, nothing at a file's top level is `let` or `var`,
// and a `const` bound to a collection (a Map, Set, array or object) is declared read-only by its
// type (ReadonlyMap, ReadonlySet, readonly T[], Readonly<T>, `as const`), which TypeScript then
// keeps from being changed. Read as text: the tree starts its top-level statements at the first column.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles, SRC } from '../../helpers/source-tree.js';

const STATELESS_FOLDERS = ['gateway/update'];

/** A top-level binding: the tree's modules start their top-level statements at the first column. */
const BINDING = /^(?:export\s+)?(let|var|const)\s+([A-Za-z_$][\w$]*)\s*(?::\s*([^=]+?))?\s*=\s*(.*)$/;
/** A value that makes a collection that could be changed in place. */
const COLLECTION = /^(?:new\s+(?:Map|Set|WeakMap|WeakSet|Array)\b|\[|\{)/;
/** A type that keeps the value from being changed. */
const READ_ONLY_TYPE = /^(?:Readonly|readonly\s)/;

/** The top-level bindings of a module's text that hold mutable state, as "line: name (why)". */
function moduleState(text: string): string[] {
  const lines = text.split('\n');
  const found: string[] = [];
  lines.forEach((line, i) => {
    const binding = BINDING.exec(line);
    if (!binding) return;
    const [, kind, name, type = '', value = ''] = binding;
    if (kind !== 'const') {
      found.push(`${i + 1}: ${name} (let or var)`);
      return;
    }
    if (!COLLECTION.test(value) || READ_ONLY_TYPE.test(type.trim())) return;
    // The statement ends on its own line or on the first line after it that closes at the first column.
    const last = value.trimEnd().endsWith(';') ? i : lines.findIndex((l, j) => j > i && /^[}\]]/.test(l));
    if (!/\bas const;\s*$/.test(lines[last] ?? ''))
      found.push(`${i + 1}: ${name} (a collection not read-only by its type)`);
  });
  return found;
}

describe('modules without state', () => {
  it.each(STATELESS_FOLDERS)('src/%s keeps no mutable state at the top level of its modules', (folder) => {
    const files = sourceFiles(join(SRC, folder));
    expect(files.length).toBeGreaterThan(0);
    const found = files.flatMap((file) =>
      moduleState(readFileSync(file, 'utf8')).map((f) => `${relative(SRC, file)}:${f}`),
    );
    expect(found).toEqual([]);
  });

  it('catches what it is meant to catch (the check itself can fail)', () => {
    const text = [
      'let count = 0;',
      'const queues = new Map<string, number[]>();',
      'const names: string[] = [];',
      'const OK = { rcode: 0 };',
      'const KINDS: ReadonlySet<string> = new Set(["a"]);',
      'const CLASS = { IN: 1 } as const;',
      'const LIMIT = 5;',
      'const OK2: Readonly<{ rcode: number }> = { rcode: 0 };',
      'export const add = (a: number) => a + 1;',
      'function f() {',
      '  let inside = 1;',
      '  const local = new Map();',
      '  return [inside, local];',
      '}',
      'export const TYPES = {',
      '  A: 1,',
      '} as const;',
      'export var legacy = [];',
      'const grows = [',
      '  1,',
      '];',
    ].join('\n');
    expect(moduleState(text)).toEqual([
      '1: count (let or var)',
      '2: queues (a collection not read-only by its type)',
      '3: names (a collection not read-only by its type)',
      '4: OK (a collection not read-only by its type)',
      '18: legacy (let or var)',
      '19: grows (a collection not read-only by its type)',
    ]);
  });
});
