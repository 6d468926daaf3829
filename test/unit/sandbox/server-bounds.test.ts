// The sandbox's server keeps the bounds of every door (http/server/) at sizes no test meets:
// headers as large as Node has always allowed, no silence limit (a fault may hold an answer back
// as long as asked), any number of requests per connection, and as many connections from one
// address as in all (every test calls from 127.0.0.1).
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX_LIMITS, startSandbox, type Sandbox } from '../../../src/sandbox/server.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

/** What the sandbox answers to `request` on a connection of its own, until it closes it or answers. */
function rawAnswer(url: string, request: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (/\r\n\r\n/.test(text)) socket.destroy();
    });
    socket.on('error', () => undefined);
    socket.once('close', () => resolve(text));
    socket.write(request);
  });
}

describe("the sandbox's bounds", () => {
  it('answers headers past 16 KB as every door does (431, then closed), and takes those within', async () => {
    sandbox = await startSandbox();
    const withHeader = (bytes: number) =>
      `GET /no/such/path HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(bytes)}\r\n\r\n`;
    const big = await rawAnswer(sandbox.url, withHeader(17 * 1024));
    expect(big).toBe('HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    const within = await rawAnswer(sandbox.url, withHeader(12 * 1024));
    expect(within).toMatch(/^HTTP\/1.1 404 /);
  });

  it("never stands in a test's way: no silence limit, any number of requests, one address may hold all", () => {
    expect(SANDBOX_LIMITS).toMatchObject({ headerBytes: 16 * 1024, silenceMs: 0, requestsPerConnection: 0 });
    expect(SANDBOX_LIMITS.connections.perSource).toBe(SANDBOX_LIMITS.connections.total);
    expect(SANDBOX_LIMITS.connections.total).toBeGreaterThanOrEqual(4096);
  });
});
