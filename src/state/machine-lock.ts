// Locks shared by every state directory of a user on this machine: two `zone apply` runs of one
// zone of one account must not run at once, whatever --state-dir each was given. They live in
// the user's runtime directory: root's /run/ddedge; a user's $XDG_RUNTIME_DIR/ddedge (else
// /run/user/UID/ddedge when that is the user's); else ~/.cache/ddedge/locks. Never a name in a
// folder every user may write in (/tmp), which another user could make first or put a link at:
// each folder on the way is opened without following a link and checked on that descriptor (a
// folder, the user's own, writable by no one else), and those ddedge makes are 0700.
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, rmdirSync, type Stats } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { ConfigError } from '../lib/errors.js';
import { describeFileType } from '../lib/regular-file.js';
import type { Lock } from './lock.js';

export interface MachineLockPlace {
  /** The user the locks are for (process.geteuid). */
  uid?: number;
  /** Whether root's folder is used (uid 0). */
  root?: boolean;
  env?: Record<string, string | undefined>;
  /** root's folder (tests give another). */
  rootDir?: string;
  /** The runtime directory systemd makes for a user session, used when $XDG_RUNTIME_DIR is not set. */
  userRunDir?: string;
}

const refuse = (path: string, why: string) =>
  new ConfigError(`the lock folder "${path}" ${why}; remove it (ddedge makes it again, private to this user)`);

const DIRECTORY = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Checks the folder at `path` on a descriptor opened without following a link: a folder owned by `uid`, which no one
 * else may change (nor read, when `private`); false when it does not exist.
 */
function checkFolder(path: string, uid: number | undefined, own: boolean): boolean {
  let fd: number;
  try {
    fd = openSync(path, DIRECTORY);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return false;
    // Linux says ENOTDIR for a link opened with O_DIRECTORY and O_NOFOLLOW, others ELOOP.
    if (code === 'ELOOP' || (code === 'ENOTDIR' && lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink()))
      throw refuse(path, 'is a symbolic link, not a folder');
    if (code === 'ENOTDIR') throw refuse(path, 'is not a folder');
    throw refuse(path, `cannot be opened (${code})`);
  }
  let stats: Stats;
  try {
    stats = fstatSync(fd);
  } finally {
    closeSync(fd);
  }
  if (!stats.isDirectory()) throw refuse(path, `is ${describeFileType(stats)}, not a folder`);
  if (uid === undefined) return true;
  if (stats.uid !== uid) throw refuse(path, `is owned by uid ${stats.uid}, not by this user (uid ${uid})`);
  const mode = stats.mode & 0o777;
  if (mode & (own ? 0o077 : 0o022))
    throw refuse(
      path,
      `can be ${mode & 0o022 ? 'changed' : 'read'} by other users (mode ${mode.toString(8).padStart(4, '0')})`,
    );
  return true;
}

/** `path`, made 0700 where missing (and its folders below `base`), each checked; `base` must exist, the user's. */
function privateFolder(base: string, path: string, uid: number | undefined): string {
  if (!checkFolder(base, uid, false)) throw refuse(base, 'does not exist');
  const steps: string[] = [];
  for (let p = path; p !== base && p !== dirname(p); p = dirname(p)) steps.unshift(p);
  for (const step of steps) {
    if (checkFolder(step, uid, true)) continue;
    try {
      mkdirSync(step, { mode: 0o700 });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw refuse(step, `cannot be made (${code})`);
    }
    checkFolder(step, uid, true);
  }
  return path;
}

const isOwnFolder = (path: string, uid: number | undefined): boolean => {
  try {
    return checkFolder(path, uid, true);
  } catch {
    return false;
  }
};

/** The folder of this user's machine-wide locks, made where missing and checked. */
export function machineLockDir(place: MachineLockPlace = {}): string {
  const uid = place.uid ?? process.geteuid?.();
  const env = place.env ?? process.env;
  const home = env.HOME && isAbsolute(env.HOME) ? env.HOME : homedir();
  const inHome = () => privateFolder(home, join(home, '.cache', 'ddedge', 'locks'), uid);
  if (place.root ?? uid === 0) {
    const root = place.rootDir ?? '/run/ddedge';
    // A container may have no /run: root's home then, as a user's.
    return checkFolder(dirname(root), uid, false) ? privateFolder(dirname(root), root, uid) : inHome();
  }
  const runtime = env.XDG_RUNTIME_DIR && isAbsolute(env.XDG_RUNTIME_DIR) ? env.XDG_RUNTIME_DIR : undefined;
  const session = place.userRunDir ?? (uid === undefined ? undefined : `/run/user/${uid}`);
  const base = runtime ?? (session && isOwnFolder(session, uid) ? session : undefined);
  return base ? privateFolder(base, join(base, 'ddedge'), uid) : inHome();
}

/** Names an account (the API's URL and user) without showing it: a digest. */
const accountTag = (account: string): string => createHash('sha256').update(account).digest('hex').slice(0, 16);

/** The folder of the machine-wide lock of `zone` of `account` (lock.ts's `lock` file is in it), made and checked. */
export const machineZoneLockDir = (account: string, zone: string, place?: MachineLockPlace): string =>
  join(machineLockDir(place), 'zone-locks', `${zone}.${accountTag(account)}`);

/**
 * `lock`, taken in `dir` (a machine-wide lock's folder), whose release removes the folder too when nothing else is in
 * it: a folder for every zone of every account a machine ever applied (a test run's sandboxes made thousands) is not
 * left behind. Another process that made the folder again, or is about to take the lock in it, keeps it (the folder is
 * not empty), or makes it again (lock.ts).
 */
export function folderGoesWithLock(lock: Lock, dir: string): Lock {
  return {
    release() {
      lock.release();
      try {
        rmdirSync(dir);
      } catch {
        // Not empty (another holder, a takeover's leftovers), or gone already: left as it is.
      }
    },
  };
}
