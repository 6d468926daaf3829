// When the daemon runs its next cycle. Kept pure so the policy is tested without waiting.

/** First retry after a transient failure; doubles each time, never beyond the interval. */
export const BACKOFF_BASE_MS = 15_000;
const JITTER = 0.1;

/**
 * The wait before the next cycle: the interval with ±10% jitter (so a fleet of routers does
 * not call the provider in step), or a capped exponential backoff after transient failures.
 */
export function nextDelay(intervalMs: number, consecutiveFailures: number, random: () => number = Math.random): number {
  const base =
    consecutiveFailures > 0 ? Math.min(intervalMs, BACKOFF_BASE_MS * 2 ** (consecutiveFailures - 1)) : intervalMs;
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}
