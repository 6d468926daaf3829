// The state directory: created step by step (Node's recursive mkdir loops forever on paths
// such as /proc/ddedge, where mkdir answers ENOENT), and kept clean of temporary files that
// a killed writer left behind.
import { mkdirSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ConfigError } from '../lib/errors.js';

/** Deeper than any real path; bounds the walk up to an existing ancestor. */
const MAX_DEPTH = 256;

const cannotCreate = (dir: string, why: string) =>
  new ConfigError(`--state-dir: cannot create "${dir}": ${why}; set DDEDGE_STATE_DIR to a writable directory`);

/** Creates the directory (0700) and its missing parents, or throws ConfigError at once. */
export function ensureStateDir(dir: string): void {
  const missing: string[] = [];
  let current = resolve(dir);
  for (let depth = 0; ; depth++) {
    if (depth > MAX_DEPTH) throw cannotCreate(dir, 'the path is too deep');
    try {
      if (!statSync(current).isDirectory()) throw cannotCreate(dir, `${current} is not a directory (ENOTDIR)`);
      break;
    } catch (error) {
      if (error instanceof ConfigError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') throw cannotCreate(dir, code ?? String(error));
    }
    missing.push(current);
    const parent = dirname(current);
    if (parent === current) throw cannotCreate(dir, 'no existing parent directory');
    current = parent;
  }
  for (const path of missing.reverse()) {
    try {
      mkdirSync(path, { mode: 0o700 });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' && statSync(path, { throwIfNoEntry: false })?.isDirectory()) continue;
      throw cannotCreate(dir, code ?? String(error));
    }
  }
}

/**
 * Removes `<name>.<pid>.tmp` and `<name>.<pid>.<random>.tmp` files (atomic-write.ts): only the
 * holder of the lock writes the state, and it writes synchronously, so while we hold the lock
 * any such file is left over from a writer that was killed, even one with our own pid (a
 * container restarted as the same pid; its random name is never reused).
 */
export function removeStaleTemporaries(dir: string, name: string): string[] {
  const pattern = new RegExp(`^${name.replace(/\./g, '\\.')}\\.(\\d+)(?:\\.[a-z0-9]+)?\\.tmp$`);
  const removed: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return removed;
  }
  for (const entry of entries) {
    const match = pattern.exec(entry);
    if (!match) continue;
    try {
      unlinkSync(resolve(dir, entry));
      removed.push(entry);
    } catch {
      // A directory of that name, or already gone: not ours to fight over.
    }
  }
  return removed;
}

/**
 * A warning for each of `dirs` that its group or others may write: whoever can write there can
 * put a FIFO, a link or a forged file in place of the state (the gateway's DHCID records, quotas
 * and serials among it). Said, not refused: a shared group directory may be meant. Missing
 * directories are no warning (they are made 0700).
 */
export function othersMayWrite(dirs: string[]): string[] {
  const warnings: string[] = [];
  for (const dir of dirs) {
    const stats = statSync(dir, { throwIfNoEntry: false });
    if (!stats?.isDirectory() || (stats.mode & 0o022) === 0) continue;
    const mode = (stats.mode & 0o7777).toString(8).padStart(4, '0');
    warnings.push(
      `the state directory ${dir} may be written by ${stats.mode & 0o002 ? 'anyone' : 'its group'} (mode ${mode}): ` +
        `they can replace the files kept there; chmod go-w ${dir}`,
    );
  }
  return warnings;
}
