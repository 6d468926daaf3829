// One cycle at a time per state directory. The lock file holds the owner's pid; a lock
// whose owner is gone (killed, power loss) is taken over rather than blocking forever. In a
// container every run may be pid 1, so a pid alone cannot prove ownership: this process
// remembers the locks it holds, and a lock older than any cycle can last is stale.

/** Longer than the longest cycle: detection and three requests at the 5-minute timeout cap. */
const STALE_AFTER_MS = 30 * 60_000;
const heldHere = new Set<string>();
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { BusyError, ConfigError } from '../errors.js';

export interface Lock {
  release(): void;
}

export function acquireLock(dir: string): Lock {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new ConfigError(`--state-dir: cannot create "${dir}": ${(error as NodeJS.ErrnoException).code}; set DDEDGE_STATE_DIR to a writable directory`);
  }
  const path = join(dir, 'lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      heldHere.add(path);
      return {
        release() {
          if (!heldHere.delete(path)) return;
          rmSync(path, { force: true });
        },
      };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw new ConfigError(`--state-dir: cannot write "${path}": ${code}; set DDEDGE_STATE_DIR to a writable directory`);
      const owner = Number(safeRead(path));
      const ours = owner === process.pid;
      if (owner && (ours ? heldHere.has(path) : isAlive(owner) && !isOld(path))) {
        throw new BusyError(`another ddedge cycle (pid ${owner}) is using ${dir}; try again when it has finished`);
      }
      rmSync(path, { force: true });
    }
  }
  throw new BusyError(`cannot take the lock ${path}; another cycle keeps taking it`);
}

function isOld(path: string): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs > STALE_AFTER_MS;
  } catch {
    return true;
  }
}

function safeRead(path: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return '';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
