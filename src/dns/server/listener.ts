// A DNS server's sockets: UDP and TCP on one address and port, each message handed to `handle`
// with its transport and client address. UDP answers go back as one datagram; over TCP the
// answers (several for a zone transfer) are framed with their 2-byte length (RFC 1035 4.2.2),
// several messages may come on one connection (RFC 7766), and who may hold a connection is
// decided by tcp-connections.ts; how their messages share the server, by tcp-turns.ts.
import type { Socket as UdpSocket } from 'node:dgram';
import type { AddressInfo, Server as TcpServer, Socket } from 'node:net';
import { moduleOf } from '../../lib/lazy-import.js';
import type { QueryContext } from './responder.js';
import { DEFAULT_TCP_LIMITS, TcpConnections, type TcpLimits, type Tracked } from './tcp-connections.js';
import { TcpTurns } from './tcp-turns.js';

export type Answer = Buffer | Buffer[] | undefined;
type DnsHandler = (packet: Buffer, context: QueryContext) => Answer | Promise<Answer>;

export interface ListenerOptions {
  host: string;
  /** 0 picks a port free for both UDP and TCP. */
  port: number;
  handle: DnsHandler;
  tcpLimits?: Partial<TcpLimits>;
  /** A handler that throws is a bug: it is reported here and the message gets no answer. */
  onError?: (error: unknown) => void;
}

export interface DnsListener {
  port: number;
  /** Stops accepting; connections still open are closed. */
  close(): Promise<void>;
}

/** A client that sends but does not read is not served further. */
const MAX_UNREAD_BYTES = 256 * 1024;
/**
 * Messages one TCP connection may have taken in and not yet answered in full. RFC 7766 6.2.1.1
 * lets a client pipeline; clients that do (external-dns's rfc2136 batches, nsupdate, dig +keepopen,
 * a resolver's queries) have a handful to a few dozen outstanding, so 32 never holds them back,
 * while a peer pipelining thousands is answered 32 at a time as it reads.
 */
const MAX_IN_FLIGHT = 32;
/**
 * Answer bytes written to a connection but not yet taken by the kernel (the peer is not reading)
 * after which no further message is taken from it until they drain: 64 KiB holds a full-size
 * answer or dozens of ordinary ones, and bounds what 256 non-reading connections cost to 16 MiB.
 */
const MAX_QUEUED_BYTES = 64 * 1024;
/** A framed message's largest size: beyond it in the buffer, the connection stops being read. */
const MAX_MESSAGE_BYTES = 2 + 65_535;
/**
 * Asked of the kernel so a burst of queries waits in the socket rather than being dropped (capped by
 * net.core.rmem_max).
 */
const UDP_RECEIVE_BUFFER = 4 * 1024 * 1024;
/** Attempts to find a port free for UDP and TCP when asked for any port. */
const PORT_ATTEMPTS = 8;

export async function startDnsListener(options: ListenerOptions): Promise<DnsListener> {
  const { isIP } = await moduleOf(import('node:net'));
  const family = isIP(options.host) === 6 ? 6 : 4;
  const limits: TcpLimits = { ...DEFAULT_TCP_LIMITS, ...options.tcpLimits };
  const run = (packet: Buffer, context: QueryContext): Promise<Answer> => {
    try {
      return Promise.resolve(options.handle(packet, context)).catch((error: unknown) => {
        options.onError?.(error);
        return undefined;
      });
    } catch (error) {
      options.onError?.(error);
      return Promise.resolve(undefined);
    }
  };
  for (let attempt = 1; ; attempt++) {
    const udp = await bindUdp(options.host, options.port, family, options.handle, options.onError);
    const port = (udp.address() as AddressInfo).port;
    try {
      const tcp = await listenTcp(options.host, port, run, limits);
      return {
        port,
        close: async () => {
          await Promise.all([
            new Promise<void>((r) => udp.close(() => r())),
            new Promise<void>((r) => tcp.server.close(() => r())),
            Promise.resolve(tcp.connections.closeAll()),
          ]);
        },
      };
    } catch (error) {
      udp.close();
      // A port picked for UDP may be taken for TCP: pick another, a few times.
      if (options.port !== 0 || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= PORT_ATTEMPTS)
        throw error;
    }
  }
}

async function bindUdp(
  host: string,
  port: number,
  family: 4 | 6,
  handle: DnsHandler,
  onError?: (error: unknown) => void,
): Promise<UdpSocket> {
  const dgram = await moduleOf(import('node:dgram'));
  const socket = dgram.createSocket({ type: family === 6 ? 'udp6' : 'udp4' });
  const send = (answer: Answer, peer: { port: number; address: string }) => {
    const bytes = Array.isArray(answer) ? answer[0] : answer;
    if (bytes) socket.send(bytes, peer.port, peer.address);
  };
  socket.on('message', (packet, peer) => {
    try {
      const answer = handle(packet, { transport: 'udp', address: peer.address });
      // Queries are answered synchronously, in the same turn: no promise per packet on the hot path.
      if (answer instanceof Promise)
        answer.then(
          (a) => send(a, peer),
          (error: unknown) => onError?.(error),
        );
      else send(answer, peer);
    } catch (error) {
      onError?.(error);
    }
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, host, () => {
      socket.off('error', reject);
      // A send to a vanished client must not stop the server.
      socket.on('error', () => undefined);
      try {
        socket.setRecvBufferSize(UDP_RECEIVE_BUFFER);
      } catch {
        // The kernel's own size stays; bursts beyond it are dropped, as by any server.
      }
      resolve();
    });
  });
  return socket;
}

async function listenTcp(
  host: string,
  port: number,
  run: (packet: Buffer, context: QueryContext) => Promise<Answer>,
  limits: TcpLimits,
): Promise<{ server: TcpServer; connections: TcpConnections }> {
  const net = await moduleOf(import('node:net'));
  const connections = new TcpConnections(limits);
  const turns = new TcpTurns();
  const server = net.createServer((socket) => {
    const address = socket.remoteAddress ?? '';
    socket.on('error', () => undefined);
    if (!connections.admit(address)) return void socket.destroy();
    serveConnection(socket, connections.add(socket, address, Date.now()), run, limits, turns);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return { server, connections };
}

/**
 * Writes an answer's packets, each after its length. A zone transfer waits for the client to read;
 * a client that does not is dropped (false).
 */
async function sendPackets(socket: Socket, packets: Buffer[], tracked: Tracked, idleMs: number): Promise<boolean> {
  for (const packet of packets) {
    const prefix = Buffer.alloc(2);
    prefix.writeUInt16BE(packet.length);
    socket.write(Buffer.concat([prefix, packet]));
    if (socket.writableLength > MAX_UNREAD_BYTES) {
      if (!(await drained(socket, idleMs))) {
        socket.destroy();
        return false;
      }
      tracked.progressAt = Date.now();
    }
  }
  return true;
}

function serveConnection(
  socket: Socket,
  tracked: Tracked,
  run: (packet: Buffer, context: QueryContext) => Promise<Answer>,
  limits: TcpLimits,
  turns: TcpTurns,
): void {
  let pending: Buffer = Buffer.alloc(0);
  let queue = Promise.resolve();
  /** Messages taken off the socket whose answers are not yet all handed to the kernel. */
  let inFlight = 0;
  // One timer: the message deadline while a message is being read, the idle time between messages.
  let timer: NodeJS.Timeout | undefined;
  const arm = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(() => socket.destroy(), ms);
    timer.unref();
  };
  const wholeMessage = () => pending.length >= 2 && pending.length >= 2 + pending.readUInt16BE(0);
  const canTake = () =>
    !socket.destroyed && inFlight < MAX_IN_FLIGHT && socket.writableLength < MAX_QUEUED_BYTES && wholeMessage();
  // A connection with a whole message still buffered is not read further: a peer pipelining more
  // than it is answered is held back by the kernel's window, not by the server's memory.
  const pauseOrResume = () => {
    if (socket.destroyed) return;
    if (wholeMessage() || pending.length > MAX_MESSAGE_BYTES) socket.pause();
    else socket.resume();
  };
  // One message per turn (tcp-turns.ts), and only while this connection has room: at most
  // MAX_IN_FLIGHT messages, and MAX_QUEUED_BYTES of answers its peer has not read.
  const takeOne = (): boolean => {
    if (canTake()) {
      const message = Buffer.from(pending.subarray(2, 2 + pending.readUInt16BE(0)));
      pending = pending.subarray(2 + message.length);
      start(message);
    }
    const more = canTake();
    if (!more) pauseOrResume();
    return more;
  };
  const start = (message: Buffer) => {
    tracked.progressAt = Date.now();
    inFlight++;
    clearTimeout(timer);
    // Answers go out in the order the messages came (RFC 7766 allows either; order is simpler to reason about).
    queue = queue.then(async () => {
      try {
        if (socket.destroyed) return;
        // Busy (not to be evicted for a newcomer) only while the answer is being made, not while
        // it waits for the peer to read it: a peer that does not read must not hold its place.
        tracked.busy++;
        let answer: Answer;
        try {
          answer = await run(message, { transport: 'tcp', address: tracked.address });
        } finally {
          tracked.busy--;
        }
        if (socket.destroyed) return;
        const packets = answer === undefined ? [] : Array.isArray(answer) ? answer : [answer];
        if (!packets.length) return void socket.destroy();
        if (!(await sendPackets(socket, packets, tracked, limits.idleMs))) return;
      } finally {
        inFlight--;
      }
      tracked.progressAt = Date.now();
      if (socket.writableLength >= MAX_QUEUED_BYTES) {
        // The peer has not read the answers already sent: take nothing more until it does, and
        // close it when it does not within the idle time (a peer that never reads).
        if (!(await drained(socket, limits.idleMs))) return void socket.destroy();
        tracked.progressAt = Date.now();
      }
      if (!inFlight) arm(pending.length ? limits.messageMs : limits.idleMs);
      turns.request(takeOne);
    });
  };
  arm(limits.messageMs);
  socket.once('close', () => clearTimeout(timer));
  socket.on('data', (chunk: Buffer) => {
    const started = pending.length === 0;
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    // The deadline runs from the message's first byte: trickling bytes does not extend it.
    if (started && !inFlight) arm(limits.messageMs);
    if (wholeMessage()) {
      socket.pause();
      turns.request(takeOne);
    } else pauseOrResume();
  });
}

/** Resolves true once the socket's buffered bytes are sent, false after `ms` or when it closes. */
function drained(socket: Socket, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.off('drain', onDrain);
      socket.off('close', onClose);
      resolve(ok);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    const timer = setTimeout(() => done(false), ms);
    socket.once('drain', onDrain);
    socket.once('close', onClose);
  });
}
