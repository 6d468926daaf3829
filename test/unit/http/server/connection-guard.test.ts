// The connection guard: a newcomer is always let in; past a limit the connection that has waited
// longest without a request in progress pays, from the address at its limit, or in all from the
// address holding the most; one being answered never does. Real sockets on loopback addresses
// (127.0.0.2, .3, .4 stand for other clients), every wait for an event.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { guardConnections } from '../../../../src/http/server/connection-guard.js';
import type { ConnectionLimits } from '../../../../src/http/server/connection-table.js';

/** `total` connections, `perSource` from one source; sources known for a minute. */
const limits = (total: number, perSource: number): ConnectionLimits => ({
  total,
  perSource,
  knownSources: 16,
  knownForMs: 60_000,
});

/** Only a broken build waits this long. */
const BOUND_MS = 30_000;

interface Guarded {
  port: number;
  /** Connections the server has taken so far. */
  accepted(): number;
  /** Resolves once the server has taken `count` connections in all. */
  acceptedAll(count: number): Promise<void>;
  /** Answers held back, in the order asked: each releases its request's answer. */
  held: (() => void)[];
  /** Requests to /body whose headers arrived: each is answered once its whole body is in. */
  bodies(): number;
  close(): Promise<void>;
}

const opened: net.Socket[] = [];
const servers: Guarded[] = [];
afterEach(async () => {
  opened.splice(0).forEach((s) => {
    s.destroy();
  });
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/**
 * A guarded server whose answer to /hold waits until released, and to /body until the body is in; other paths are
 * answered at once.
 */
async function guarded(limits: ConnectionLimits): Promise<Guarded> {
  const held: (() => void)[] = [];
  let bodies = 0;
  const server = http.createServer((req, res) => {
    if (req.url === '/hold') held.push(() => res.end('released'));
    else if (req.url === '/body') {
      bodies++;
      req.resume().on('end', () => res.end('ok'));
    } else res.end('ok');
  });
  guardConnections(server, limits);
  let accepted = 0;
  const waiting: { count: number; resolve: () => void }[] = [];
  server.on('connection', () => {
    accepted++;
    for (const w of waiting.filter((w) => accepted >= w.count)) w.resolve();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const g: Guarded = {
    port: (server.address() as AddressInfo).port,
    accepted: () => accepted,
    bodies: () => bodies,
    acceptedAll: (count) =>
      accepted >= count ? Promise.resolve() : new Promise((resolve) => waiting.push({ count, resolve })),
    held,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  servers.push(g);
  return g;
}

interface Client {
  socket: net.Socket;
  /** Resolves when the server has closed it. */
  closed: Promise<void>;
}

/** Opens one connection from `from` and waits until the server has taken it. */
async function connect(g: Guarded, from = '127.0.0.1'): Promise<Client> {
  const before = g.accepted();
  const socket = net.connect({ port: g.port, host: '127.0.0.1', localAddress: from });
  socket.on('error', () => undefined);
  opened.push(socket);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await Promise.race([g.acceptedAll(before + 1), closed]);
  return { socket, closed };
}

/** Asks for `path`: the answer's raw text once its body is in, or "closed" when it never comes. */
function ask(client: Client, path: string): Promise<string> {
  return new Promise((resolve) => {
    void client.closed.then(() => resolve('closed'));
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(text);
      if (end >= 0 && length && text.length >= end + 4 + Number(length[1])) {
        client.socket.off('data', onData);
        resolve(text);
      }
    };
    client.socket.on('data', onData);
    client.socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
  });
}

/** Waits, turn by turn, until `condition` holds. */
async function waitFor(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + BOUND_MS;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The request is under way at the server: its answer is held. */
const untilHeld = (g: Guarded, count: number) =>
  waitFor(() => g.held.length >= count, 'the request reached the server');

describe('the connection guard', () => {
  it("lets a newcomer in past the limit of its address by closing that address's oldest idle connection", async () => {
    const g = await guarded(limits(100, 2));
    const [first, second] = [await connect(g), await connect(g)];
    const other = await connect(g, '127.0.0.2');
    const third = await connect(g);
    await first.closed;
    for (const open of [second, third, other]) expect(await ask(open, '/')).toMatch(/^HTTP\/1.1 200/);
  });

  it('never closes a connection whose answer is under way: the oldest idle one pays instead', async () => {
    const g = await guarded(limits(100, 2));
    const busy = await connect(g);
    const answer = ask(busy, '/hold');
    await untilHeld(g, 1);
    const idle = await connect(g);
    const newcomer = await connect(g);
    await idle.closed;
    expect(await ask(newcomer, '/')).toMatch(/^HTTP\/1.1 200/);
    g.held[0]!();
    expect(await answer).toMatch(/released$/);
  });

  it('closes a connection still sending its body for a newcomer, as one still sending its headers', async () => {
    const g = await guarded(limits(100, 2));
    const dripping = [await connect(g), await connect(g)];
    for (const c of dripping) c.socket.write('POST /body HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nab');
    await waitFor(() => g.bodies() === 2, 'both requests under way');
    const newcomer = await connect(g);
    // Refused, the newcomer is closed at once (and the test fails at once).
    await Promise.race([dripping[0]!.closed, newcomer.closed]);
    expect(await ask(newcomer, '/')).toMatch(/^HTTP\/1.1 200/);
  });

  it('counts a kept-alive connection as the newest once its answer is sent', async () => {
    const g = await guarded(limits(100, 2));
    const first = await connect(g);
    const second = await connect(g);
    expect(await ask(first, '/')).toMatch(/^HTTP\/1.1 200/);
    await connect(g);
    await second.closed;
    expect(await ask(first, '/')).toMatch(/^HTTP\/1.1 200/);
  });

  it('past the total, closes the oldest idle connection of the address holding the most', async () => {
    const g = await guarded(limits(4, 4));
    // The oldest of all is another address's: the largest holder pays with its own oldest.
    const b1 = await connect(g, '127.0.0.3');
    const a1 = await connect(g, '127.0.0.2');
    const a2 = await connect(g, '127.0.0.2');
    const a3 = await connect(g, '127.0.0.2');
    const newcomer = await connect(g, '127.0.0.4');
    await a1.closed;
    for (const open of [b1, a2, a3, newcomer]) expect(await ask(open, '/')).toMatch(/^HTTP\/1.1 200/);
  });

  it('refuses a newcomer only when every connection is being answered', async () => {
    const g = await guarded(limits(2, 2));
    const busy = [await connect(g), await connect(g)];
    const answers = busy.map((c) => ask(c, '/hold'));
    await untilHeld(g, 2);
    const newcomer = await connect(g);
    await newcomer.closed;
    g.held.forEach((release) => {
      release();
    });
    for (const answer of answers) expect(await answer).toMatch(/released$/);
    // Answered, they are idle again: the next newcomer gets in.
    const next = await connect(g);
    expect(await ask(next, '/')).toMatch(/^HTTP\/1.1 200/);
  });
});
