import { describe, expect, it } from 'vitest';
import { changeText } from '../../../../src/gateway/status/change-text.js';

describe('a journal change as the page says it', () => {
  it('puts the value first and the TTL after it, in words', () => {
    expect(changeText({ action: 'create', name: '_acme-challenge.example.com', type: 'TXT', after: '60 token' })).toBe(
      'create _acme-challenge.example.com TXT token (TTL 60)',
    );
    expect(changeText({ action: 'delete', name: 'www.example.com', type: 'A', before: '300 192.0.2.1' })).toBe(
      'delete www.example.com A 192.0.2.1 (TTL 300)',
    );
  });

  it('shows an update as old → new, and a TTL only where the provider does not choose it', () => {
    expect(
      changeText({
        action: 'update',
        name: 'home.example.com',
        type: 'A',
        before: '- 192.0.2.1',
        after: '- 192.0.2.2',
      }),
    ).toBe('update home.example.com A 192.0.2.1 → 192.0.2.2');
    expect(
      changeText({ action: 'update', name: 'h.example.com', type: 'A', before: '- 192.0.2.1', after: '60 192.0.2.1' }),
    ).toBe("update h.example.com A 192.0.2.1 (TTL the provider's default → 60)");
  });

  it('keeps a priority with its value, and a value with spaces whole', () => {
    expect(changeText({ action: 'create', name: 'example.com', type: 'MX', after: '3600 10 mail.example.com' })).toBe(
      'create example.com MX 10 mail.example.com (TTL 3600)',
    );
    expect(changeText({ action: 'create', name: 't.example.com', type: 'TXT', after: '- "a b" "c"' })).toBe(
      'create t.example.com TXT "a b" "c"',
    );
  });

  it('reads a side without a TTL (a damaged line) as a value', () => {
    expect(changeText({ action: 'create', name: 'x.example.com', type: 'TXT', after: 'lonely' })).toBe(
      'create x.example.com TXT lonely',
    );
  });
});
