// A hostile server may echo a secret transformed (Base64 of the key, of
// `user:key` as in a Basic authorization, Base64url, hex). Each is masked wherever it sits,
// whatever user name precedes it; ordinary text is left alone.
import { describe, expect, it } from 'vitest';
import { redact, registerSecret } from '../../../src/lib/redact.js';

const KEY = 'CANARY-SEC-k3y9Q';
/** Its Base64 holds + and /, which a query string percent-encodes. */
const SLASHY = 'CANARY?>>~~k3y9';
registerSecret(KEY);
registerSecret(SLASHY);

const b64 = (text: string) => Buffer.from(text).toString('base64');
const b64url = (text: string) => Buffer.from(text).toString('base64url');
const hex = (text: string) => Buffer.from(text).toString('hex');

describe('redact: secrets in transformed forms', () => {
  it.each([
    ['Base64', b64(KEY)],
    ['Base64 without padding', b64(KEY).replace(/=+$/, '')],
    ['Base64url', b64url(KEY)],
    ['hex, lower case', hex(KEY)],
    ['hex, upper case', hex(KEY).toUpperCase()],
    ['Base64 of u:key', b64(`u:${KEY}`)],
    ['Base64 of user:key', b64(`user:${KEY}`)],
    ['Base64 of a-longer-user:key', b64(`a-longer-user:${KEY}`)],
    ['Base64url of user:key', b64url(`user:${KEY}`)],
    ['Base64 of key followed by more', b64(`${KEY}:and more`)],
  ])('masks %s as a whole token', (_name, form) => {
    expect(redact(`before ${form} after`)).toBe('before *** after');
    expect(redact(`{"auth":"Basic ${form}"}`)).toBe('{"auth":"Basic ***"}');
  });

  it('masks a Base64 form with + and / that was then percent-encoded (a query string)', () => {
    const form = b64(`u:${SLASHY}`);
    expect(form).toMatch(/[+/]/);
    for (const encoded of [
      encodeURIComponent(form),
      encodeURIComponent(form).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
    ]) {
      expect(redact(`?auth=${encoded}&x=1`)).toBe('?auth=***&x=1');
    }
  });

  it('leaves ordinary text, other Base64 and other hex alone', () => {
    for (const text of [
      b64('another secret entirely'),
      hex('another secret entirely'),
      'home.example.com A 81.0.2.15 updated',
      'aGVsbG8gd29ybGQ=',
    ]) {
      expect(redact(`x ${text} y`)).toBe(`x ${text} y`);
    }
  });
});
