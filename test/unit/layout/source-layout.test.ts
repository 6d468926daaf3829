// The source tree's shape, checked: every module lives in a folder that says what it is (no
// loose files at the root of src/), and no module reaches itself again through its imports
// (static, type-only or lazy): a circle makes load order matter and hides which layer is below.
import { dirname, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, sourceFiles, SRC } from '../../helpers/source-tree.js';

/** Every circle in an import graph, each once, as a list of its modules. */
function findCircles(graph: Map<string, string[]>): string[][] {
  const circles = new Map<string, string[]>();
  const state = new Map<string, 'open' | 'done'>();
  // Iterative depth-first search: the tree is small, but every loop here has a bound anyway.
  for (const start of graph.keys()) {
    if (state.has(start)) continue;
    const stack: { node: string; next: number }[] = [{ node: start, next: 0 }];
    state.set(start, 'open');
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const edges = graph.get(top.node) ?? [];
      if (top.next >= edges.length) {
        state.set(top.node, 'done');
        stack.pop();
        continue;
      }
      const target = edges[top.next++]!;
      if (!graph.has(target)) continue;
      if (state.get(target) === 'open') {
        const from = stack.findIndex((s) => s.node === target);
        const circle = stack.slice(from).map((s) => s.node);
        circles.set([...circle].sort().join(' '), circle);
      } else if (!state.has(target)) {
        state.set(target, 'open');
        stack.push({ node: target, next: 0 });
      }
    }
  }
  return [...circles.values()];
}

const importGraph = (files: string[]) =>
  new Map(
    files.map((f) => [
      relative(SRC, f),
      importsOf(f)
        .filter((t) => t !== f)
        .map((t) => relative(SRC, t)),
    ]),
  );

describe('the source tree', () => {
  const files = sourceFiles(SRC);

  it('keeps no loose modules at the root of src/: each lives in a folder named for what it is', () => {
    const loose = files.filter((f) => dirname(f) === SRC).map((f) => relative(SRC, f));
    expect(loose).toEqual([]);
  });

  it('has no import circles', () => {
    expect(findCircles(importGraph(files))).toEqual([]);
  });

  it('finds circles when there are some (the check itself can fail)', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
      ['e', ['e2']],
      ['e2', ['e']],
    ]);
    expect(findCircles(graph)).toEqual([
      ['a', 'b', 'c'],
      ['e', 'e2'],
    ]);
    expect(
      findCircles(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toEqual([]);
  });
});
