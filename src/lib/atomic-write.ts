import { closeSync, constants, openSync, renameSync, writeSync } from 'node:fs';
import { removeFile } from './remove-file.js';

/** Names tried before giving up; each collision means someone planted a file at a random name. */
const ATTEMPTS = 8;
// O_EXCL: never open a file (or a symlink's target) that is already there, whoever put it
// there; O_NOFOLLOW: refuse a symlink even where O_EXCL is not honoured (some network file
// systems). ddedge often runs as root in a folder others may write (a metrics folder, an
// export target): a planted link at the temporary name must not redirect the write.
const CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/**
 * Replaces a file so that a reader sees the old content or the new, never a mix: write a
 * temporary file beside it (created exclusively, at a name nobody can guess), then rename it
 * over (atomic within one file system; a symlink at `path` itself is replaced, not followed).
 */
export function writeFileAtomic(path: string, content: string, mode = 0o600): void {
  const { temporary, fd } = createTemporary(path, mode);
  try {
    try {
      writeAll(fd, Buffer.from(content, 'utf8'));
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error) {
    removeFile(temporary);
    throw error;
  }
}

/**
 * `<path>.<pid>.<random>.tmp`: the pid lets a later holder of the state lock recognise a
 * killed writer's leftovers (state-dir.ts); the random part makes the name unguessable, so a
 * file planted in advance cannot even make the write fail. Math.random, not node:crypto:
 * O_EXCL already makes a guessed name harmless, and node:crypto would load 15 modules on
 * every cycle's start path; another process cannot observe this process's generator.
 */
function createTemporary(path: string, mode: number): { temporary: string; fd: number } {
  for (let attempt = 1; ; attempt++) {
    const temporary = `${path}.${process.pid}.${Math.random().toString(36).slice(2, 12)}.tmp`;
    try {
      return { temporary, fd: openSync(temporary, CREATE, mode) };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code !== 'EEXIST' && code !== 'ELOOP') || attempt >= ATTEMPTS) throw error;
    }
  }
}

/** writeSync may write less than asked (a signal); a pass that writes nothing ends the loop. */
function writeAll(fd: number, bytes: Buffer): void {
  for (let offset = 0; offset < bytes.length; ) {
    const written = writeSync(fd, bytes, offset, bytes.length - offset);
    if (written <= 0) throw Object.assign(new Error('no progress writing the file'), { code: 'EIO' });
    offset += written;
  }
}
