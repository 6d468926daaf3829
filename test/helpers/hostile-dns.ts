// A scriptable DNS server on 127.0.0.1 (UDP and TCP on one port) for client tests: each
// handler gets the decoded query and returns the bytes to send back (or nothing, to stay
// silent). It stops by itself after `lifetimeMs` if a test forgets to close it.
import dgram from 'node:dgram';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { decodeMessage, encodeMessage } from '../../src/dns/wire/message.js';
import type { DnsMessage, DnsRecord } from '../../src/dns/wire/types.js';

export type Reply = (
  query: DnsMessage,
  raw: Buffer,
) => Buffer | Buffer[] | undefined | Promise<Buffer | Buffer[] | undefined>;

export interface HostileDns {
  host: string;
  port: number;
  udpQueries: number;
  tcpQueries: number;
  close(): Promise<void>;
}

/** A normal answer to a query, with the given records; `patch` changes fields before encoding. */
export function answerTo(
  query: DnsMessage,
  answers: DnsRecord[],
  patch: Partial<Parameters<typeof encodeMessage>[0]> = {},
): Buffer {
  return encodeMessage({
    id: query.id,
    response: true,
    authoritative: true,
    questions: query.questions,
    answers,
    ...patch,
  });
}

/** `closeTcp`: end the connection after the TCP handler's bytes (a server that hangs up mid-answer). */
export async function startHostileDns(
  handlers: { udp?: Reply; tcp?: Reply; closeTcp?: boolean },
  lifetimeMs = 15_000,
): Promise<HostileDns> {
  const sockets = new Set<net.Socket>();
  const state = { udpQueries: 0, tcpQueries: 0 };
  const onTcp = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffered = Buffer.alloc(0);
    socket.on('data', async (chunk) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length < 2 || buffered.length < 2 + buffered.readUInt16BE(0)) return;
      const raw = buffered.subarray(2, 2 + buffered.readUInt16BE(0));
      buffered = Buffer.alloc(0);
      state.tcpQueries++;
      const out = await handlers.tcp?.(decodeMessage(raw), raw);
      // A handler's bytes are sent as they are: framing them (or not) is part of the test.
      for (const packet of out === undefined ? [] : Array.isArray(out) ? out : [out]) socket.write(packet);
      if (handlers.closeTcp) socket.end();
    });
  };
  // The UDP port is picked first; on a busy machine TCP may hold it already: try another, a few times.
  let udp: dgram.Socket;
  let tcp: net.Server;
  let port: number;
  for (let attempt = 1; ; attempt++) {
    udp = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
    port = (udp.address() as AddressInfo).port;
    tcp = net.createServer(onTcp);
    const listening = await new Promise<boolean>((resolve, reject) => {
      tcp.once('error', (error: NodeJS.ErrnoException) =>
        error.code === 'EADDRINUSE' && attempt < 8 ? resolve(false) : reject(error),
      );
      tcp.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (listening) break;
    await new Promise<void>((resolve) => udp.close(() => resolve()));
  }
  udp.on('message', async (raw, peer) => {
    state.udpQueries++;
    const out = await handlers.udp?.(decodeMessage(raw), raw);
    for (const packet of out === undefined ? [] : Array.isArray(out) ? out : [out])
      udp.send(packet, peer.port, peer.address);
  });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    clearTimeout(lifetime);
    for (const socket of sockets) socket.destroy();
    await Promise.all([new Promise<void>((r) => udp.close(() => r())), new Promise<void>((r) => tcp.close(() => r()))]);
  };
  const lifetime = setTimeout(close, lifetimeMs);
  lifetime.unref();
  return {
    host: '127.0.0.1',
    port,
    get udpQueries() {
      return state.udpQueries;
    },
    get tcpQueries() {
      return state.tcpQueries;
    },
    close,
  };
}

/** Frames a message for TCP (the 2-byte length before it). */
export function framed(message: Buffer): Buffer {
  const prefix = Buffer.alloc(2);
  prefix.writeUInt16BE(message.length);
  return Buffer.concat([prefix, message]);
}
