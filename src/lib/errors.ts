// Every failure that reaches the user is one of these. Each carries the exit code of the
// contract, so cli/ maps errors to codes in one place and nothing below it exits.

export const ExitCode = {
  ok: 0,
  internal: 1,
  usage: 2,
  auth: 3,
  transient: 4,
  partial: 5,
  addressUnknown: 6,
  refused: 7,
  /** `zone plan --expect-no-changes`: the live zone differs from the file. */
  drift: 8,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export class DdedgeError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** A bad flag, variable, file or parameter: refused before any request is sent. */
export class ConfigError extends DdedgeError {
  constructor(message: string) {
    super(message, ExitCode.usage);
  }
}

/** Client-side validation of an operation's parameters; names every offending parameter. */
export class ValidationError extends DdedgeError {
  constructor(
    readonly operation: string,
    readonly problems: string[],
  ) {
    super(`${operation}: ${problems.join('; ')}`, ExitCode.usage);
  }
}

/** Sources failed or disagreed: nothing is sent. */
export class AddressUnknownError extends DdedgeError {
  constructor(message: string) {
    super(message, ExitCode.addressUnknown);
  }
}

/** Another cycle holds the state directory's lock. */
export class BusyError extends DdedgeError {
  constructor(message: string) {
    super(message, ExitCode.transient);
  }
}

export function exitCodeOf(error: unknown): ExitCode {
  return error instanceof DdedgeError ? error.exitCode : ExitCode.internal;
}
