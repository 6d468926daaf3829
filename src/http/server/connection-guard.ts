// Idle and slow connections must never starve a probe or a router. A fixed cap that refuses
// newcomers (Node's server.maxConnections) lets a few hundred silent or byte-dripping sockets
// lock every client out, and a liveness probe that fails restarts the pod forever. Instead a
// newcomer is let in by closing a connection that can give way (connection-table.ts says which:
// one not being answered, of an unknown source, from the source holding the most, waiting
// longest). A request counts as being answered only once all of it, body included, has arrived:
// a client that drips its body gives way like one that drips its headers. Only when every
// connection it could replace is being answered is a newcomer refused.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { Server as TlsServer } from 'node:tls';
import { systemClock, type Clock } from '../../lib/clock.js';
import { ConnectionTable, type ConnectionLimits } from './connection-table.js';

export interface ConnectionGuard {
  /** The client at `address` was answered after authenticating: its source is known, and gives way last. */
  knownClient(address: string): void;
}

export function guardConnections(
  server: Server,
  limits: ConnectionLimits,
  clock: Clock = systemClock,
): ConnectionGuard {
  const table = new ConnectionTable<Socket>(limits, clock);

  // Over TLS every TCP connection is counted from its first moment, as over plain HTTP: counted
  // only once its handshake was done, thousands of silent sockets from one address would pass
  // every bound (and spend the file descriptors) until the handshake deadline closed them. A
  // request's socket is then the TLS socket over it, found by the remote address and port.
  const tls = server instanceof TlsServer;
  const rawByPeer = new Map<string, Socket>();
  const tlsToRaw = new WeakMap<Socket, Socket>();
  const peerOf = (socket: Socket) => `${socket.remoteAddress}|${socket.remotePort}`;
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined) return void socket.destroy(); // already gone
    const closed = table.admit(socket, address);
    if (!closed) return void socket.destroy();
    for (const other of closed) other.destroy();
    const peer = tls ? peerOf(socket) : undefined;
    if (peer) rawByPeer.set(peer, socket);
    socket.once('close', () => {
      table.forget(socket);
      if (peer && rawByPeer.get(peer) === socket) rawByPeer.delete(peer);
    });
  });
  if (tls) {
    server.on('secureConnection', (secure: Socket) => {
      const raw = rawByPeer.get(peerOf(secure));
      if (!raw) return void secure.destroy(); // its TCP connection was closed meanwhile
      tlsToRaw.set(secure, raw);
      // Closing the TCP connection (one that gave way) ends the TLS one over it; and the other way.
      raw.once('close', () => secure.destroy());
      secure.once('close', () => raw.destroy());
    });
  }

  server.on('request', (req, res) => {
    const socket = tlsToRaw.get(req.socket) ?? req.socket;
    // Node sets `complete` once the whole request, body included, is parsed, whether or not the handler reads it.
    const progress = { received: () => req.complete };
    table.requestStarted(socket, progress);
    res.once('close', () => table.requestAnswered(socket, progress));
  });
  return { knownClient: (address) => table.knownClient(address) };
}
