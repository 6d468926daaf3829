// How a daemon stops: the first SIGTERM/SIGINT lets the requests in flight finish but starts
// no new one (no API fallback, no next host); a second one aborts the requests in flight.
import { DdedgeError, ExitCode } from '../lib/errors.js';

export class Shutdown {
  private readonly controller = new AbortController();
  private requested = false;

  /** True once a stop was asked for: nothing new may start. */
  get stopping(): boolean {
    return this.requested;
  }

  /** Aborted on the second request: requests in flight give up at once. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Returns true when this request aborted the work in flight (the second one). */
  request(): boolean {
    if (!this.requested) {
      this.requested = true;
      return false;
    }
    if (!this.controller.signal.aborted) this.controller.abort();
    return true;
  }
}

/** A request not made, or given up, because ddedge is stopping. */
export class StoppingError extends DdedgeError {
  constructor(message: string) {
    super(message, ExitCode.transient);
  }
}
