// Time as a dependency: code that waits, retries, backs off, limits a rate or keeps a deadline
// takes a Clock from its caller. The program passes systemClock; a test passes a fake one and
// moves it, instead of sleeping.

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `task` once, `ms` from now; the function returned cancels it (harmless once it ran). */
  after(ms: number, task: () => void): () => void;
}

/** The machine's clock and timers (looked up at each call, so vitest's fake timers reach them too). */
export const systemClock: Clock = {
  now: () => Date.now(),
  after(ms, task) {
    const timer = setTimeout(task, ms);
    return () => clearTimeout(timer);
  },
};

/** Whole seconds since the epoch on `clock` (DNS times: TSIG, serials, the replay memory). */
export const secondsOn = (clock: Clock): number => Math.floor(clock.now() / 1000);

/** Runs `task` every `ms` on `clock` until the function returned stops it. */
export function every(clock: Clock, ms: number, task: () => void): () => void {
  let cancel = clock.after(ms, function again() {
    cancel = clock.after(ms, again);
    task();
  });
  return () => cancel();
}

/** Resolves `ms` from now on `clock`. */
export function sleepOn(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => void clock.after(ms, resolve));
}
