import { unlinkSync } from 'node:fs';

/**
 * Removes one file; one that is already gone is fine. fs.rmSync would do the same, but it
 * loads Node's recursive-removal module on the first call, on the path of every cycle.
 */
export function removeFile(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
