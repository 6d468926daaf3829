// The keep-alive pool the zone commands use for runs of many calls (http/node-pool-transport.ts),
// through httpRequest as every caller uses it, against real servers on 127.0.0.1: at most 3
// connections however many calls, and the same errors as the other transports.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { TransportError } from '../../../src/http/errors.js';
import { nodePoolTransport } from '../../../src/http/node-pool-transport.js';
import { expectSuccessStatus, httpRequest } from '../../../src/http/request.js';
import { waitUntil } from '../../helpers/wait.js';

const servers: http.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

async function serve(handler: http.RequestListener): Promise<{ url: string; sockets: Set<Socket> }> {
  const server = http.createServer(handler);
  const sockets = new Set<Socket>();
  server.on('connection', (s) => sockets.add(s));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/x/`, sockets };
}

describe('node pool transport', () => {
  it('sends 30 calls, 10 at a time, over at most 3 kept-alive connections, bodies whole', async () => {
    const { url, sockets } = await serve((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => setTimeout(() => res.end(`${'x'.repeat(200_000)}|${body}`), 5));
    });
    const transport = nodePoolTransport();
    try {
      for (let round = 0; round < 3; round++) {
        const answers = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            httpRequest({ url, method: 'POST', body: `call ${round}.${i}`, timeoutMs: 5000, transport }),
          ),
        );
        answers.forEach((a, i) => {
          expect([a.status, a.body.length, a.body.split('|')[1]]).toEqual([
            200,
            200_001 + `call ${round}.${i}`.length,
            `call ${round}.${i}`,
          ]);
        });
      }
      expect(sockets.size).toBeLessThanOrEqual(3);
    } finally {
      await transport.close?.();
    }
  });

  it('times out, cannot reach, and reports a 101 nobody asked for as its status', async () => {
    const transport = nodePoolTransport();
    try {
      const silent = await serve(() => undefined);
      await expect(httpRequest({ url: silent.url, timeoutMs: 200, transport })).rejects.toMatchObject({
        kind: 'timeout',
      });
      const closed = await serve(() => undefined);
      const closing = servers.pop()!;
      await new Promise((r) => closing.close(r));
      await expect(httpRequest({ url: closed.url, timeoutMs: 2000, transport })).rejects.toBeInstanceOf(TransportError);
      const upgrading = http.createServer();
      upgrading.on('request', (req) =>
        req.socket.end('HTTP/1.1 101 Switching Protocols\r\nupgrade: x\r\nconnection: upgrade\r\n\r\n'),
      );
      servers.push(upgrading);
      await new Promise<void>((r) => upgrading.listen(0, '127.0.0.1', r));
      const answer = await httpRequest({
        url: `http://127.0.0.1:${(upgrading.address() as AddressInfo).port}/`,
        timeoutMs: 2000,
        transport,
      });
      expect(() => expectSuccessStatus(answer)).toThrow(/answered HTTP 101/);
    } finally {
      await transport.close?.();
    }
  });

  it('closes a connection left idle for idleMs, and opens another for the next call', async () => {
    const { url, sockets } = await serve((_req, res) => res.end('ok'));
    // The server would keep it for ever: only the client closes it.
    servers.at(-1)!.keepAliveTimeout = 0;
    const closed: Socket[] = [];
    const transport = nodePoolTransport({ idleMs: 50 });
    try {
      expect((await httpRequest({ url, timeoutMs: 5000, transport })).body).toBe('ok');
      const [first] = [...sockets];
      first!.on('close', () => closed.push(first!));
      await waitUntil(() => closed.length === 1, 'the idle connection closed by the client');
      expect((await httpRequest({ url, timeoutMs: 5000, transport })).body).toBe('ok');
      expect(sockets.size).toBe(2);
    } finally {
      await transport.close?.();
    }
  });

  it('keeps an answer that takes longer than idleMs (only idle connections are closed)', async () => {
    const { url } = await serve((_req, res) => setTimeout(() => res.end('late'), 150));
    const transport = nodePoolTransport({ idleMs: 30 });
    try {
      expect((await httpRequest({ url, timeoutMs: 5000, transport })).body).toBe('late');
    } finally {
      await transport.close?.();
    }
  });
});
