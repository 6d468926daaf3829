// What the gateway and the agent log counts in words, as people write it ("1 key", "2 keys"),
// never with a "(s)" left for the reader to resolve: lib/counted.ts does it.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../helpers/readme-recipes.js';

/** "path:line" for each line of code (comments aside) under `dir` with a word that ends in "(s)" (a method call aside). */
function pluralsLeft(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const path = join(entry.parentPath, entry.name);
    readFileSync(path, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
        if (/(^|[^.\w])[a-z]+\(s\)/.test(line)) found.push(`${relative(REPO, path)}:${i + 1}`);
      });
  }
  return found.sort();
}

describe('counts in words', () => {
  it.each(['src/gateway', 'src/agent'])('%s says "1 key" and "2 keys", never "key(s)"', (dir) => {
    expect(pluralsLeft(join(REPO, dir))).toEqual([]);
  });
});
