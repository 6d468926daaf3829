import { DdedgeError, ExitCode } from '../lib/errors.js';

/** The state could not be written (disk full, read-only): transient, and said in one line. */
export class StateSaveError extends DdedgeError {
  constructor(
    readonly dir: string,
    cause: unknown,
    consequence: string,
  ) {
    const code = (cause as NodeJS.ErrnoException)?.code ?? (cause as Error)?.message ?? String(cause);
    super(`cannot save the state in ${dir} (${code}); ${consequence}`, ExitCode.transient);
  }
}
