// No line in src/ is longer than 120 characters: the formatter wraps code at 120 columns but
// leaves long strings, template literals and comments alone, so this test holds them to it.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../helpers/readme-recipes.js';

const MAX_CHARS = 120;
const SRC = join(REPO, 'src');

/** "path:line (length)" for each line of a .ts file under `dir` longer than MAX_CHARS. */
function longLines(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const path = join(entry.parentPath, entry.name);
    const shown = relative(REPO, path);
    readFileSync(path, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (line.length > MAX_CHARS) found.push(`${shown}:${i + 1} (${line.length})`);
      });
  }
  return found.sort();
}

describe('line length', () => {
  it(`keeps every line in src/ within ${MAX_CHARS} characters`, () => {
    expect(longLines(SRC)).toEqual([]);
  });
});
