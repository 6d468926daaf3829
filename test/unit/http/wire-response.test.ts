// The agent's HTTP/1.1 response reader (src/http/wire-response.ts): every framing, fed whole,
// a byte at a time and in random pieces; and every answer it must refuse rather than guess.
import { describe, expect, it } from 'vitest';
import { ResponseReader, WireError, type ResponseHeaders } from '../../../src/http/wire-response.js';

interface Read {
  status?: number;
  headers?: ResponseHeaders;
  body: string;
  done: boolean;
}

/** Feeds `raw` in the given piece sizes (cycled), then the end of the connection if `close`. */
function read(raw: string | Buffer, pieces: number[] = [Infinity], close = true): Read {
  const result: Read = { body: '', done: false };
  const bytes = Buffer.isBuffer(raw) ? raw : Buffer.from(raw, 'latin1');
  const reader = new ResponseReader({
    head: (status, headers) => Object.assign(result, { status, headers }),
    body: (chunk) => (result.body += chunk.toString('latin1')),
    done: () => (result.done = true),
  });
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const size = Math.min(pieces[i % pieces.length]!, bytes.length - at);
    reader.push(bytes.subarray(at, at + size));
    at += size;
  }
  if (close) reader.end();
  return result;
}

const refusal = (raw: string | Buffer, close = true): WireError => {
  try {
    read(raw, [Infinity], close);
  } catch (error) {
    expect(error).toBeInstanceOf(WireError);
    return error as WireError;
  }
  throw new Error('the answer was accepted');
};

const ok = (body: string, headers = '') => `HTTP/1.1 200 OK\r\ncontent-length: ${body.length}\r\n${headers}\r\n${body}`;

describe('the wire response reader', () => {
  const framings: [string, string, string][] = [
    ['Content-Length', ok('81.0.2.15\n'), '81.0.2.15\n'],
    [
      'chunked, with extensions and trailers',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;name=x\r\n81.0\r\nA\r\n.2.15\nmore\r\n0\r\nx-trailer: 1\r\n\r\n',
      '81.0.2.15\nmore',
    ],
    [
      'until the connection closes (HTTP/1.0)',
      'HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\n81.0.2.15',
      '81.0.2.15',
    ],
    ['bare line feeds', 'HTTP/1.1 200 OK\ncontent-length: 3\n\nabc', 'abc'],
    [
      'a 100 Continue and a 103 before the answer',
      `HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nlink: </x>\r\n\r\n${ok('yes')}`,
      'yes',
    ],
  ];

  it.each(framings)('reads a body framed by %s, however the bytes are split', (_name, raw, body) => {
    for (const pieces of [[Infinity], [1], [2, 7, 3], [13, 1, 1, 40]]) {
      const result = read(raw, pieces);
      expect([result.status, result.body, result.done]).toEqual([200, body, true]);
    }
  });

  it('reads a head of 60 KiB that arrives a byte at a time, and the body after it', () => {
    const headers = Array.from({ length: 90 }, (_, i) => `x-h${i}: ${'v'.repeat(660)}\r\n`).join('');
    const result = read(
      `HTTP/1.1 200 OK\r\n${headers}transfer-encoding: chunked\r\n\r\n3;${'e'.repeat(4000)}\r\nabc\r\n0\r\n\r\n`,
      [1],
    );
    expect([result.status, Object.keys(result.headers!).length, result.body, result.done]).toEqual([
      200,
      91,
      'abc',
      true,
    ]);
  });

  it('gives the body bytes of one piece of the connection as one chunk, however many chunks frame them', () => {
    // 1 MiB of 1-byte chunks (6 MB on the wire) was a million body events: ~3 s and ~165 MB.
    const sizes: number[] = [];
    const reader = new ResponseReader({
      head() {},
      body: (chunk) => sizes.push(chunk.length),
      done: () => sizes.push(-1),
    });
    const body = '1\r\nx\r\n'.repeat(1000);
    reader.push(Buffer.from(`HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n${body}`));
    reader.push(Buffer.from(`${body}0\r\n\r\n`));
    expect(sizes).toEqual([1000, 1000, -1]);
  });

  it('completes a counted or chunked body before the connection closes, and ignores what follows', () => {
    expect(read(`${ok('abc')}HTTP/1.1 500 junk`, [Infinity], false)).toMatchObject({ body: 'abc', done: true });
    expect(
      read('HTTP/1.1 200 OK\r\ntransfer-encoding: Chunked\r\n\r\n1\r\nz\r\n0\r\n\r\ntrailing', [Infinity], false),
    ).toMatchObject({ body: 'z', done: true });
  });

  it.each([101, 204, 304])('gives a %i no body', (status) => {
    expect(read(`HTTP/1.1 ${status} X\r\ncontent-length: 5\r\n\r\n`, [Infinity], false)).toMatchObject({
      status,
      body: '',
      done: true,
    });
  });

  it('joins repeated headers, keeps Set-Cookie apart and lower-cases names', () => {
    const { headers } = read(ok('', 'X-A: 1\r\nx-a: 2\r\nSet-Cookie: a=1\r\nset-cookie: b=2\r\n'));
    expect(headers).toMatchObject({ 'x-a': '1, 2', 'set-cookie': ['a=1', 'b=2'], 'content-length': '0' });
  });

  it('accepts one length repeated', () => {
    expect(read('HTTP/1.1 200 OK\r\ncontent-length: 2, 2\r\ncontent-length: 2\r\n\r\nhi')).toMatchObject({
      body: 'hi',
      done: true,
    });
  });

  it.each([
    ['not HTTP at all', 'SSH-2.0-OpenSSH_9.2\r\n\r\n', /status line/],
    ['HTTP/2 in a status line', 'HTTP/2 200\r\n\r\n', /status line/],
    ['a status of two digits', 'HTTP/1.1 20 OK\r\n\r\n', /status line/],
    ['a folded header', 'HTTP/1.1 200 OK\r\nx-a: 1\r\n  continued\r\n\r\n', /name: value/],
    ['a header without a colon', 'HTTP/1.1 200 OK\r\nno colon here\r\n\r\n', /name: value/],
    ['a space before the colon', 'HTTP/1.1 200 OK\r\ncontent-length : 1\r\n\r\nx', /name: value/],
    ['a NUL in a value', 'HTTP/1.1 200 OK\r\nx-a: a\0b\r\n\r\n', /name: value/],
    ['a carriage return inside a value', 'HTTP/1.1 200 OK\r\nx-a: a\rb\r\n\r\n', /name: value/],
    [
      'Transfer-Encoding beside Content-Length',
      'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\ncontent-length: 3\r\n\r\n',
      /both/,
    ],
    [
      'a transfer coding it cannot undo',
      'HTTP/1.1 200 OK\r\ntransfer-encoding: gzip, chunked\r\n\r\n',
      /other than chunked/,
    ],
    [
      'two different lengths',
      'HTTP/1.1 200 OK\r\ncontent-length: 1\r\ncontent-length: 2\r\n\r\nxy',
      /one whole number/,
    ],
    ['a negative length', 'HTTP/1.1 200 OK\r\ncontent-length: -1\r\n\r\n', /one whole number/],
    [
      'a length beyond any memory',
      'HTTP/1.1 200 OK\r\ncontent-length: 99999999999999999999\r\n\r\n',
      /one whole number/,
    ],
    [
      'a chunk size that is not hexadecimal',
      'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n',
      /hexadecimal/,
    ],
    [
      'a chunk size of 13 hexadecimal digits',
      'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n1000000000000\r\n',
      /hexadecimal/,
    ],
    [
      'a chunk longer than its size',
      'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n1\r\nxy\r\n0\r\n\r\n',
      /longer than its size/,
    ],
    ['too many headers', `HTTP/1.1 200 OK\r\n${'x-a: 1\r\n'.repeat(101)}\r\n`, /more than 100 headers/],
    ['endless interim answers', 'HTTP/1.1 100 Continue\r\n\r\n'.repeat(9), /interim/],
  ])('refuses %s as malformed', (_name, raw, message) => {
    const error = refusal(raw);
    expect(error.kind).toBe('malformed');
    expect(error.message).toMatch(message);
  });

  it('bounds what it holds: headers, chunk lines and trailers', () => {
    expect(refusal(`HTTP/1.1 200 OK\r\nx-a: ${'a'.repeat(70_000)}`, false).message).toMatch(
      /headers are over 65536 bytes/,
    );
    expect(refusal(`HTTP/1.1 200 OK\r\nx-a: ${'a'.repeat(70_000)}\r\n\r\n`, false).message).toMatch(
      /headers are over 65536 bytes/,
    );
    expect(
      refusal(`HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n1;${'e'.repeat(5000)}`, false).message,
    ).toMatch(/chunk size line is over/);
    expect(
      refusal(`HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n0\r\n${'x-t: 1\r\n'.repeat(3000)}\r\n`, false)
        .message,
    ).toMatch(/trailers are over/);
  });

  it('never repeats the bytes of the answer in its messages', () => {
    const secretish = 'canary-5ecret-Zq81x';
    for (const raw of [
      `HTTP/1.1 200 OK\r\n${secretish}\r\n\r\n`,
      `${secretish}\r\n\r\n`,
      `HTTP/1.1 200 OK\r\ncontent-length: ${secretish}\r\n\r\n`,
    ]) {
      expect(refusal(raw).message).not.toContain(secretish);
    }
  });

  it.each([
    ['nothing at all', '', /without an answer/],
    ['half a head', 'HTTP/1.1 200 OK\r\ncontent-le', /middle of the headers/],
    ['a counted body cut short', ok('81.0.2.15').slice(0, -3), /before the whole answer/],
    [
      'a chunked body without its last chunk',
      'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n',
      /before the whole answer/,
    ],
  ])('says what is missing when the connection closes after %s', (_name, raw, message) => {
    const error = refusal(raw);
    expect(error.kind).toBe('incomplete');
    expect(error.message).toMatch(message);
  });
});
