// Guessing a key's secret through the door. Nothing is slowed down: a slowed answer holds a
// connection (a crowd of guessers then fills the connection guard and locks the router out),
// and a guesser that gives up after a moment learns "wrong" from the wait anyway. Instead a
// source that has guessed wrong a handful of times in the last minute is refused at once
// (429), before its password is looked at, so a right guess and a wrong one get the same
// answer in the same time and the guess rate is what the limit says:
// - a source is an IPv4 address or an IPv6 /64 (one household or host holds a whole /64);
// - a key's right answer clears that key's wrong tries at that source, no other key's: holding
//   one key does not make guessing another free;
// - a key guessed wrong from many sources at once (more than KEY_TRIES_PER_MINUTE in a minute)
//   is refused, while that lasts, to every source that has guessed wrong lately (one guess each
//   per REMEMBER_MS), not to a source that has not: the router, which never sends a wrong
//   password, is not locked out by someone else's attack on its key, whatever address it has.
// The memory is bounded: past MAX_SOURCES the source not heard from longest is forgotten.
import { sourceOf } from '../../lib/client-source.js';

/** Wrong tries a source may make in a minute: a router with a typo retrying, a person at a keyboard. */
export const SOURCE_TRIES_PER_MINUTE = 5;
/** Wrong tries at one key, from every source, in a minute, past which sources that guessed wrong are refused for it. */
export const KEY_TRIES_PER_MINUTE = 20;
const MINUTE_MS = 60_000;
/** How long a source's wrong try is held against it while its key is being guessed. */
const REMEMBER_MS = 15 * 60_000;
const MAX_SOURCES = 10_000;
/** Wrong tries kept per source: enough to judge both limits. */
const KEPT_PER_SOURCE = 32;

interface WrongTry {
  /** The key name tried, '' for a user name that is no key. */
  key: string;
  ms: number;
}

export class GuessLimit {
  private readonly bySource = new Map<string, WrongTry[]>();
  /** The times of each key's latest wrong tries (at most KEY_TRIES_PER_MINUTE). */
  private readonly byKey = new Map<string, number[]>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Why a request from `client` naming `key` (a key of the file, or undefined) is refused before its password is looked
   * at; undefined when it is not.
   */
  refusal(client: string, key: string | undefined): string | undefined {
    const source = sourceOf(client);
    const tries = this.bySource.get(source);
    if (!tries) return undefined;
    const now = this.now();
    const lastMinute = tries.filter((t) => now - t.ms < MINUTE_MS).length;
    if (lastMinute >= SOURCE_TRIES_PER_MINUTE)
      return (
        `too many wrong passwords from ${source} ` +
        `(${lastMinute} in the last minute, at most ${SOURCE_TRIES_PER_MINUTE})`
      );
    if (key === undefined || !tries.some((t) => now - t.ms < REMEMBER_MS)) return undefined;
    const keyTries = this.byKey.get(key);
    if (keyTries && keyTries.length >= KEY_TRIES_PER_MINUTE && now - keyTries[0]! < MINUTE_MS) {
      return (
        `the key ${key} had ${keyTries.length} wrong passwords in the last minute (from many sources); ` +
        `${source} guessed wrong lately and is refused for it meanwhile`
      );
    }
    return undefined;
  }

  /** Records a wrong try from `client` at `key` (undefined: a user name that is no key). */
  failed(client: string, key: string | undefined): void {
    const source = sourceOf(client);
    const now = this.now();
    const tries = (this.bySource.get(source) ?? []).filter((t) => now - t.ms < REMEMBER_MS);
    tries.push({ key: key ?? '', ms: now });
    if (tries.length > KEPT_PER_SOURCE) tries.shift();
    // Re-inserted so that the map's order is the order of last wrong try (the first is the one to forget).
    this.bySource.delete(source);
    this.bySource.set(source, tries);
    if (this.bySource.size > MAX_SOURCES) this.bySource.delete(this.bySource.keys().next().value!);
    if (key === undefined) return;
    const keyTries = this.byKey.get(key) ?? [];
    keyTries.push(now);
    if (keyTries.length > KEY_TRIES_PER_MINUTE) keyTries.shift();
    this.byKey.set(key, keyTries);
  }

  /** A right answer for `key` from `client` clears that key's wrong tries there, and only those. */
  succeeded(client: string, key: string): void {
    const source = sourceOf(client);
    const tries = this.bySource.get(source);
    if (!tries) return;
    const left = tries.filter((t) => t.key !== key);
    if (left.length) this.bySource.set(source, left);
    else this.bySource.delete(source);
  }

  /** Sources remembered (for tests of the bound). */
  get size(): number {
    return this.bySource.size;
  }
}
