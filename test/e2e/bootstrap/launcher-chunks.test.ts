// dist/ddedge.mjs runs the command's chunks with a module registry of its own
// (bootstrap/launcher.ts). A chunk that fails to load must fail the same way each time it is
// asked for, as an ES module import does (and Node's require, which forgets such a module):
// never hand out the half-made exports of its first attempt.
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseEnv, DIST, tempDir } from '../../helpers/cli.js';

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
  // Debian 12 and Raspberry Pi OS 12 ship Node.js 18; npm installs ddedge there with only a
  // warning (engines). Node 18 is played by a preload that gives Node 18's version and takes
  // away what it lacks (process.getBuiltinModule, which the launcher's first line calls).
  it.each([
    ['v18.19.0', true],
    ['v20.17.0', false],
  ])(
    'refuses Node.js %s in one line that says what to do, exit 2, before it runs anything',
    (version, lacksGetBuiltinModule) => {
      const dir = tempDir('ddedge-old-node-');
      const preload = join(dir, 'old-node.cjs');
      writeFileSync(
        preload,
        [
          `Object.defineProperty(process, 'version', { value: ${JSON.stringify(version)} });`,
          `Object.defineProperty(process.versions, 'node', { value: ${JSON.stringify(version.slice(1))} });`,
          lacksGetBuiltinModule ? 'delete process.getBuiltinModule;' : '',
        ].join('\n'),
      );
      const run = spawnSync(process.execPath, ['--require', preload, DIST, 'update', '--ip', '81.0.2.15'], {
        env: baseEnv({ DDEDGE_HOSTS: 'home.example.com', DDEDGE_STATE_DIR: join(dir, 'state') }),
        cwd: dir,
        encoding: 'utf8',
      });
      expect([run.status, run.stdout]).toEqual([2, '']);
      expect(run.stderr).toBe(
        `ddedge: needs Node.js 20.18 or newer (20, 22, 24 or 26), and this is Node.js ${version} (${process.execPath}). Install a newer Node.js, or take ddedge's single executable, which carries its own (README "Install").\n`,
      );
      // Nothing was done: no state folder, no cache.
      expect(readdirSync(dir)).toEqual(['old-node.cjs']);
    },
  );

  it('fails a chunk that cannot load the same way on every use', () => {
    // The chunk that reads file: sources, loaded on first use, cut short: it throws as it loads.
    const { dir, dist } = distWithChunk('file-source-', (text) => text.slice(0, text.length / 2));
    for (const file of ['a', 'b']) writeFileSync(join(dir, file), '81.0.2.15\n');
    // Two sources, each loading the chunk.
    const run = spawnSync(
      process.execPath,
      [
        join(dist, 'ddedge.mjs'),
        'ip',
        '--ip-source',
        `file:${join(dir, 'a')}`,
        '--ip-source',
        `file:${join(dir, 'b')}`,
        '--quorum',
        '2',
        '--json',
      ],
      { env: baseEnv(), cwd: dir, encoding: 'utf8' },
    );
    const { sources } = JSON.parse(run.stdout).addresses[0];
    expect(sources).toHaveLength(2);
    expect(sources[0].error).toBeTruthy();
    expect(sources[1].error).toBe(sources[0].error);
  });

  it('names a chunk that does not compile, without printing its code', () => {
    // A chunk cut short inside a string: it cannot compile. Its code is one long line, which
    // Node's report of a SyntaxError would quote in full (tens of kB in a log).
    const { dir, dist, name } = distWithChunk('zone-', (text) => text.slice(0, text.indexOf('"', 2000) + 1));
    const run = spawnSync(process.execPath, [join(dist, 'ddedge.mjs'), 'zone', 'plan', 'zone.txt'], {
      env: baseEnv(),
      cwd: dir,
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      new RegExp(`internal error \\(please report it\\): SyntaxError: dist/chunks/${name.replace('.', '\\.')}: `),
    );
    expect(run.stderr).not.toContain('__defProp');
  });
});
