import { renameSync, writeFileSync } from 'node:fs';
import { removeFile } from './remove-file.js';

/**
 * Replaces a file so that a reader sees the old content or the new, never a mix: write a
 * temporary file beside it, then rename it over (atomic within one file system).
 */
export function writeFileAtomic(path: string, content: string, mode = 0o600): void {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, content, { mode });
    renameSync(temporary, path);
  } catch (error) {
    removeFile(temporary);
    throw error;
  }
}
