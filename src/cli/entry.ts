import { realpathSync } from 'node:fs';

/**
 * Whether the module at `moduleFile` is the script Node was started with, under whatever name
 * it was started: `npm install -g` links bin/ddedge to it, users add a symlink called `dd` or
 * copy it. Node runs the real file behind a symlink, so the started path is compared by its
 * real path, never by its name.
 */
export function isProcessEntry(startedAs: string | undefined, moduleFile: string | undefined): boolean {
  if (!startedAs || !moduleFile) return false;
  // The common case, started by its own path, needs no file system calls.
  if (startedAs === moduleFile) return true;
  try {
    return realpathSync(startedAs) === realpathSync(moduleFile);
  } catch {
    return false;
  }
}
