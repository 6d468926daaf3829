// A state that cannot be saved: transient (exit 4), one line naming the directory and the cause.
import { describe, expect, it } from 'vitest';
import { DdedgeError, ExitCode } from '../../../src/lib/errors.js';
import { StateSaveError } from '../../../src/state/state-save-error.js';

describe('StateSaveError', () => {
  it("names the directory, the system's code and what follows, and is transient", () => {
    const error = new StateSaveError(
      '/var/lib/ddedge',
      Object.assign(new Error('no space left on device, write'), { code: 'ENOSPC' }),
      'the next cycle sends again',
    );
    expect(error).toBeInstanceOf(DdedgeError);
    expect(error.message).toBe('cannot save the state in /var/lib/ddedge (ENOSPC); the next cycle sends again');
    expect(error.exitCode).toBe(ExitCode.transient);
    expect(error.dir).toBe('/var/lib/ddedge');
  });

  it("falls back to the cause's message, or the cause itself", () => {
    expect(new StateSaveError('/s', new Error('read-only'), 'x').message).toBe(
      'cannot save the state in /s (read-only); x',
    );
    expect(new StateSaveError('/s', 'gone', 'x').message).toBe('cannot save the state in /s (gone); x');
  });
});
