// Tests that drop to another user run the built file from a staged copy: from a checkout in a
// folder others cannot enter (/root/project, mktemp -d) the other user could not reach it.
import { spawnSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIST, tempDir } from '../../helpers/cli.js';
import { stageForOtherUsers } from '../../helpers/staged-dist.js';

describe.skipIf(process.getuid?.() !== 0)('the built file, run as uid 1000', () => {
  const asUid1000 = (file: string) =>
    spawnSync(process.execPath, [file, '--version'], {
      uid: 1000,
      gid: 1000,
      cwd: '/',
      env: { PATH: process.env.PATH ?? '', HOME: '/' },
      encoding: 'utf8',
    });

  it('from a checkout in a folder others cannot enter, runs from the staged copy', () => {
    // A checkout made with mktemp -d: mode 0700, owned by root.
    const checkout = tempDir('ddedge-checkout-');
    cpSync(dirname(DIST), join(checkout, 'dist'), { recursive: true });
    const entry = join(checkout, 'dist', 'ddedge.mjs');
    // What the tests met: the other user cannot reach the file (Node says it cannot find it).
    expect(asUid1000(entry).stderr).toMatch(/EACCES|permission denied|Cannot find module/i);
    const run = asUid1000(stageForOtherUsers(entry));
    expect(run.stderr).toBe('');
    expect(run).toMatchObject({ status: 0, stdout: expect.stringMatching(/^\d+\.\d+\.\d+/) });
  });
});
