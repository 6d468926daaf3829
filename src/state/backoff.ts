// Per-record backoff: a provider that refuses a record (a host not in the zone, rejected
// credentials) is not asked again every cycle. The wait doubles with each refusal, up to a
// day, and starts over when the configuration that matters for the record changes.
import { ExitCode } from '../lib/errors.js';

export interface RecordBackoff {
  /** Refusals in a row under the same configuration. */
  failures: number;
  /** No request for this record before this time (ISO 8601). */
  until: string;
  /** The exit code of the refusal, so a cycle that skips the record still reports it. */
  exitCode: number;
  /** A digest of the configuration the refusals happened under (never the secrets themselves). */
  config: string;
}

const FIRST_BACKOFF_MS = 5 * 60_000;
export const MAX_BACKOFF_MS = 24 * 3_600_000;

/** Refusals that a later identical request would meet again; transient failures are not. */
export const isRefusal = (exitCode: number): boolean => exitCode === ExitCode.refused || exitCode === ExitCode.auth;

export function backoffDelayMs(failures: number): number {
  return Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.min(Math.max(failures - 1, 0), 20));
}

/** The backoff after one more refusal; the count starts over when the configuration changed. */
export function nextBackoff(
  previous: RecordBackoff | undefined,
  config: string,
  exitCode: number,
  now: Date,
): RecordBackoff {
  const failures = previous && previous.config === config ? previous.failures + 1 : 1;
  return { failures, until: new Date(now.getTime() + backoffDelayMs(failures)).toISOString(), exitCode, config };
}

/** The backoff that holds the record back now, if any. */
export function activeBackoff(
  backoff: RecordBackoff | undefined,
  config: string,
  now: Date,
): RecordBackoff | undefined {
  if (!backoff || backoff.config !== config) return undefined;
  const until = Date.parse(backoff.until);
  // A time further ahead than the longest backoff is not ours (a clock set back): ignore it.
  if (!(until > now.getTime()) || until - now.getTime() > MAX_BACKOFF_MS) return undefined;
  return backoff;
}
