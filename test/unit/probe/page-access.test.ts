// Who may see the status page: on a loopback listener, a request by a loopback name; beyond
// loopback, only the token, whoever asks; the button's POST only from the page itself.
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  bearer,
  checkAccess,
  formValue,
  hostName,
  newNonce,
  sameOrigin,
  sameSecret,
} from '../../../src/probe/page-access.js';

const request = (remoteAddress: string, headers: Record<string, string> = {}): IncomingMessage =>
  ({ socket: { remoteAddress }, headers }) as unknown as IncomingMessage;

const LOOPBACK = true;
const BEYOND = false;

describe('checkAccess', () => {
  it('on a loopback listener, lets in a request that names a loopback host, without a token', () => {
    expect(checkAccess(request('127.0.0.1', { host: '127.0.0.1:9090' }), undefined, undefined, LOOPBACK)).toEqual({
      allowed: true,
    });
    expect(
      checkAccess(request('::ffff:127.0.0.1', { host: 'localhost:9090' }), undefined, undefined, LOOPBACK),
    ).toEqual({ allowed: true });
    expect(checkAccess(request('::1', { host: '[::1]:9090' }), undefined, undefined, LOOPBACK)).toEqual({
      allowed: true,
    });
  });

  it('on a loopback listener, refuses a request by another name (a re-pointed name) without a token: 403', () => {
    const rebound = checkAccess(request('127.0.0.1', { host: 'evil.example:9090' }), undefined, undefined, LOOPBACK);
    expect(rebound).toMatchObject({ allowed: false, status: 403 });
  });

  it('beyond loopback, asks every client for the token, one on this machine (a reverse proxy) included', () => {
    for (const [from, host] of [
      ['127.0.0.1', '127.0.0.1:9090'],
      ['::1', 'localhost:9090'],
      ['192.0.2.7', '192.0.2.1:9090'],
    ] as const) {
      const asked = request(from, { host });
      expect(checkAccess(asked, undefined, 'tok-1234567890abcdef', BEYOND)).toMatchObject({
        allowed: false,
        status: 401,
      });
      expect(checkAccess(asked, 'tok-1234567890abcdef', 'tok-1234567890abcdef', BEYOND)).toEqual({
        allowed: true,
        token: 'tok-1234567890abcdef',
      });
    }
  });

  it('beyond loopback without a token configured, the page is off for everyone: 403 saying so', () => {
    const refused = checkAccess(request('127.0.0.1', { host: '127.0.0.1:9090' }), undefined, undefined, BEYOND);
    expect(refused).toMatchObject({ allowed: false, status: 403 });
    expect((refused as { message: string }).message).toMatch(/is off: .*--listen-token/);
  });

  it('lets anyone with the token in, and asks others for it: 401, never echoing it', () => {
    const remote = request('192.0.2.7', { host: 'router.lan:9090' });
    const refused = checkAccess(remote, 'tok-12345', 'tok-123456', BEYOND);
    expect(refused).toMatchObject({ allowed: false, status: 401 });
    expect(JSON.stringify(refused)).not.toContain('tok-123456');
  });
});

describe('the parts of a request', () => {
  it('reads the Host without its port, bracketed IPv6 included', () => {
    expect(hostName(request('', { host: 'localhost:9090' }))).toBe('localhost');
    expect(hostName(request('', { host: '[::1]:9090' }))).toBe('::1');
    expect(hostName(request('', {}))).toBe('');
  });

  it('reads a bearer token, and nothing else', () => {
    expect(bearer(request('', { authorization: 'Bearer abc.def' }))).toBe('abc.def');
    expect(bearer(request('', { authorization: 'bearer  abc ' }))).toBe('abc');
    expect(bearer(request('', { authorization: 'Basic abc' }))).toBeUndefined();
    expect(bearer(request('', { authorization: 'Bearer a b' }))).toBeUndefined();
  });

  it('takes a POST only from a page of this server', () => {
    expect(sameOrigin(request('', { host: '127.0.0.1:9090', origin: 'http://127.0.0.1:9090' }), false)).toBe(true);
    expect(sameOrigin(request('', { host: '127.0.0.1:9090', origin: 'http://evil.example' }), false)).toBe(false);
    expect(sameOrigin(request('', { host: '127.0.0.1:9090', origin: 'null' }), false)).toBe(false);
    expect(sameOrigin(request('', { host: '127.0.0.1:9090' }), false)).toBe(false);
    // Over TLS the page's origin is https://.
    expect(sameOrigin(request('', { host: 'h.lan:9090', origin: 'https://h.lan:9090' }), true)).toBe(true);
    expect(sameOrigin(request('', { host: 'h.lan:9090', origin: 'http://h.lan:9090' }), true)).toBe(false);
  });

  it('compares secrets whole, never an empty one', () => {
    expect(sameSecret('abc', 'abc')).toBe(true);
    expect(sameSecret('abd', 'abc')).toBe(false);
    expect(sameSecret('', '')).toBe(false);
    expect(sameSecret(undefined, 'abc')).toBe(false);
  });

  it("makes the form's value the same within a process, and a new nonce each time", () => {
    expect(formValue()).toBe(formValue());
    expect(formValue()).toMatch(/^[\w-]{43}$/);
    expect(newNonce()).not.toBe(newNonce());
  });
});
