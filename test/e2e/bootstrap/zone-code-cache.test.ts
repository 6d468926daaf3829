// The zone commands keep V8's young generation small (zone/young-generation.ts), a change of
// V8's flags, and V8 takes a code cache only under the flags it was made under. Set before the
// zone command's code is loaded, and with the user's cache tried where the build's does not
// fit: from its second run on, a zone command takes a cache for every chunk it runs and
// writes none again (each run compiled a dozen chunks afresh and saved their caches anew).
import { spawn } from 'node:child_process';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withApi } from '../../helpers/agent-env.js';
import { baseEnv, DIST, tempDir } from '../../helpers/cli.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox({ per: 'file' });
const NODE_FOLDER = `${process.version}-${process.arch}`;

/** `ddedge` through a probe that reports, at exit, each chunk run and whether V8 refused its cache (null: none). */
function probe(args: string[], home: string): Promise<{ code: number | null; caches: Record<string, boolean | null> }> {
  const dir = tempDir('ddedge-zone-cache-probe-');
  const file = join(dir, 'probe.mjs');
  writeFileSync(
    file,
    [
      `const { writeSync } = process.getBuiltinModule('node:fs');`,
      `import { scripts } from ${JSON.stringify(DIST)};`,
      `process.on('exit', () => writeSync(2, '\\ncaches ' + JSON.stringify(Object.fromEntries([...scripts].map(([f, s]) => [f.split('/').pop(), s.cachedDataRejected ?? null]))) + '\\n'));`,
    ].join('\n'),
  );
  const env = baseEnv({ ...withApi(sandbox), HOME: home, DDEDGE_STATE_DIR: join(dir, 'state') });
  const child = spawn(process.execPath, [file, ...args], { env, cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) =>
    child.on('close', (code) => resolve({ code, caches: JSON.parse(/\ncaches (.*)\n/.exec(stderr)?.[1] ?? '{}') })),
  );
}

describe('the code cache of a zone command', () => {
  it('is taken for every chunk from the second run on, and not written again', async () => {
    const home = tempDir('ddedge-zone-cache-home-');
    const args = ['zone', 'export', '--service', 'example.com'];
    const first = await probe(args, home);
    expect(first.code).toBe(0);
    const folder = join(home, '.cache', 'ddedge', NODE_FOLDER);
    const written = () => Object.fromEntries(readdirSync(folder).map((n) => [n, statSync(join(folder, n)).mtimeMs]));
    const before = written();
    const second = await probe(args, home);
    expect(second.code).toBe(0);
    expect(Object.keys(second.caches).length).toBeGreaterThan(2);
    expect(Object.entries(second.caches).filter(([, refused]) => refused !== false)).toEqual([]);
    expect(written()).toEqual(before);
  });
});
