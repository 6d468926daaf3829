// How long reading a refusal may take: the provider chooses the message (up to the 1 MiB an
// answer may hold), and it is read on the cycle's path with the state lock held.
import { describe, expect, it } from 'vitest';
import { refusalKind } from '../../../src/dyndns/refusal.js';

describe('reading a refusal message', () => {
  it('takes time in proportion to its length, even with a long run of spaces inside', () => {
    // Trimming with /[\s.:;!,]+$/ retries at every space of the run: 150 000 spaces took ~45 s.
    const started = Date.now();
    expect(refusalKind({ success: false, messages: [`a${' '.repeat(150_000)}b`] })).toBe('refused');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('still trims the punctuation and spaces around a known credentials text', () => {
    expect(
      refusalKind({ success: false, messages: [` : Incorrect data, home.example.com.${' '.repeat(1000)}!`] }),
    ).toBe('auth');
  });
});
