// Backup rotation: the last 20 backups by the order they were written, never
// the one just written, whatever names a wrong clock gave the older ones. The built
// dist/ddedge.mjs against the sandbox (and ddedge in-process for the many applies after it).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { withApi } from '../../helpers/agent-env.js';
import { baseEnv, HANG_BOUND_MS, runDist, startDist, tempDir } from '../../helpers/cli.js';
import { zoneMain } from '../../helpers/zone.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const ZONE = 'example.com';
const sandbox = useSandbox();
let stateDir: string;
beforeEach(async () => {
  stateDir = tempDir('ddedge-state-');
});

const env = () => baseEnv({ ...withApi(sandbox), DDEDGE_STATE_DIR: stateDir, DDEDGE_SERVICE: ZONE });
const ddedge = (args: string[]) => runDist(args, env());

describe('backup rotation', () => {
  it('never removes the backup just written, even when 20 older ones are named in the future', async () => {
    const dir = join(stateDir, 'zone-backups', ZONE);
    mkdirSync(dir, { recursive: true });
    // Left by a router whose clock was once years ahead.
    for (let i = 0; i < 20; i++)
      writeFileSync(join(dir, `2099${String(i + 1).padStart(4, '0')}T000000.000Z.zone`), `; from the future ${i}\n`);
    const first = await ddedge(['zone', 'apply', writeFile('one A 192.0.2.1'), '--keep-unlisted', '--json']);
    expect(first.code, first.stderr).toBe(0);
    const firstBackup = JSON.parse(first.stdout).backup as string;
    expect(readdirSync(dir)).toContain(firstBackup.split('/').at(-1));
    expect(readdirSync(dir)).toHaveLength(20);
    expect(readdirSync(dir)).not.toContain('20990001T000000.000Z.zone');

    // The next ones push out the future-named files, oldest written first, and then each other
    // (run in this process: 20 more starts of the built file would only cost time).
    const written = [firstBackup];
    for (let i = 2; i <= 21; i++) {
      const run = await zoneMain(
        sandbox,
        [
          'apply',
          writeFile(...Array.from({ length: i }, (_, j) => `h${j} A 192.0.2.${j + 1}`)),
          '--keep-unlisted',
          '--json',
        ],
        { DDEDGE_STATE_DIR: stateDir, DDEDGE_SERVICE: ZONE },
      );
      expect(run.code, run.stderr).toBe(0);
      written.push(JSON.parse(run.stdout).backup);
      expect(readdirSync(dir), `apply ${i}`).toContain(written.at(-1)!.split('/').at(-1));
    }
    expect(readdirSync(dir).sort()).toEqual(
      written
        .slice(-20)
        .map((p) => p.split('/').at(-1))
        .sort(),
    );
  });
});

describe('a FIFO named as a backup', () => {
  it(
    'is never opened to wait for a writer: apply writes its backup and the FIFO counts as unnumbered',
    async () => {
      const dir = join(stateDir, 'zone-backups', ZONE);
      mkdirSync(dir, { recursive: true });
      execFileSync('mkfifo', [join(dir, '20260101T000000.000Z.zone')]);
      const child = startDist(['zone', 'apply', writeFile('one A 192.0.2.1'), '--keep-unlisted', '--json'], env());
      let timer: NodeJS.Timeout | undefined;
      const hung = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), HANG_BOUND_MS)));
      const run = await Promise.race([child.result, hung]);
      clearTimeout(timer);
      // SIGKILL: a process blocked in an open never runs its SIGTERM handler.
      if (run === 'hung') child.kill('SIGKILL');
      expect(run).not.toBe('hung');
      const { code, stdout, stderr } = run as { code: number | null; stdout: string; stderr: string };
      expect(code, stderr).toBe(0);
      expect(readdirSync(dir)).toContain((JSON.parse(stdout).backup as string).split('/').at(-1));
    },
    2 * HANG_BOUND_MS,
  );
});

function writeFile(...lines: string[]): string {
  const path = join(tempDir('ddedge-zone-'), 'zone.txt');
  writeFileSync(path, `$ORIGIN ${ZONE}.\n${lines.join('\n')}\n`);
  return path;
}
