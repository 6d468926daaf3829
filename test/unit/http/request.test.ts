import { afterEach, describe, expect, it } from 'vitest';
import { TransportError } from '../../../src/http/errors.js';
import { expectSuccessStatus, httpRequest } from '../../../src/http/request.js';
import { ConfigError } from '../../../src/lib/errors.js';
import { registerSecret } from '../../../src/lib/redact.js';
import { FakeClock, until } from '../../helpers/fake-clock.js';
import { startServer, type TestServer } from '../../helpers/servers.js';

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});
const serve = async (...args: Parameters<typeof startServer>) => {
  const s = await startServer(...args);
  servers.push(s);
  return s;
};
const failure = async (promise: Promise<unknown>): Promise<TransportError> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TransportError);
  return error as TransportError;
};

/** A transport whose every connection is refused, as the system says it. */
const refusing = {
  send: () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })),
};

describe('the HTTP policy layer', () => {
  it('sends a User-Agent naming ddedge and returns the body', async () => {
    const server = await serve((req, res) => res.end(req.headers['user-agent']));
    const response = await httpRequest({ url: server.url, timeoutMs: 2000 });
    expect(response.body).toMatch(/^ddedge\/\S+ /);
  });

  it('times out an answer that never finishes', async () => {
    // The answer never finishes: only the deadline, on the request's clock, can end it.
    let started = false;
    const server = await serve((_req, res) => void res.write('partial', () => (started = true)));
    const clock = new FakeClock();
    let settled = false;
    const request = failure(httpRequest({ url: server.url, timeoutMs: 60_000, clock })).finally(() => (settled = true));
    await until(() => started);
    await clock.advanceAsync(59_999);
    expect(settled).toBe(false);
    await clock.advanceAsync(1);
    const error = await request;
    expect(error.kind).toBe('timeout');
    expect(error.message).toMatch(/no complete answer from .* within 60000 ms/);
    expect(error.exitCode).toBe(4);
  });

  it('stops reading a 50 MiB answer at the limit', async () => {
    const server = await serve((_req, res) => {
      const chunk = Buffer.alloc(1024 * 1024, 'x');
      let sent = 0;
      const pump = () => {
        while (sent < 50 && res.write(chunk)) sent++;
        if (sent >= 50) res.end();
        else
          res.once('drain', () => {
            sent++;
            pump();
          });
      };
      res.on('error', () => {});
      pump();
    });
    const error = await failure(httpRequest({ url: server.url, timeoutMs: 5000, maxBytes: 1024 * 1024 }));
    expect(error.kind).toBe('too-large');
    expect(error.message).toMatch(/1048576-byte limit/);
  });

  it('refuses an answer whose declared length is over the limit without reading it', async () => {
    const server = await serve((_req, res) => {
      res.setHeader('content-length', String(10 * 1024 * 1024));
      res.write('x');
    });
    expect((await failure(httpRequest({ url: server.url, timeoutMs: 2000, maxBytes: 1024 }))).kind).toBe('too-large');
  });

  it('reports a reset connection', async () => {
    const server = await serve((req) => req.socket.destroy());
    expect((await failure(httpRequest({ url: server.url, timeoutMs: 2000 }))).kind).toBe('connection');
  });

  it('reports a refused connection', async () => {
    const server = await serve('x');
    await server.close();
    servers = [];
    expect((await failure(httpRequest({ url: server.url, timeoutMs: 2000 }))).kind).toBe('connection');
  });

  it('a refused connection names the host and port where nothing answers, never the credentials in the URL', async () => {
    const server = await serve('x');
    await server.close();
    servers = [];
    const { port } = new URL(server.url);
    const url = `http://someone:pw-in-url-Zq81x@127.0.0.1:${port}/path?password=q-secret-81`;
    const bare = await failure(httpRequest({ url, timeoutMs: 2000 }));
    expect(bare).toMatchObject({ kind: 'connection', exitCode: 4 });
    expect(bare.message).toMatch(new RegExp(`: nothing answers at 127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\)$`));
    const advised = await failure(
      httpRequest({ url, timeoutMs: 2000, unreachable: { server: 'the thing', setting: '--thing-url / THING_URL' } }),
    );
    expect(advised.message).toMatch(
      new RegExp(
        `nothing answers at 127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\): is the thing running there, and is ` +
          '--thing-url / THING_URL right\\?$',
      ),
    );
    for (const message of [bare.message, advised.message]) {
      expect(message).not.toContain('pw-in-url-Zq81x');
      expect(message).not.toContain('q-secret-81');
    }
    // A URL without a port: the scheme's.
    expect(
      (await failure(httpRequest({ url: 'http://127.0.0.1/', timeoutMs: 2000, transport: refusing }))).message,
    ).toContain('nothing answers at 127.0.0.1:80 (ECONNREFUSED)');
  });

  it('verifies TLS: a certificate from an unknown authority fails', async () => {
    const server = await serve('x', { tls: true });
    const error = await failure(httpRequest({ url: server.url, timeoutMs: 2000 }));
    expect(error.kind).toBe('tls');
    expect(error.message).toMatch(/NODE_EXTRA_CA_CERTS/);
  });

  it('maps HTTP statuses: 5xx transient, 401/403 credentials, other 4xx refused', async () => {
    for (const [status, exitCode] of [
      [500, 4],
      [502, 4],
      [503, 4],
      [401, 3],
      [403, 3],
      [404, 7],
    ] as const) {
      const server = await serve((_req, res) => {
        res.statusCode = status;
        res.end('no');
      });
      const error = await failure(httpRequest({ url: server.url, timeoutMs: 2000 }).then(expectSuccessStatus));
      expect([error.kind, error.status, error.exitCode]).toEqual(['status', status, exitCode]);
    }
  });

  it('says a 5xx is temporary without promising a retry: a one-shot run makes none, the next run of its timer does', async () => {
    for (const status of [502, 101, 304]) {
      const server = await serve((_req, res) => {
        res.statusCode = status;
        res.end();
      });
      const error = await failure(httpRequest({ url: server.url, timeoutMs: 2000 }).then(expectSuccessStatus));
      expect(error.message).toMatch(/temporary/);
      expect(error.message).not.toMatch(/will retry/);
    }
  });

  it('requires https except for loopback hosts', async () => {
    await expect(httpRequest({ url: 'http://192.0.2.1/', timeoutMs: 100, setting: '--dyndns-url' })).rejects.toThrow(
      ConfigError,
    );
    await expect(httpRequest({ url: 'http://192.0.2.1/', timeoutMs: 100, setting: '--dyndns-url' })).rejects.toThrow(
      /--dyndns-url: http:\/\/ is allowed only for loopback/,
    );
  });

  it('never shows a registered secret or a key in the URL of an error', async () => {
    registerSecret('canary-http-secret');
    const server = await serve((req) => req.socket.destroy());
    const error = await failure(
      httpRequest({ url: `${server.url}json/?user=u&password=canary-http-secret&apikey=other-value`, timeoutMs: 2000 }),
    );
    expect(error.message).not.toContain('canary-http-secret');
    expect(error.message).not.toContain('other-value');
    expect(error.url).toContain('password=***');
  });
});
