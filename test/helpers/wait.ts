// Waiting for an event a test cannot be told of directly (a line in a log, a request at a
// server, a page that changed): looked for again and again, with a bound that only a broken
// build reaches, and then a failure that says what never happened.
import { HANG_BOUND_MS } from './cli.js';

/** Resolves once `condition` holds; throws `never happened: what` past `boundMs`. */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  what: string,
  { boundMs = HANG_BOUND_MS, everyMs = 20 } = {},
): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`never happened within ${boundMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
