// Small real servers on 127.0.0.1 for tests: echo services that answer a fixed body (or run
// a handler), over HTTP or HTTPS with the test CA's certificate.
import { readFileSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { inject } from 'vitest';

export interface TestServer {
  url: string;
  hits: number;
  requests: { url: string; method: string; body: string }[];
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export const tlsFiles = () => {
  const dir = inject('tlsDir');
  return { ca: join(dir, 'ca.pem'), cert: join(dir, 'server.pem'), key: join(dir, 'server.key') };
};

export async function startServer(answer: string | Handler, options: { tls?: boolean } = {}): Promise<TestServer> {
  const state: TestServer = { url: '', hits: 0, requests: [], close: async () => {} };
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      state.hits++;
      state.requests.push({ url: req.url ?? '', method: req.method ?? '', body });
      if (typeof answer === 'string') res.end(answer);
      else answer(req, res, body);
    });
  };
  const server = options.tls
    ? https.createServer({ cert: readFileSync(tlsFiles().cert), key: readFileSync(tlsFiles().key) }, handler)
    : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.url = `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}/`;
  state.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
