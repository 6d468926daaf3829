// Small DNS clients for server tests, written with the project's codec: a UDP query that keeps
// the raw answer (to see its size and flags), a TCP exchange, and the EDNS options a server sent.
import dgram from 'node:dgram';
import net from 'node:net';
import { decodeMessage, encodeMessage } from '../../src/dns/wire/message.js';
import type { DnsMessage } from '../../src/dns/wire/types.js';
import { ednsOf, optRecord } from '../../src/dns/wire/edns.js';
import { appendAdditional } from '../../src/dns/wire/edns.js';

export interface QueryShape {
  name: string;
  type: number;
  id?: number;
  /** Adds an OPT record with this UDP size. */
  edns?: number;
  ednsVersion?: number;
  cookie?: Buffer;
}

/** A query packet; with `edns`, an OPT carrying the cookie option when given. */
export function queryPacket(q: QueryShape): Buffer {
  const bare = encodeMessage({ id: q.id ?? 4242, questions: [{ name: q.name, type: q.type, class: 1 }] });
  if (q.edns === undefined) return bare;
  const opt = optRecord({ udpSize: q.edns, options: q.cookie ? [{ code: 10, data: q.cookie }] : [] });
  if (q.ednsVersion) opt.writeUInt8(q.ednsVersion, 6);
  return appendAdditional(bare, opt);
}

/** Sends one datagram and resolves with the first answer's bytes (rejects after `ms`). */
export function udpExchange(port: number, packet: Buffer, ms = 3000): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket('udp4');
    const timer = setTimeout(() => {
      socket.close();
      reject(new Error('no UDP answer'));
    }, ms);
    socket.on('message', (m) => {
      clearTimeout(timer);
      socket.close();
      resolve(m);
    });
    socket.send(packet, port, '127.0.0.1');
  });
}

/**
 * One UDP socket for several messages: they go out in the order asked (the server takes them in
 * that order), and each answer goes to the ask with its message ID.
 */
export function udpClient(port: number): { ask(packet: Buffer): Promise<Buffer>; close(): void } {
  const socket = dgram.createSocket('udp4');
  const waiting = new Map<number, (answer: Buffer) => void>();
  socket.on('message', (answer) => waiting.get(answer.readUInt16BE(0))?.(answer));
  return {
    ask: (packet) =>
      new Promise<Buffer>((resolve) => {
        waiting.set(packet.readUInt16BE(0), resolve);
        socket.send(packet, port, '127.0.0.1');
      }),
    close: () => socket.close(),
  };
}

/** Sends framed messages on one TCP connection and resolves with `count` framed answers. */
export function tcpExchange(port: number, packets: Buffer[], count = packets.length, ms = 5000): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const got: Buffer[] = [];
    let pending = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`TCP: ${got.length} of ${count} answers`));
    }, ms);
    socket.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 2 && pending.length >= 2 + pending.readUInt16BE(0)) {
        got.push(pending.subarray(2, 2 + pending.readUInt16BE(0)));
        pending = pending.subarray(2 + pending.readUInt16BE(0));
      }
      if (got.length >= count) {
        clearTimeout(timer);
        socket.end();
        resolve(got);
      }
    });
    socket.on('connect', () => {
      for (const p of packets) {
        const prefix = Buffer.alloc(2);
        prefix.writeUInt16BE(p.length);
        socket.write(Buffer.concat([prefix, p]));
      }
    });
  });
}

/** The answer decoded, with the cookie option the server sent (if any). */
export function readAnswer(bytes: Buffer): DnsMessage & { cookie?: Buffer } {
  const message = decodeMessage(bytes);
  const cookie = ednsOf(message)?.options.get(10);
  return cookie ? { ...message, cookie } : message;
}
