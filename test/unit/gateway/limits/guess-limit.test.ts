// The dyndns2 door's limit on guessing a key's secret, on a clock the test moves: a source
// (an IPv4 address, an IPv6 /64) past SOURCE_TRIES_PER_MINUTE wrong tries in a minute is
// refused until the minute has passed; a right answer clears that key's wrong tries there
// only; a key guessed from many sources is refused to the sources that guessed wrong lately.
import { describe, expect, it } from 'vitest';
import {
  GuessLimit,
  KEY_TRIES_PER_MINUTE,
  SOURCE_TRIES_PER_MINUTE,
} from '../../../../src/gateway/limits/guess-limit.js';
import { sourceOf } from '../../../../src/lib/client-source.js';

function limit() {
  let now = 1_700_000_000_000;
  return {
    guesses: new GuessLimit(() => now),
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('GuessLimit', () => {
  it('refuses a source past its wrong tries in a minute, and lets it in again a minute after', () => {
    const { guesses, advance } = limit();
    for (let i = 0; i < SOURCE_TRIES_PER_MINUTE - 1; i++) guesses.failed('192.0.2.7', 'router');
    expect(guesses.refusal('192.0.2.7', 'router')).toBeUndefined();
    guesses.failed('192.0.2.7', 'router');
    expect(guesses.refusal('192.0.2.7', 'router')).toBe(
      `too many wrong passwords from 192.0.2.7 (${SOURCE_TRIES_PER_MINUTE} in the last minute, at most ${SOURCE_TRIES_PER_MINUTE})`,
    );
    expect(guesses.refusal('192.0.2.8', 'router')).toBeUndefined();
    advance(60_000 - 1);
    expect(guesses.refusal('192.0.2.7', 'router')).toBeDefined();
    advance(1);
    expect(guesses.refusal('192.0.2.7', 'router')).toBeUndefined();
  });

  it('takes an IPv6 /64 as one source, and an IPv4-mapped address as its IPv4 address', () => {
    expect(sourceOf('2001:db8:1:2::5')).toBe(sourceOf('2001:db8:1:2:ffff::9'));
    expect(sourceOf('2001:db8:1:2::5')).not.toBe(sourceOf('2001:db8:1:3::5'));
    expect(sourceOf('::ffff:192.0.2.1')).toBe('192.0.2.1');
    const { guesses } = limit();
    for (let i = 0; i < SOURCE_TRIES_PER_MINUTE; i++) guesses.failed(`2001:db8:1:2::${i + 1}`, undefined);
    expect(guesses.refusal('2001:db8:1:2::99', 'router')).toMatch(/too many wrong passwords/);
  });

  it("clears a key's wrong tries at a source on its right answer, not another key's", () => {
    const { guesses } = limit();
    for (let i = 0; i < SOURCE_TRIES_PER_MINUTE - 1; i++) guesses.failed('192.0.2.7', 'router');
    guesses.failed('192.0.2.7', 'other');
    guesses.succeeded('192.0.2.7', 'router');
    expect(guesses.refusal('192.0.2.7', 'router')).toBeUndefined();
    guesses.succeeded('192.0.2.7', 'other');
    expect(guesses.size).toBe(0);
  });

  it('refuses a key guessed from many sources to those that guessed wrong lately, not to others; a minute later no more', () => {
    const { guesses, advance } = limit();
    for (let i = 0; i < KEY_TRIES_PER_MINUTE; i++) guesses.failed(`198.51.100.${i + 1}`, 'router');
    expect(guesses.refusal('198.51.100.1', 'router')).toMatch(
      /the key router had 20 wrong passwords in the last minute/,
    );
    expect(guesses.refusal('198.51.100.1', 'other')).toBeUndefined();
    expect(guesses.refusal('192.0.2.200', 'router')).toBeUndefined();
    advance(60_000);
    expect(guesses.refusal('198.51.100.1', 'router')).toBeUndefined();
  });

  it("holds a source's wrong try against it for 15 minutes while its key is guessed", () => {
    const { guesses, advance } = limit();
    guesses.failed('192.0.2.9', 'router');
    advance(15 * 60_000 - 60_000);
    for (let i = 0; i < KEY_TRIES_PER_MINUTE; i++) guesses.failed(`198.51.100.${i + 1}`, 'router');
    expect(guesses.refusal('192.0.2.9', 'router')).toMatch(/guessed wrong lately/);
    advance(60_000 - 1);
    for (let i = 0; i < KEY_TRIES_PER_MINUTE; i++) guesses.failed(`203.0.113.${i + 1}`, 'router');
    advance(1);
    expect(guesses.refusal('192.0.2.9', 'router')).toBeUndefined();
  });
});
