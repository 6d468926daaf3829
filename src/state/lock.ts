// One cycle at a time per state directory. The lock file is created with O_EXCL and its whole
// content (pid and a token unique to this holder) in one write; a reader that finds it still
// empty knows a creator is at work. A lock whose owner is gone (killed, power loss) is taken
// over, and the takeover itself is exclusive: only the process that creates the takeover
// marker for that very lock (O_EXCL again) may replace it, with an atomic rename. In a
// container every run may be pid 1, so a pid alone cannot prove ownership: the token can,
// and a lock older than any cycle can last is stale.
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  type Stats,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { removeFile } from '../lib/remove-file.js';
import { join } from 'node:path';
import { BusyError, ConfigError } from '../lib/errors.js';
import { describeFileType, notRegularFile } from '../lib/regular-file.js';
import { ensureStateDir, removeStaleTemporaries } from './state-dir.js';

/** Longer than the longest cycle: detection and three requests at the 5-minute timeout cap. */
const STALE_AFTER_MS = 30 * 60_000;
/** An empty lock this young is being written by its creator. */
const CREATING_MS = 10_000;
/** A takeover takes microseconds; a marker this old was left by a taker that was killed. */
const TAKEOVER_STALE_MS = 60_000;
/** Attempts at creating or taking over the lock before saying it is busy. */
const ATTEMPTS = 5;

const heldHere = new Set<string>();

export interface Lock {
  release(): void;
}

interface Found {
  content: string;
  identity: string;
  mtimeMs: number;
}

export function acquireLock(dir: string): Lock {
  ensureStateDir(dir);
  const path = join(dir, 'lock');
  // Unique, not secret: node:crypto stays off the cycle's start path (15 internal modules).
  const content = `${process.pid} ${Date.now().toString(36)}.${Math.random().toString(36).slice(2)}\n`;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (createExclusive(path, content)) return held(dir, path, content);
    const found = inspect(path);
    if (!found) {
      // Released meanwhile; or its folder went with it (a machine-wide lock's, machine-lock.ts): made again.
      ensureStateDir(dir);
      continue;
    }
    const owner = liveOwner(found);
    if (owner) throw new BusyError(`another ddedge cycle (${owner}) is using ${dir}; try again when it has finished`);
    if (takeOver(path, found, content)) return held(dir, path, content);
  }
  throw new BusyError(`cannot take the lock ${path}; other cycles keep taking it`);
}

function held(dir: string, path: string, content: string): Lock {
  heldHere.add(content);
  cleanLeftovers(dir);
  return {
    release() {
      if (!heldHere.delete(content)) return;
      // Only our own lock: after a takeover (a cycle that outlived STALE_AFTER_MS) it is not.
      // Releasing never fails the cycle: whatever replaced the lock is reported by the next one.
      try {
        if (inspect(path)?.content === content) removeFile(path);
      } catch {
        // not ours any more
      }
    },
  };
}

/** O_EXCL create with the whole content in one write; false when the file exists, or its folder does not. */
function createExclusive(path: string, content: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOENT') return false;
    throw new ConfigError(`--state-dir: cannot write "${path}": ${code}; set DDEDGE_STATE_DIR to a writable directory`);
  }
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** The lock as it is now, read without blocking; undefined when there is none. */
function inspect(path: string): Found | undefined {
  let stats: Stats;
  try {
    stats = lstatSync(path);
  } catch {
    return undefined;
  }
  if (!stats.isFile()) throw notRegularFile(path, stats.isSymbolicLink() ? 'a symbolic link' : describeFileType(stats));
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError(
      `cannot read the lock ${path}: ${(error as NodeJS.ErrnoException).code}; fix the state directory's permissions`,
    );
  }
  try {
    const opened = fstatSync(fd);
    const buffer = Buffer.alloc(256);
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    const content = buffer.subarray(0, length).toString('utf8');
    return { content, identity: `${opened.ino}:${content}`, mtimeMs: opened.mtimeMs };
  } finally {
    closeSync(fd);
  }
}

/** Who holds the lock, when someone does; undefined when it is stale. */
function liveOwner(found: Found): string | undefined {
  const age = Date.now() - found.mtimeMs;
  const pid = Number(found.content.trim().split(/\s+/)[0]);
  if (!found.content.trim() || !Number.isInteger(pid) || pid <= 0)
    return age < CREATING_MS ? 'one starting now' : undefined;
  if (age > STALE_AFTER_MS) return undefined;
  if (pid === process.pid) return heldHere.has(found.content) ? `pid ${pid}, this process` : undefined;
  return isAlive(pid) ? `pid ${pid}` : undefined;
}

/**
 * Replaces a stale lock, if this process is the one allowed to: the marker is named after
 * that lock's identity, so of many processes that found the same stale lock one creates it.
 */
function takeOver(path: string, stale: Found, content: string): boolean {
  // Loaded here, on the rare stale-lock path, not with every cycle.
  const digest = process.getBuiltinModule('node:crypto').createHash('sha256').update(stale.identity).digest('hex');
  const marker = `${path}.takeover.${digest.slice(0, 16)}`;
  if (!createExclusive(marker, content)) {
    const age = Date.now() - (statSync(marker, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > TAKEOVER_STALE_MS) removeFile(marker);
    return false;
  }
  try {
    // Still the lock we judged stale? Nobody else can replace it while we hold its marker.
    if (inspect(path)?.identity !== stale.identity) return false;
    const temporary = `${path}.${process.pid}.tmp`;
    createFresh(temporary, content);
    renameSync(temporary, path);
    return true;
  } finally {
    removeFile(marker);
  }
}

function createFresh(path: string, content: string): void {
  removeFile(path);
  if (!createExclusive(path, content)) throw new BusyError(`cannot create ${path}`);
}

/** Markers and temporaries of killed takers; only the holder may judge them. */
function cleanLeftovers(dir: string): void {
  removeStaleTemporaries(dir, 'lock');
  let entries: string[] = [];
  try {
    entries = readdirSync(dir).filter((e) => e.startsWith('lock.takeover.'));
  } catch {
    return;
  }
  for (const entry of entries) {
    try {
      if (Date.now() - statSync(join(dir, entry)).mtimeMs > TAKEOVER_STALE_MS) unlinkSync(join(dir, entry));
    } catch {
      // gone already
    }
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
