// dist/ddedge.mjs runs the command's chunks with a module registry of its own
// (src/cli/launcher.ts). A chunk that fails to load must fail the same way each time it is
// asked for, as an ES module import does (and Node's require, which forgets such a module):
// never hand out the half-made exports of its first attempt.
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseEnv, DIST, tempDir } from '../helpers/cli.js';

/** A copy of dist/ in a new directory, with the chunk whose name starts with `prefix` rewritten. */
function distWithChunk(prefix: string, rewrite: (text: string) => string): { dir: string; dist: string; name: string } {
  const dir = tempDir('ddedge-launcher-');
  const dist = join(dir, 'dist');
  cpSync(dirname(DIST), dist, { recursive: true });
  const chunks = join(dist, 'chunks');
  const name = readdirSync(chunks).find((n) => n.startsWith(prefix) && n.endsWith('.cjs'))!;
  writeFileSync(join(chunks, name), rewrite(readFileSync(join(chunks, name), 'utf8')));
  return { dir, dist, name };
}

describe('the launcher', () => {
  it('fails a chunk that cannot load the same way on every use', () => {
    // The chunk that reads file: sources, loaded on first use, cut short: it throws as it loads.
    const { dir, dist } = distWithChunk('file-source-', (text) => text.slice(0, text.length / 2));
    for (const file of ['a', 'b']) writeFileSync(join(dir, file), '81.0.2.15\n');
    // Two sources, each loading the chunk.
    const run = spawnSync(process.execPath, [join(dist, 'ddedge.mjs'), 'ip', '--ip-source', `file:${join(dir, 'a')}`, '--ip-source', `file:${join(dir, 'b')}`, '--quorum', '2', '--json'], { env: baseEnv(), cwd: dir, encoding: 'utf8' });
    const { sources } = JSON.parse(run.stdout).addresses[0];
    expect(sources).toHaveLength(2);
    expect(sources[0].error).toBeTruthy();
    expect(sources[1].error).toBe(sources[0].error);
  });

  it('names a chunk that does not compile, without printing its code', () => {
    // A chunk cut short inside a string: it cannot compile. Its code is one long line, which
    // Node's report of a SyntaxError would quote in full (tens of kB in a log).
    const { dir, dist, name } = distWithChunk('zone-', (text) => text.slice(0, text.indexOf('"', 2000) + 1));
    const run = spawnSync(process.execPath, [join(dist, 'ddedge.mjs'), 'zone', 'plan', 'zone.txt'], { env: baseEnv(), cwd: dir, encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`internal error \\(please report it\\): SyntaxError: dist/chunks/${name.replace('.', '\\.')}: `));
    expect(run.stderr).not.toContain('__defProp');
  });
});
