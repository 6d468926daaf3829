// The implicit ./.env is opened once, first without following a link, and vetted (owner, mode) on
// the descriptor it is read from: a link another user swaps in at the path is vetted as a link
// (his: not read), and a file put in place of the path after the open is not the one read. A swap
// between a check and the open cannot be raced on purpose, so the open step is given a hook that
// swaps the path just before or just after it.
import { lchownSync, openSync, renameSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { environmentWithDotenv } from '../../../src/config/env-sources.js';
import { tempDir } from '../../helpers/cli.js';

const me = process.geteuid?.() ?? 0;
const NOBODY = 65534;

function folder(): { cwd: string; path: string; other: string } {
  const cwd = tempDir('ddedge-dotenv-once-');
  const path = join(cwd, '.env');
  writeFileSync(path, 'DDEDGE_TIMEOUT=4s\n', { mode: 0o600 });
  const other = join(tempDir('ddedge-dotenv-other-'), 'other.env');
  writeFileSync(other, 'DDEDGE_TIMEOUT=99s\nDDEDGE_ON_CHANGE=touch /tmp/never\n', { mode: 0o600 });
  return { cwd, path, other };
}

describe('the implicit ./.env is read from the descriptor it was vetted on', () => {
  it.skipIf(me !== 0)(
    "a link of another user's swapped in just before the open: vetted as his link, not read",
    async () => {
      const { cwd, other } = folder();
      const warnings: string[] = [];
      const env = await environmentWithDotenv(
        {},
        undefined,
        cwd,
        '--env-file',
        (m) => void warnings.push(m),
        me,
        (p, flags) => {
          unlinkSync(p);
          symlinkSync(other, p);
          lchownSync(p, NOBODY, NOBODY);
          return openSync(p, flags);
        },
      );
      expect(env.DDEDGE_TIMEOUT).toBeUndefined();
      expect(warnings.join('\n')).toMatch(/is a link owned by uid 65534, not by you \(uid 0\) or root: not read/);
    },
  );

  it('a file put in place of the path after the open: the one opened is read', async () => {
    const { cwd, path, other } = folder();
    const env = await environmentWithDotenv({}, undefined, cwd, '--env-file', undefined, me, (p, flags) => {
      const fd = openSync(p, flags);
      renameSync(other, path);
      return fd;
    });
    expect(env.DDEDGE_TIMEOUT).toBe('4s');
    expect(env.DDEDGE_ON_CHANGE).toBeUndefined();
  });

  it('a link of its own user is still followed (what it names is vetted as the file is)', async () => {
    const { cwd, path, other } = folder();
    unlinkSync(path);
    symlinkSync(other, path);
    const env = await environmentWithDotenv({}, undefined, cwd, '--env-file', () => {}, me);
    expect(env.DDEDGE_TIMEOUT).toBe('99s');
  });
});
