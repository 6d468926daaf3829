// Binding a door (listen.ts): a taken address is a configuration error naming the setting to
// change; the port bound is returned; later errors go to the caller; closing ends every
// connection, one being answered included, so a stop never waits for a client.
import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { listenHttp } from '../../../../src/http/server/listen.js';
import { ConfigError } from '../../../../src/lib/errors.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const loopback = (port: number) => ({ host: '127.0.0.1', port, loopback: true });
const ignore = () => undefined;

describe('listenHttp', () => {
  it('binds the port asked for, or a free one for 0, and answers there', async () => {
    const server = http.createServer((_req, res) => res.end('here'));
    const { port, close } = await listenHttp(server, loopback(0), '--listen', ignore);
    closers.push(close);
    expect(port).toBeGreaterThan(0);
    const body = await new Promise<string>((resolve, reject) => {
      http
        .get(`http://127.0.0.1:${port}/`, (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d));
          res.on('end', () => resolve(text));
        })
        .on('error', reject);
    });
    expect(body).toBe('here');
  });

  it('refuses an address already in use with a configuration error naming the setting', async () => {
    const first = await listenHttp(http.createServer(), loopback(0), '--listen', ignore);
    closers.push(first.close);
    const second = listenHttp(http.createServer(), loopback(first.port), '--dyndns2-listen', ignore);
    const error = await second.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(`--dyndns2-listen 127.0.0.1:${first.port}: the address is already in use`);
  });

  it('hands a later error to the caller', async () => {
    const server = http.createServer();
    const seen: string[] = [];
    const { close } = await listenHttp(server, loopback(0), '--listen', (e) => seen.push(e.message));
    closers.push(close);
    server.emit('error', new Error('accept failed'));
    expect(seen).toEqual(['accept failed']);
  });

  it('closes every connection when closed, one whose answer is still under way included', async () => {
    let asked!: () => void;
    const arrived = new Promise<void>((resolve) => (asked = resolve));
    // The answer never comes: only closing the connection ends it.
    const server = http.createServer(() => asked());
    const { port, close } = await listenHttp(server, loopback(0), '--listen', ignore);
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', ignore);
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await arrived;
    await close();
    await closed;
    expect(server.listening).toBe(false);
  });
});
