// The zone commands keep V8's young generation small (zone/young-generation.ts), a change of
// V8's flags, and V8 takes a code cache only under the flags it was made under: a cache saved at
// the end of such a run fits no later run. A zone command saves none (each run wrote a dozen
// caches again, every time), and the build's caches it does take stay taken.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
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
  it('is not saved in the user folder, run after run; the build caches of the chunks it loads first are taken', async () => {
    const home = tempDir('ddedge-zone-cache-home-');
    const args = ['zone', 'export', '--service', 'example.com'];
    const folder = join(home, '.cache', 'ddedge', NODE_FOLDER);
    for (let run = 0; run < 2; run++) {
      const { code, caches } = await probe(args, home);
      expect(code).toBe(0);
      expect(caches['main.cjs']).toBe(false);
      expect(existsSync(folder) ? readdirSync(folder) : []).toEqual([]);
    }
  });
});
