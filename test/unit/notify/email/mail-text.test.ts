// A notification as an e-mail: nothing from outside adds a header, a text that is not ASCII is
// encoded, and every line stays under SMTP's limit.
import { describe, expect, it } from 'vitest';
import { mailText } from '../../../../src/notify/email/mail-text.js';

const at = new Date(Date.UTC(2026, 11, 2, 3, 4, 5));
const event = (host: string, message: string) => ({ event: 'changed' as const, time: at.toISOString(), host, message });

describe('a notification as an e-mail', () => {
  it('keeps a hostile host name inside the subject: no header of its own', () => {
    const text = mailText(
      event('a.example.com\r\nBcc: evil@example.net', 'x'),
      'f@example.com',
      ['t@example.com'],
      at,
      'id',
    );
    const headers = text.split('\r\n\r\n')[0]!.split('\r\n');
    expect(headers.filter((h) => /^Bcc:/i.test(h))).toEqual([]);
    expect(headers).toContain('Date: Wed, 02 Dec 2026 03:04:05 +0000');
  });

  it('encodes a subject and a body that are not ASCII, and cuts long lines below 998 characters', () => {
    const text = mailText(
      event('café.example.com', `é${'x'.repeat(3000)}`),
      'f@example.com',
      ['t@example.com'],
      at,
      'id',
    );
    expect(text).toMatch(/^Subject: =\?utf-8\?B\?[A-Za-z0-9+/=]+\?=$/m);
    expect(text).toMatch(/^Content-Transfer-Encoding: base64$/m);
    expect(text.split('\r\n').every((line) => line.length <= 998)).toBe(true);
    const body = Buffer.from(text.split('\r\n\r\n')[1]!.replace(/\r\n/g, ''), 'base64').toString('utf8');
    expect(body.replace(/\r\n/g, '')).toMatch(/^éx{999}… \(2001 more characters\)$/);
  });
});
