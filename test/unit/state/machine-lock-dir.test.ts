// Where the locks every state directory of a user shares live on a machine: root's /run/ddedge,
// a user's runtime directory ($XDG_RUNTIME_DIR, else /run/user/UID when it is the user's), else
// a private directory in the user's home. Each directory on the way is the user's own and
// writable by no one else, checked on a descriptor opened without following a link: a folder
// another user made (or a link he put there) is refused, never used.
import { chmodSync, chownSync, mkdirSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { machineLockDir } from '../../../src/state/machine-lock.js';
import { tempDir } from '../../helpers/cli.js';

const me = process.geteuid?.() ?? 0;
/** A runtime directory as a session manager makes it: the user's, 0700. */
const runtime = () => {
  const dir = tempDir('ddedge-runtime-');
  chmodSync(dir, 0o700);
  return dir;
};

describe("the machine's lock directory", () => {
  it("root's is /run/ddedge (here a stand-in), made 0700", () => {
    const run = join(tempDir(), 'ddedge');
    expect(machineLockDir({ uid: me, root: true, env: {}, rootDir: run })).toBe(run);
    expect(statSync(run).mode & 0o777).toBe(0o700);
  });

  it("root's in a container without /run: in root's home", () => {
    const home = runtime();
    const run = join(tempDir(), 'no-run', 'ddedge');
    expect(machineLockDir({ uid: me, root: true, env: { HOME: home }, rootDir: run })).toBe(
      join(home, '.cache', 'ddedge', 'locks'),
    );
  });

  it("a user's is ddedge in $XDG_RUNTIME_DIR, made 0700", () => {
    const dir = runtime();
    expect(machineLockDir({ uid: me, root: false, env: { XDG_RUNTIME_DIR: dir } })).toBe(join(dir, 'ddedge'));
    expect(statSync(join(dir, 'ddedge')).mode & 0o777).toBe(0o700);
  });

  it('without a runtime directory, a private one in the home (~/.cache/ddedge/locks)', () => {
    const home = runtime();
    expect(machineLockDir({ uid: me, root: false, env: { HOME: home }, userRunDir: join(home, 'none') })).toBe(
      join(home, '.cache', 'ddedge', 'locks'),
    );
  });

  it('a ddedge folder another user made in the runtime directory is refused', () => {
    const dir = runtime();
    mkdirSync(join(dir, 'ddedge'), { mode: 0o700 });
    chownSync(join(dir, 'ddedge'), me + 1, me + 1);
    expect(() => machineLockDir({ uid: me, root: false, env: { XDG_RUNTIME_DIR: dir } })).toThrow(
      new RegExp(`${join(dir, 'ddedge')}" is owned by uid ${me + 1}, not by this user \\(uid ${me}\\)`),
    );
  });

  it('a link in its place is refused, not followed', () => {
    const dir = runtime();
    const elsewhere = runtime();
    symlinkSync(elsewhere, join(dir, 'ddedge'));
    expect(() => machineLockDir({ uid: me, root: false, env: { XDG_RUNTIME_DIR: dir } })).toThrow(/is a symbolic link/);
  });

  it('a folder others may write in is refused (a runtime directory of mode 0777 too)', () => {
    const dir = runtime();
    chmodSync(dir, 0o777);
    expect(() => machineLockDir({ uid: me, root: false, env: { XDG_RUNTIME_DIR: dir } })).toThrow(
      /can be changed by other users \(mode 0777\)/,
    );
    const ok = runtime();
    mkdirSync(join(ok, 'ddedge'), { mode: 0o700 });
    chmodSync(join(ok, 'ddedge'), 0o770);
    expect(() => machineLockDir({ uid: me, root: false, env: { XDG_RUNTIME_DIR: ok } })).toThrow(/mode 0770/);
  });
});
