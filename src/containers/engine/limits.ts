// The bounds of a watch: what the engine may make ddedge hold, and how it waits to reconnect.
// Every read from the engine is bounded by one of these; a caller may narrow them (the tests do).

export interface EngineLimits {
  /** Deadline of one request, and of an events stream's head (the stream itself has none: it may be quiet for days). */
  readonly requestTimeoutMs: number;
  /** Longest line of the events stream; a longer one is skipped with a warning. */
  readonly maxLineBytes: number;
  /** Largest listing of the running containers, in bytes. */
  readonly maxListBytes: number;
  /** Running containers read from one listing; the rest are left out with a warning. */
  readonly maxContainers: number;
  /** Labels kept per container. */
  readonly maxLabels: number;
  /** Characters of one label, key and value together. */
  readonly maxLabelChars: number;
  /** Events read but not yet handled (while a listing or a look-up is in flight); past it, reconnect. */
  readonly maxQueued: number;
  /** The same, in characters of those events. */
  readonly maxQueuedChars: number;
  /** Warnings about the engine's output per connection; the rest go to debug. */
  readonly maxWarnings: number;
  /** The first wait before connecting again; each failure doubles it up to maxRetryMs. */
  readonly firstRetryMs: number;
  readonly maxRetryMs: number;
  /** A connection that lasted this long was a success: the next wait is the first one again. */
  readonly stableMs: number;
}

export const DEFAULT_ENGINE_LIMITS: EngineLimits = {
  requestTimeoutMs: 10_000,
  maxLineBytes: 64 * 1024,
  maxListBytes: 8 * 1024 * 1024,
  maxContainers: 1000,
  maxLabels: 256,
  maxLabelChars: 4096,
  maxQueued: 10_000,
  maxQueuedChars: 4 * 1024 * 1024,
  maxWarnings: 20,
  firstRetryMs: 1000,
  maxRetryMs: 60_000,
  stableMs: 30_000,
};
