// Who may see the status page: loopback asked by a loopback name, else the token; the button's
// POST only from the page itself.
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

describe('checkAccess', () => {
  it('lets loopback in when the request names a loopback host, without a token', () => {
    expect(checkAccess(request('127.0.0.1', { host: '127.0.0.1:9090' }), undefined, undefined)).toEqual({
      allowed: true,
    });
    expect(checkAccess(request('::ffff:127.0.0.1', { host: 'localhost:9090' }), undefined, undefined)).toEqual({
      allowed: true,
    });
    expect(checkAccess(request('::1', { host: '[::1]:9090' }), undefined, undefined)).toEqual({ allowed: true });
  });

  it('refuses loopback asked by another name (a re-pointed name), and others, without a token: 403', () => {
    const rebound = checkAccess(request('127.0.0.1', { host: 'evil.example:9090' }), undefined, undefined);
    expect(rebound).toMatchObject({ allowed: false, status: 403 });
    expect(checkAccess(request('192.0.2.7', { host: '192.0.2.1:9090' }), undefined, undefined)).toMatchObject({
      allowed: false,
      status: 403,
    });
  });

  it('lets anyone with the token in, and asks others for it: 401', () => {
    const remote = request('192.0.2.7', { host: 'router.lan:9090' });
    expect(checkAccess(remote, 'tok-123456', 'tok-123456')).toEqual({ allowed: true, token: 'tok-123456' });
    const refused = checkAccess(remote, 'tok-12345', 'tok-123456');
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
    expect(sameOrigin(request('', { host: '127.0.0.1:9090', origin: 'http://127.0.0.1:9090' }))).toBe(true);
    expect(sameOrigin(request('', { host: '127.0.0.1:9090', origin: 'http://evil.example' }))).toBe(false);
    expect(sameOrigin(request('', { host: '127.0.0.1:9090', origin: 'null' }))).toBe(false);
    expect(sameOrigin(request('', { host: '127.0.0.1:9090' }))).toBe(false);
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
