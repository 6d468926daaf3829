// A notification URL is a secret, and so is each part of it that looks like a token; a plain
// word in its path is not masked wherever it appears: a trial's `…/hook` and `…/server` URLs
// turned "the server failed" into "the *** failed" in every message, in the history too.
import { describe, expect, it } from 'vitest';
import { looksLikeToken, parseNotifyTarget } from '../../../src/notify/target.js';
import { redact } from '../../../src/lib/redact.js';

describe('the secrets of a notification URL', () => {
  it('masks the whole URL and its token-like parts, never a plain word of its path', () => {
    parseNotifyTarget('ntfy+http://127.0.0.1:8080/server', '--notify');
    parseNotifyTarget('http://127.0.0.1:9/hook?priority=high', '--notify');
    expect(redact('the server failed; a temporary failure')).toBe('the server failed; a temporary failure');
    expect(redact('notification to webhook at 127.0.0.1:9')).toBe('notification to webhook at 127.0.0.1:9');
    expect(redact('posting to http://127.0.0.1:9/hook?priority=high')).not.toContain('/hook');

    parseNotifyTarget('https://hooks.slack.example/services/T0123ABCD/B0123ABCD/q7Xk2vLp9RtZ8mNw4sYb', '--notify');
    parseNotifyTarget('gotify://push.example/message?token=AbcD3', '--notify');
    for (const token of ['T0123ABCD', 'B0123ABCD', 'q7Xk2vLp9RtZ8mNw4sYb', 'AbcD3'])
      expect(redact(`x ${token} y`)).toBe('x *** y');
  });

  it('tells a token from a word', () => {
    expect(['hook', 'server', 'ddedge', 'alerts', 'messages'].map(looksLikeToken)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(['T0123ABCD', 'aVeryLongTopicNameHere', 'bot123456:ABCdef'].map(looksLikeToken)).toEqual([true, true, true]);
  });
});
