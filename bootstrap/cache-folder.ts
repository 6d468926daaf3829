// The user's folder for the launcher's code caches (launcher.ts), and the checks that make it
// safe to read code from and to create or remove anything in. A cache there is code this
// process runs; its path comes from the environment, which `su` and `sudo -E` keep: as root,
// XDG_CACHE_HOME may point into another user's folder, where a link of theirs would have root
// make and remove folders wherever it leads. So nothing is read, made or removed unless every
// link on the way is the user's or root's, the folder and all above it can be changed by no one
// else, and the folders ddedge makes itself are real folders of the user's, never links.
// Node's built-ins through process.getBuiltinModule, as in the launcher (no ESM facade at start),
// and only when called: the launcher refuses a Node too old to have it before it calls anything.
const fs = () => process.getBuiltinModule('node:fs');
const path = () => process.getBuiltinModule('node:path');

export interface CacheFolder {
  /** The cache home the environment names: $CACHE_DIRECTORY, $XDG_CACHE_HOME or ~/.cache. */
  base: string;
  /** The folder made for the caches of this Node and this kind of build, below base. */
  path: string;
  /** Where folders of the same kind for other Nodes are (then removed as of no more use). */
  parent: string;
  /** Names a folder of the same kind of build for another Node. */
  sameKind: RegExp;
}

/**
 * Where this Node's caches go: $CACHE_DIRECTORY (systemd's CacheDirectory=), else
 * $XDG_CACHE_HOME/ddedge or ~/.cache/ddedge, in a folder per Node version and architecture, and
 * per kind of build: the single executable carries its own Node, so it and a copy installed by
 * npm on the same machine run different Nodes, and each removed the other's folder as stale.
 */
export function cacheFolderOf(env: NodeJS.ProcessEnv, singleExecutable: boolean): CacheFolder | undefined {
  const kind = singleExecutable ? 'sea-' : '';
  const name = `${kind}${process.version}-${process.arch}`;
  const sameKind = singleExecutable ? /^sea-v\d+\.\d+\.\d+.*-\w+$/ : /^v\d+\.\d+\.\d+.*-\w+$/;
  const { isAbsolute, join } = path();
  const { CACHE_DIRECTORY, XDG_CACHE_HOME, HOME } = env;
  // systemd's CacheDirectory= (a list when it names several): a folder made for the service.
  const systemd = CACHE_DIRECTORY?.split(':')[0];
  if (systemd && isAbsolute(systemd)) return { base: systemd, path: join(systemd, name), parent: systemd, sameKind };
  const base =
    XDG_CACHE_HOME && isAbsolute(XDG_CACHE_HOME)
      ? XDG_CACHE_HOME
      : HOME && isAbsolute(HOME) && HOME !== '/'
        ? join(HOME, '.cache')
        : undefined;
  return base ? { base, path: join(base, 'ddedge', name), parent: join(base, 'ddedge'), sameKind } : undefined;
}

/**
 * True when `folder.path` can be trusted with code: it exists, and neither it nor any folder
 * above it nor any link on the way could have been changed by another user (see the top), and
 * the folders below the cache home, ddedge's own, are no links. With `create`, the folders
 * missing on the way are made first (mode 0700), each checked as it comes; nothing is made
 * below a folder that fails.
 */
export function trustedCacheFolder(folder: CacheFolder, create: boolean): boolean {
  const uid = process.geteuid?.();
  if (uid === undefined) return false;
  const { sep } = path();
  const parts = folder.path.split(sep).filter(Boolean);
  const inBase = folder.base.split(sep).filter(Boolean).length;
  let at = '';
  for (const [index, part] of parts.entries()) {
    at += sep + part;
    let stat = lstatOrNone(at);
    if (!stat && create) {
      try {
        fs().mkdirSync(at, { mode: 0o700 });
      } catch {
        // Made by another process meanwhile, or not ours to make: looked at again below.
      }
      stat = lstatOrNone(at);
    }
    if (!stat) return false;
    if (stat.isSymbolicLink()) {
      if (index >= inBase) return false;
      // systemd's folder under DynamicUser= is a link into /var/cache/private, and a user may
      // keep ~/.cache elsewhere: a link of this user's or root's is followed, to a folder that
      // must pass as any other; one of another user's is theirs to point anywhere.
      if (stat.uid !== uid && stat.uid !== 0) return false;
      let real: string;
      try {
        real = fs().realpathSync(at);
      } catch {
        return false;
      }
      if (!trustedChain(real, uid, index === parts.length - 1)) return false;
      continue;
    }
    if (!trustedOne(stat, uid, index === parts.length - 1)) return false;
  }
  return parts.length > 0;
}

/** A real folder and every folder above it pass trustedOne. */
function trustedChain(real: string, uid: number, last: boolean): boolean {
  const { dirname } = path();
  for (let at = real, first = true; ; at = dirname(at), first = false) {
    const stat = lstatOrNone(at);
    if (!stat || !trustedOne(stat, uid, last && first)) return false;
    if (at === dirname(at)) return true;
  }
}

/**
 * A folder of this user's or root's that no one else can change; above the cache folder itself,
 * one others can write passes only with the sticky bit (/tmp): then no one else can rename or
 * remove what is in it.
 */
function trustedOne(stat: import('node:fs').Stats, uid: number, isCacheFolder: boolean): boolean {
  if (!stat.isDirectory() || (stat.uid !== uid && stat.uid !== 0)) return false;
  return (stat.mode & 0o022) === 0 || (!isCacheFolder && (stat.mode & 0o1000) !== 0);
}

function lstatOrNone(at: string): import('node:fs').Stats | undefined {
  try {
    return fs().lstatSync(at);
  } catch {
    return undefined;
  }
}

/** Removes the folders of the same kind of build for other Nodes, in a parent already found trusted. */
export function removeOtherNodes(folder: CacheFolder): void {
  const own = folder.path.slice(folder.parent.length + 1);
  for (const name of fs().readdirSync(folder.parent)) {
    // rmSync removes a link itself, never what it points to.
    if (name !== own && folder.sameKind.test(name))
      fs().rmSync(path().join(folder.parent, name), { recursive: true, force: true });
  }
}
