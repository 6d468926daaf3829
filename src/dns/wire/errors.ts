import { DdedgeError, ExitCode } from '../../lib/errors.js';

/**
 * - `timeout`: no valid answer before the deadline (answers with another ID are ignored, as spoofs);
 * - `connection`: the socket failed (refused, unreachable, reset);
 * - `malformed`: the answer could not be read or did not match the question;
 * - `lookup`: a valid answer that does not give what was needed (SERVFAIL, REFUSED…);
 * - `absent`: a valid answer that says the name is not there (NXDOMAIN, a zone without NS records): asking again
 *   at once gets the same answer, so a caller that waits for something else stops.
 * All are transient for the contract (exit 4): another try, later or elsewhere, may succeed.
 */
export type DnsErrorKind = 'timeout' | 'connection' | 'malformed' | 'lookup' | 'absent';

export class DnsError extends DdedgeError {
  constructor(
    readonly kind: DnsErrorKind,
    message: string,
    /** `host:port` of the server asked, when one was. */
    readonly server?: string,
  ) {
    super(message, ExitCode.transient);
  }
}

/** A message that breaks the wire format (thrown by the codec; the client adds the server). */
export class DnsWireError extends DnsError {
  constructor(message: string) {
    super('malformed', message);
  }
}
