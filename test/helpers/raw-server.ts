// A hostile HTTP server on 127.0.0.1 that writes raw bytes: statuses and framings that
// node:http's server would not produce (101 without an upgrade request, bare 304s), so the
// client's handling of answers it did not ask for is tested on the wire.
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface RawServer {
  url: string;
  /** Request heads received (method, path and headers). */
  requests: string[];
  close(): Promise<void>;
}

/** `answer` gets the request's head and returns the whole raw response to write. */
export async function startRawServer(answer: (head: string) => string): Promise<RawServer> {
  const state: RawServer = { url: '', requests: [], close: async () => {} };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = received.slice(0, end);
      received = '';
      state.requests.push(head);
      socket.end(answer(head));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  state.close = () =>
    new Promise((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return state;
}

/** A raw response with a Content-Length. */
export const rawResponse = (status: string, body = '', headers: Record<string, string> = {}): string =>
  `HTTP/1.1 ${status}\r\n${Object.entries({ 'content-length': String(Buffer.byteLength(body)), ...headers })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n${body}`;
