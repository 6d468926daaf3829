// Idle and slow connections must never starve a probe. A fixed cap that refuses newcomers
// (Node's server.maxConnections) lets 32 silent sockets lock every health probe out, and a
// liveness probe that fails restarts the pod forever. Instead a newcomer is always let in,
// and when a limit is reached the connection that has waited longest without a request in
// progress is closed:
// - per remote address: an address at its limit pays with its own oldest idle connection,
//   so one client cannot crowd out another;
// - in total: the address holding the most connections pays, so a probe from anywhere else
//   always gets in.
// A probe sends its request as soon as it connects and is answered at once, so it is never
// the oldest idle connection for long. A connection is "idle" until its request's headers are
// complete (a silent or byte-dripping one stays idle), and again once its answer is sent.
// Only when every connection is busy answering is a newcomer refused.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { Server as TlsServer } from 'node:tls';

export interface ConnectionLimits {
  /** Open connections in all; file descriptors and memory are cheap at this size. */
  total: number;
  /** Open connections from one remote address. */
  perAddress: number;
}

interface Tracked {
  address: string;
  /** Requests whose answer is not finished yet. */
  busy: number;
}

export function guardConnections(server: Server, limits: ConnectionLimits): void {
  // In order of last activity (a connection moves to the end when it finishes an answer):
  // the first idle entry is the one that has waited longest.
  const open = new Map<Socket, Tracked>();
  const byAddress = new Map<string, number>();

  const forget = (socket: Socket): void => {
    const tracked = open.get(socket);
    if (!tracked) return;
    open.delete(socket);
    const left = (byAddress.get(tracked.address) ?? 1) - 1;
    if (left > 0) byAddress.set(tracked.address, left);
    else byAddress.delete(tracked.address);
  };
  /** Closes the oldest idle connection that `from` accepts; false when there is none. */
  const evictOldestIdle = (from: (tracked: Tracked) => boolean): boolean => {
    for (const [socket, tracked] of open) {
      if (tracked.busy > 0 || !from(tracked)) continue;
      forget(socket);
      socket.destroy();
      return true;
    }
    return false;
  };
  const largestHolder = (): string | undefined => {
    let largest: string | undefined;
    for (const [address, count] of byAddress)
      if (largest === undefined || count > byAddress.get(largest)!) largest = address;
    return largest;
  };

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
    if ((byAddress.get(address) ?? 0) >= limits.perAddress && !evictOldestIdle((t) => t.address === address))
      return void socket.destroy();
    if (open.size >= limits.total) {
      const holder = largestHolder();
      if (!evictOldestIdle((t) => t.address === holder) && !evictOldestIdle(() => true)) return void socket.destroy();
    }
    open.set(socket, { address, busy: 0 });
    byAddress.set(address, (byAddress.get(address) ?? 0) + 1);
    const peer = tls ? peerOf(socket) : undefined;
    if (peer) rawByPeer.set(peer, socket);
    socket.once('close', () => {
      forget(socket);
      if (peer && rawByPeer.get(peer) === socket) rawByPeer.delete(peer);
    });
  });
  if (tls) {
    server.on('secureConnection', (secure: Socket) => {
      const raw = rawByPeer.get(peerOf(secure));
      if (!raw) return void secure.destroy(); // its TCP connection was closed meanwhile
      tlsToRaw.set(secure, raw);
      // Closing the TCP connection (an eviction) ends the TLS one over it; and the other way.
      raw.once('close', () => secure.destroy());
      secure.once('close', () => raw.destroy());
    });
  }

  server.on('request', (req, res) => {
    const socket = tlsToRaw.get(req.socket) ?? req.socket;
    const tracked = open.get(socket);
    if (!tracked) return;
    tracked.busy++;
    res.once('close', () => {
      tracked.busy--;
      // Still open (keep-alive): it starts waiting again, as the newest.
      if (open.delete(socket)) open.set(socket, tracked);
    });
  });
}
