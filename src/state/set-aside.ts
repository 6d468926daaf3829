// A state file that cannot be used is renamed to `<file>.damaged` for a person to look at,
// never read as empty and then written over: it may hold what another process (another
// gateway on the same state directory) still needs, and its loss would go unseen.
import { renameSync } from 'node:fs';

/** What became of the file: `words` for the log ("set aside as …" or "could not be set aside (CODE)"). */
export interface SetAside {
  done: boolean;
  words: string;
}

/** Renames `path` to `<path>.damaged` (replacing an older one). */
export function setAsideDamaged(path: string): SetAside {
  const aside = `${path}.damaged`;
  try {
    renameSync(path, aside);
    return { done: true, words: `set aside as ${aside}` };
  } catch (error) {
    return { done: false, words: `could not be set aside (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
}
