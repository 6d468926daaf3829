// The agent's HTTP/1.1 client on real sockets (src/http/wire-transport.ts), through the
// policy layer as the agent uses it: what it sends, the framings it reads, and the answers
// it refuses. TLS verification and statuses are in http.test.ts; SNI in e2e/tls-and-logs.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { TransportError } from '../../../src/http/errors.js';
import { httpRequest } from '../../../src/http/request.js';
import { wireTransport } from '../../../src/http/wire-transport.js';
import { startRawServer, type RawServer } from '../../helpers/raw-server.js';

let servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});
const raw = async (answer: (head: string) => string): Promise<RawServer> => {
  const server = await startRawServer(answer);
  servers.push(server);
  return server;
};
const failure = async (promise: Promise<unknown>): Promise<TransportError> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TransportError);
  return error as TransportError;
};

/** A server that writes `parts` with a pause between them, then closes (or not). */
async function paced(parts: (string | Buffer)[], { close = true, gapMs = 20 } = {}): Promise<string> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.once('data', async () => {
      for (const part of parts) {
        if (socket.destroyed) return;
        socket.write(part);
        await new Promise((resolve) => setTimeout(resolve, gapMs));
      }
      if (close) socket.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push({
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

describe('the wire transport', () => {
  it('sends one well-formed request: method, path and query, Host, Connection: close, headers, body', async () => {
    const server = await raw(() => 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok');
    const url = server.url.replace(/\/$/, '/json/?user=u&v=a%20b');
    const response = await httpRequest({
      url,
      method: 'POST',
      body: 'a=1&b=é',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      timeoutMs: 2000,
    });
    expect(response.body).toBe('ok');
    const [head] = server.requests;
    const lines = head!.split('\r\n');
    expect(lines[0]).toBe('POST /json/?user=u&v=a%20b HTTP/1.1');
    expect(lines).toContain(`host: ${new URL(server.url).host}`);
    expect(lines).toContain('connection: close');
    expect(lines).toContain('content-type: application/x-www-form-urlencoded');
    expect(lines).toContain(`content-length: ${Buffer.byteLength('a=1&b=é')}`);
    expect(lines.some((l) => /^user-agent: ddedge\//.test(l))).toBe(true);
  });

  it('sends the credentials of a URL (https://user:pass@host/) as Basic authorization, as node:https did', async () => {
    const server = await raw(() => 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok');
    const url = server.url.replace('http://', 'http://us%20er:p%40ss%3Aword@');
    expect((await httpRequest({ url, timeoutMs: 2000 })).body).toBe('ok');
    const [head] = server.requests;
    expect(head!.split('\r\n')).toContain(`authorization: Basic ${Buffer.from('us er:p@ss:word').toString('base64')}`);
    expect(head).not.toContain('p%40ss');
  });

  it('reads a chunked answer that arrives in pieces', async () => {
    const url = await paced(
      ['HTTP/1.1 200 OK\r\nTransfer-', 'Encoding: chunked\r\n\r\n5\r\n81.0.', '\r\n4\r\n2.15\r\n0', '\r\n\r\n'],
      { close: false },
    );
    expect((await httpRequest({ url, timeoutMs: 2000 })).body).toBe('81.0.2.15');
  });

  it('reads an answer delimited by the close of the connection', async () => {
    const url = await paced(['HTTP/1.0 200 OK\r\n\r\n81.0', '.2.15']);
    expect((await httpRequest({ url, timeoutMs: 2000 })).body).toBe('81.0.2.15');
  });

  it('reads a large answer whole while the reader lags behind the socket', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 'a');
    const url = await paced([`HTTP/1.1 200 OK\r\ncontent-length: ${big.length}\r\n\r\n`, big]);
    const response = await httpRequest({ url, timeoutMs: 5000, maxBytes: 4 * 1024 * 1024 });
    expect(response.body.length).toBe(big.length);
  });

  it.each([
    [
      'Transfer-Encoding beside Content-Length (a smuggling sign)',
      'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\ncontent-length: 9\r\n\r\n81.0.2.15',
    ],
    ['two different lengths', 'HTTP/1.1 200 OK\r\ncontent-length: 9\r\ncontent-length: 3\r\n\r\n81.0.2.15'],
    ['no HTTP at all', '81.0.2.15\n'],
  ])('refuses %s as malformed (exit 4), naming the URL and not the bytes', async (_name, answer) => {
    const server = await raw(() => answer);
    const error = await failure(httpRequest({ url: server.url, timeoutMs: 2000 }));
    expect([error.kind, error.exitCode]).toEqual(['malformed', 4]);
    expect(error.message).toMatch(/^the answer from http:\/\/127\.0\.0\.1:\d+\/ is not valid HTTP\/1\.1: /);
    expect(error.message).not.toContain('81.0.2.15');
  });

  it('says the connection closed when the body is cut short', async () => {
    const server = await raw(() => 'HTTP/1.1 200 OK\r\ncontent-length: 9\r\n\r\n81.0');
    const error = await failure(httpRequest({ url: server.url, timeoutMs: 2000 }));
    expect([error.kind, error.exitCode]).toEqual(['connection', 4]);
    expect(error.message).toMatch(/closed before the whole answer arrived/);
  });

  it('says the connection closed when the server hangs up without an answer', async () => {
    const server = await raw(() => '');
    expect((await failure(httpRequest({ url: server.url, timeoutMs: 2000 }))).message).toMatch(
      /closed without an answer/,
    );
  });

  it('refuses a header value that would split the request, sends nothing and never shows the value', async () => {
    const server = await raw(() => 'HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n');
    const sent = wireTransport.send({
      url: new URL(server.url),
      method: 'GET',
      headers: { 'x-key': 'canary\r\nx-injected: 1' },
      signal: new AbortController().signal,
    });
    const error = await sent.then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/x-key holds a line break/);
    expect(error?.message).not.toContain('canary');
    expect(server.requests).toEqual([]);
  });

  it('stops at once when aborted, before or during the exchange', async () => {
    const url = await paced(['HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\nabc'], { close: false, gapMs: 5000 });
    const before = new AbortController();
    before.abort();
    await expect(
      wireTransport.send({ url: new URL(url), method: 'GET', headers: {}, signal: before.signal }),
    ).rejects.toThrow(/aborted/);
    const during = new AbortController();
    const response = await wireTransport.send({ url: new URL(url), method: 'GET', headers: {}, signal: during.signal });
    const reading = (async () => {
      for await (const _chunk of response.body);
    })();
    during.abort();
    await expect(reading).rejects.toThrow(/aborted/);
  });

  // allowHalfOpen on the server: its socket stays until the client closes its side too.
  it.each([
    [
      'keeps open after the answer',
      false,
      (socket: net.Socket) => socket.write('HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\nok'),
    ],
    [
      'half-closed after the answer',
      true,
      (socket: net.Socket) => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok'),
    ],
  ] as const)(
    'closes its side of a connection the server %s, soon after (no socket is leaked by a daemon)',
    async (_case, allowHalfOpen, answer) => {
      let closed: (() => void) | undefined;
      const serverSawClose = new Promise<void>((resolve) => (closed = resolve));
      const server = net.createServer({ allowHalfOpen }, (socket) => {
        socket.on('error', () => {});
        socket.on('close', () => closed?.());
        socket.once('data', () => answer(socket));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      servers.push({ close: () => new Promise((resolve) => server.close(() => resolve())) });
      const response = await httpRequest({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
        timeoutMs: 2000,
      });
      expect(response.body).toBe('ok');
      const started = Date.now();
      await serverSawClose;
      expect(Date.now() - started).toBeLessThan(4000);
    },
  );

  it('reads a head built to make a header pattern backtrack (spaces inside values) within its deadline', async () => {
    // A value of "a", 60 000 spaces, "b" is valid; a pattern that trims the value's spaces by
    // backtracking costs the square of its length, synchronously: the deadline cannot fire.
    const head = `x-pad: a${' '.repeat(60_000)}b\r\n`;
    const answer =
      `HTTP/1.1 100 Continue\r\n${head}\r\n`.repeat(2) + `HTTP/1.1 200 OK\r\n${head}content-length: 2\r\n\r\nok`;
    const server = await raw(() => answer);
    const started = Date.now();
    const response = await httpRequest({ url: server.url, timeoutMs: 2000 });
    expect(Date.now() - started).toBeLessThan(6000);
    expect([response.body, response.headers['x-pad']]).toEqual(['ok', `a${' '.repeat(60_000)}b`]);
  });

  it('talks to a bracketed IPv6 literal', async (context) => {
    const server = net.createServer((socket) =>
      socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nv6')),
    );
    const listening = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(0, '::1', () => resolve(true));
    });
    if (!listening) return context.skip();
    servers.push({ close: () => new Promise((resolve) => server.close(() => resolve())) });
    const response = await httpRequest({
      url: `http://[::1]:${(server.address() as AddressInfo).port}/`,
      timeoutMs: 2000,
    });
    expect(response.body).toBe('v6');
  });
});
