import { DdedgeError, ExitCode } from '../lib/errors.js';

export type TransportErrorKind = 'timeout' | 'connection' | 'tls' | 'too-large' | 'status' | 'malformed';

/**
 * A request that did not produce a usable answer. Never shares the provider's numeric error
 * space; `url` is already redacted, so the error can be logged as it is.
 */
export class TransportError extends DdedgeError {
  constructor(
    readonly kind: TransportErrorKind,
    message: string,
    readonly url: string,
    readonly status?: number,
  ) {
    super(message, exitCodeFor(kind, status));
  }
}

function exitCodeFor(kind: TransportErrorKind, status?: number): ExitCode {
  if (kind !== 'status' || status === undefined) return ExitCode.transient;
  if (status === 401 || status === 403) return ExitCode.auth;
  // 1xx and 3xx were not asked for (no upgrade, redirects not followed): nothing was refused.
  if (status >= 500 || status < 200 || (status >= 300 && status < 400) || status === 408 || status === 429)
    return ExitCode.transient;
  return ExitCode.refused;
}
