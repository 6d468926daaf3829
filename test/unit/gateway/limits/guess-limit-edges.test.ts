// The edges of the guess limit (guess-limit.ts): the wrong tries kept per source, a source's
// old wrong try beside a recent one, a right answer from a source never wrong, and a client
// address that is no address.
import { describe, expect, it } from 'vitest';
import { GuessLimit, KEY_TRIES_PER_MINUTE } from '../../../../src/gateway/limits/guess-limit.js';
import { sourceOf } from '../../../../src/lib/client-source.js';

describe('the guess limit at its edges', () => {
  it('keeps at most 32 wrong tries of a source, and says so', () => {
    const guesses = new GuessLimit(() => 0);
    for (let i = 0; i < 40; i++) guesses.failed('192.0.2.7', undefined);
    expect(guesses.refusal('192.0.2.7', undefined)).toBe(
      'too many wrong passwords from 192.0.2.7 (32 in the last minute, at most 5)',
    );
  });

  it('holds a source to its key while any of its wrong tries is recent, an older one beside it', () => {
    let now = 0;
    const guesses = new GuessLimit(() => now);
    guesses.failed('192.0.2.9', 'router');
    now += 10 * 60_000;
    guesses.failed('192.0.2.9', 'router');
    now += 6 * 60_000;
    for (let i = 0; i < KEY_TRIES_PER_MINUTE; i++) guesses.failed(`198.51.100.${i + 1}`, 'router');
    expect(guesses.refusal('192.0.2.9', 'router')).toMatch(/192\.0\.2\.9 guessed wrong lately/);
  });

  it('a right answer from a source never wrong changes nothing', () => {
    const guesses = new GuessLimit(() => 0);
    guesses.succeeded('192.0.2.1', 'router');
    expect(guesses.size).toBe(0);
  });

  it('takes a client that is no address as it is', () => {
    expect(sourceOf('not:an:address')).toBe('not:an:address');
  });
});
