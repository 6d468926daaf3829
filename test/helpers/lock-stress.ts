// The lock's algorithm under far more pressure than cycles can give: processes that do
// nothing but take it, hold it briefly, release it, or leave it stale as if killed. Two
// holders at once is a failure, however rare. The suite runs a short burst
// (lock-stress.test.ts); `npm run test:stress` runs the long one.
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './cli.js';

export function defineLockStress(processes: number, iterations: number, timeoutMs: number): void {
  let script: string;

  beforeAll(async () => {
    script = join(tempDir(), 'lock-contender.mjs');
    await build({
      entryPoints: [resolve(import.meta.dirname, 'lock-contender.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: script,
      logLevel: 'silent',
    });
  });

  function contend(dir: string, seed: number): Promise<{ held: number; overlaps: number }> {
    return new Promise((resolveRun, reject) => {
      const child = spawn(process.execPath, [script, dir, String(iterations), String(seed)], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (err += d));
      child.on('close', (code) =>
        code === 0 ? resolveRun(JSON.parse(out)) : reject(new Error(`contender exited ${code}: ${err}`)),
      );
    });
  }

  describe('the lock under stress', () => {
    it(`${processes} processes, ${iterations} attempts each, with stale locks left behind: never two holders`, {
      timeout: timeoutMs,
    }, async () => {
      const dir = tempDir();
      const results = await Promise.all(Array.from({ length: processes }, (_, i) => contend(dir, i + 1)));
      expect(results.reduce((a, r) => a + r.overlaps, 0)).toBe(0);
      expect(results.reduce((a, r) => a + r.held, 0)).toBeGreaterThan(processes);
    });
  });
}
