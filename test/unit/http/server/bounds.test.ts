// The bounds every ddedge HTTP server keeps (bounds.ts), given its limits: Node's header size
// and deadlines, a bad request answered and closed, a silent connection cut, a bounded number of
// requests per connection. Real servers on 127.0.0.1, raw sockets, every wait for an event.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { boundConnections, serverOptions } from '../../../../src/http/server/bounds.js';
import { DOOR_LIMITS, type HttpServerLimits } from '../../../../src/http/server/server-limits.js';
import { closeHttp } from '../../../../src/http/server/listen.js';

const servers: http.Server[] = [];
const sockets: net.Socket[] = [];
afterEach(async () => {
  sockets.splice(0).forEach((s) => {
    s.destroy();
  });
  await Promise.all(servers.splice(0).map(closeHttp));
});

const limits = (changes: Partial<HttpServerLimits>): HttpServerLimits => ({ ...DOOR_LIMITS, ...changes });

async function bounded(given: HttpServerLimits): Promise<number> {
  const server = http.createServer(serverOptions(given), (_req, res) => res.end('ok'));
  boundConnections(server, given);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

interface Raw {
  socket: net.Socket;
  /** Everything received until the server closed the connection, and when that was. */
  ended: Promise<{ text: string; at: number }>;
  /** Resolves with what was received once it holds `count` whole answers. */
  answers(count: number): Promise<string>;
}

async function open(port: number): Promise<Raw> {
  const socket = net.connect(port, '127.0.0.1');
  sockets.push(socket);
  socket.on('error', () => undefined);
  let text = '';
  const waiting: (() => void)[] = [];
  socket.on('data', (chunk: Buffer) => {
    text += chunk.toString('latin1');
    waiting.splice(0).forEach((check) => {
      check();
    });
  });
  const ended = new Promise<{ text: string; at: number }>((resolve) =>
    socket.once('close', () => resolve({ text, at: Date.now() })),
  );
  await new Promise((resolve) => socket.once('connect', resolve));
  const answers = (count: number) =>
    new Promise<string>((resolve) => {
      const check = () => ((text.match(/\r\n\r\nok/g) ?? []).length >= count ? resolve(text) : waiting.push(check));
      check();
      void ended.then(() => resolve(text));
    });
  return { socket, ended, answers };
}

describe('the bounds of an HTTP server', () => {
  it('gives Node its limits: header size, header and request deadlines, keep-alive', () => {
    const given = limits({ headerBytes: 1234, headersTimeoutMs: 2345, requestTimeoutMs: 3456, idleMs: 4567 });
    const options = serverOptions(given);
    expect(options).toMatchObject({ maxHeaderSize: 1234, headersTimeout: 2345, requestTimeout: 3456 });
    expect(options.keepAliveTimeout).toBe(4567);
  });

  it('answers headers past the limit with 431 and closes the connection', async () => {
    const raw = await open(await bounded(limits({ headerBytes: 1024 })));
    raw.socket.write(`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(2048)}\r\n\r\n`);
    const { text } = await raw.ended;
    expect(text).toBe('HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  });

  it('answers a malformed request with 400 and closes the connection', async () => {
    const raw = await open(await bounded(DOOR_LIMITS));
    raw.socket.write('NOT HTTP AT ALL\r\n\r\n');
    const { text } = await raw.ended;
    expect(text).toBe('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  });

  it('answers 408 and closes a connection whose body is still arriving at the request deadline', async () => {
    const given = limits({ headersTimeoutMs: 500, requestTimeoutMs: 1_000 });
    // A handler that answers only once the whole body is in.
    const server = http.createServer(serverOptions(given), (req, res) => req.resume().on('end', () => res.end('ok')));
    boundConnections(server, given);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const raw = await open((server.address() as AddressInfo).port);
    raw.socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2000\r\n\r\n');
    // A byte now and then: the connection is never silent, only slow.
    const drip = setInterval(() => raw.socket.writable && raw.socket.write('a'), 100);
    try {
      const { text } = await raw.ended;
      expect(text).toBe('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    } finally {
      clearInterval(drip);
    }
  });

  it('closes a connection that sends nothing once the silence limit has passed', async () => {
    const start = Date.now();
    // Node's own deadlines far away: only the silence limit can close it within the test's time.
    const slowDeadlines = { headersTimeoutMs: 60_000, requestTimeoutMs: 60_000 };
    const raw = await open(await bounded(limits({ silenceMs: 300, ...slowDeadlines })));
    const { text, at } = await raw.ended;
    expect(text).toBe('');
    expect(at - start).toBeGreaterThanOrEqual(250);
  });

  it('sets no silence limit when it is 0, and any number of requests per connection when that is 0', async () => {
    const server = http.createServer();
    boundConnections(server, limits({ silenceMs: 0, requestsPerConnection: 0 }));
    expect(server.timeout).toBe(0);
    expect(server.maxRequestsPerSocket).toBe(0);
  });

  it('tells a kept-alive connection to close with the last answer its limit of requests allows', async () => {
    const raw = await open(await bounded(limits({ requestsPerConnection: 2 })));
    raw.socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    const first = await raw.answers(1);
    expect(first).not.toMatch(/connection: close/i);
    raw.socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    const second = (await raw.answers(2)).slice(first.length);
    expect(second).toMatch(/^HTTP\/1.1 200/);
    expect(second).toMatch(/connection: close/i);
  });

  it("keeps the doors' limits", () => {
    expect(DOOR_LIMITS).toEqual({
      headerBytes: 8 * 1024,
      headersTimeoutMs: 5_000,
      requestTimeoutMs: 10_000,
      idleMs: 5_000,
      silenceMs: 10_000,
      requestsPerConnection: 100,
      connections: { total: 256, perSource: 64, knownSources: 1024, knownForMs: 30 * 24 * 3_600_000 },
    });
  });
});
