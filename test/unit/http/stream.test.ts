// A streamed answer (src/http/stream.ts) and requests over a unix socket: the head within its
// deadline, the body without one, read line by line with a bound per line whatever the chunks,
// and ended by the caller (close, or an abort signal).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TransportError } from '../../../src/http/errors.js';
import { httpRequest } from '../../../src/http/request.js';
import { openHttpStream, type StreamLine } from '../../../src/http/stream.js';
import { FakeClock, until } from '../../helpers/fake-clock.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** An HTTP server on a unix socket in a temp dir; the URL's host is only the Host header. */
async function socketServer(handler: http.RequestListener): Promise<{ socketPath: string; url: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'ddedge-stream-'));
  const socketPath = join(dir, 'api.sock');
  const server = http.createServer(handler);
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (s) => sockets.add(s));
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  cleanups.push(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });
  return { socketPath, url: 'http://localhost/events' };
}

async function collect(lines: AsyncIterable<StreamLine>): Promise<StreamLine[]> {
  const all: StreamLine[] = [];
  for await (const line of lines) all.push(line);
  return all;
}

const loose = (text: string) => new URL(text);

describe('requests over a unix socket', () => {
  it('carries a request to the socket, the URL giving its path and Host', async () => {
    const { socketPath } = await socketServer((req, res) => res.end(`${req.url} ${req.headers.host}`));
    const response = await httpRequest({ url: 'http://localhost/_ping?x=1', socketPath, timeoutMs: 5000 });
    expect(response.body).toBe('/_ping?x=1 localhost');
  });

  it('names the target as the caller shows it when it cannot connect', async () => {
    const error = await httpRequest({
      url: 'http://localhost/_ping',
      socketPath: '/nonexistent/dir/api.sock',
      shownUrl: 'unix:///nonexistent/dir/api.sock',
      timeoutMs: 5000,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toBe('cannot reach unix:///nonexistent/dir/api.sock: ENOENT');
  });

  it('ends a request when its signal aborts', async () => {
    let asked = false;
    const { socketPath } = await socketServer(() => {
      asked = true;
    });
    const controller = new AbortController();
    const request = httpRequest({
      url: 'http://localhost/x',
      socketPath,
      timeoutMs: 60_000,
      signal: controller.signal,
    });
    await until(() => asked);
    controller.abort();
    await expect(request).rejects.toThrow(TransportError);
  });
});

describe('a streamed answer', () => {
  it('gives the lines whatever the chunks: split lines, CRLF, blank lines, a last line without its end', async () => {
    const { socketPath, url } = await socketServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      for (const part of ['{"a":', '1}\n{"b":2}\r\n\n{"c"', ':3}\n', 'tail']) {
        res.write(part);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      res.end();
    });
    const stream = await openHttpStream({ url, socketPath, urlRule: loose, timeoutMs: 5000 });
    expect(stream.status).toBe(200);
    expect(await collect(stream.lines(100))).toEqual([
      { text: '{"a":1}' },
      { text: '{"b":2}' },
      { text: '' },
      { text: '{"c":3}' },
      { text: 'tail' },
    ]);
  });

  it('gives a line over the bound as its size only, across chunks, and the next line whole', async () => {
    const { socketPath, url } = await socketServer(async (_req, res) => {
      res.writeHead(200);
      res.write('short\n');
      for (let i = 0; i < 10; i++) {
        res.write('x'.repeat(100_000));
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      res.end('y\nafter\n');
    });
    const stream = await openHttpStream({ url, socketPath, urlRule: loose, timeoutMs: 5000 });
    expect(await collect(stream.lines(1024))).toEqual([{ text: 'short' }, { tooLong: 1_000_001 }, { text: 'after' }]);
  });

  it('times out the head on its clock, and then has no deadline: a quiet stream stays open', async () => {
    let answer: http.ServerResponse | undefined;
    const { socketPath, url } = await socketServer((_req, res) => {
      answer = res;
    });
    const clock = new FakeClock();
    const hanging = openHttpStream({ url, socketPath, urlRule: loose, timeoutMs: 10_000, clock }).catch((e) => e);
    await until(() => answer !== undefined);
    await clock.advanceAsync(10_000);
    expect(await hanging).toMatchObject({ kind: 'timeout', message: expect.stringMatching(/within 10000 ms/) });

    answer = undefined;
    const opening = openHttpStream({ url, socketPath, urlRule: loose, timeoutMs: 10_000, clock });
    await until(() => answer !== undefined);
    answer!.writeHead(200);
    answer!.flushHeaders();
    const stream = await opening;
    const lines = stream.lines(100)[Symbol.asyncIterator]();
    const next = lines.next();
    await clock.advanceAsync(24 * 3600_000);
    answer!.write('late\n');
    expect(await next).toEqual({ value: { text: 'late' }, done: false });
    stream.close();
    expect(await lines.next()).toEqual({ value: undefined, done: true });
  });

  it('ends when its signal aborts, before or after the head', async () => {
    let answer: http.ServerResponse | undefined;
    const { socketPath, url } = await socketServer((_req, res) => {
      answer = res;
    });
    const before = new AbortController();
    const opening = openHttpStream({ url, socketPath, urlRule: loose, timeoutMs: 60_000, signal: before.signal });
    await until(() => answer !== undefined);
    before.abort();
    await expect(opening).rejects.toThrow(TransportError);

    answer = undefined;
    const after = new AbortController();
    const second = openHttpStream({ url, socketPath, urlRule: loose, timeoutMs: 60_000, signal: after.signal });
    await until(() => answer !== undefined);
    answer!.writeHead(200);
    answer!.write('one\n');
    const stream = await second;
    const lines = stream.lines(100)[Symbol.asyncIterator]();
    expect(await lines.next()).toEqual({ value: { text: 'one' }, done: false });
    after.abort();
    await expect(lines.next()).rejects.toThrow(TransportError);
  });

  it('fails as a connection failure when the server drops it mid-chunk', async () => {
    const { socketPath, url } = await socketServer((_req, res) => {
      res.writeHead(200);
      res.write('one\npart');
      setTimeout(() => res.socket?.destroy(), 10);
    });
    const stream = await openHttpStream({ url, socketPath, urlRule: loose, timeoutMs: 5000 });
    const seen: StreamLine[] = [];
    const error = await (async () => {
      for await (const line of stream.lines(100)) seen.push(line);
    })().catch((e: unknown) => e);
    expect(seen).toEqual([{ text: 'one' }]);
    expect(error).toMatchObject({
      kind: 'connection',
      message: expect.stringMatching(/closed before the whole answer/),
    });
  });

  it.skipIf(process.platform !== 'linux')(
    'probes a quiet TCP stream with keepalives when asked, so a peer that vanished is noticed',
    async () => {
      const peers: number[] = [];
      const server = http.createServer((req, res) => {
        peers.push(req.socket.remotePort!);
        res.writeHead(200);
        res.flushHeaders();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      cleanups.push(() => {
        server.closeAllConnections();
        return new Promise((resolve) => server.close(() => resolve()));
      });
      const url = `http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}/events`;
      /** The kernel's timer on our end of the connection (/proc/net/tcp: 02 is the keepalive timer). */
      const timerOf = (port: number) =>
        readFileSync('/proc/net/tcp', 'utf8')
          .split('\n')
          .map((line) => line.trim().split(/\s+/))
          .find((fields) => fields[1]?.endsWith(`:${port.toString(16).toUpperCase().padStart(4, '0')}`))?.[5]
          ?.split(':')[0];
      const quiet = await openHttpStream({ url, timeoutMs: 5000 });
      const probed = await openHttpStream({ url, timeoutMs: 5000, keepAliveMs: 30_000 });
      expect(peers).toHaveLength(2);
      expect(timerOf(peers[0]!)).toBe('00');
      expect(timerOf(peers[1]!)).toBe('02');
      quiet.close();
      probed.close();
    },
  );

  it('keeps the https rule unless the caller gives its own', async () => {
    await expect(openHttpStream({ url: 'http://example.com/events', timeoutMs: 1000 })).rejects.toThrow(
      /http:\/\/ is allowed only for loopback hosts/,
    );
  });
});
