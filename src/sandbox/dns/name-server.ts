// The sandbox's authoritative name server: UDP and TCP on one port. Each packet gets a
// bounded amount of work (one question, a size cap, no zone transfers); UDP answers larger
// than 512 bytes (or the client's EDNS size) go out truncated, so clients retry over TCP.
import type { Socket as UdpSocket } from 'node:dgram';
import type { AddressInfo, Server as TcpServer, Socket } from 'node:net';
import { DnsError } from '../../dns/errors.js';
import { decodeMessage, encodeMessage, type EncodeOptions } from '../../dns/message.js';
import { CLASS_IN, RCODE, rcodeName, typeName, type DnsMessage } from '../../dns/types.js';
import { moduleOf } from '../../lazy-import.js';
import type { SandboxModel } from '../model.js';
import { answerQuestion, ZoneCache, type NameServerAddress } from './zone-answers.js';

export interface NameServerOptions {
  model: SandboxModel;
  host: string;
  /** 0 picks a port free for both UDP and TCP. */
  port: number;
  /** One line per query. */
  log?: (line: string) => void;
}

export interface NameServer {
  port: number;
  close(): Promise<void>;
}

/** Queries longer than this are not read (a question with EDNS options is far smaller). */
const MAX_QUERY_BYTES = 4096;
/** The UDP size we offer in our OPT record, and the most we send over UDP whatever is asked. */
const OUR_EDNS_SIZE = 1232;
const CLASSIC_UDP_BYTES = 512;
const MAX_TCP_CONNECTIONS = 64;
const TCP_IDLE_MS = 10_000;
const MAX_UNREAD_BYTES = 256 * 1024;
/** Attempts to find a port free for UDP and TCP when asked for any port. */
const PORT_ATTEMPTS = 8;

export async function startNameServer(options: NameServerOptions): Promise<NameServer> {
  const { isIP } = await moduleOf(import('node:net'));
  const family = isIP(options.host) === 6 ? 6 : 4;
  const nsAddress: NameServerAddress = glueFor(options.host, family);
  const zones = new ZoneCache(nsAddress);
  const respond = (packet: Buffer, transport: 'udp' | 'tcp') => answerPacket(packet, transport, (q) => answerQuestion(options.model, q.name, q.type, zones), options.log);

  for (let attempt = 1; ; attempt++) {
    const udp = await bindUdp(options.host, options.port, family, respond);
    const port = (udp.address() as AddressInfo).port;
    try {
      const tcp = await listenTcp(options.host, port, respond);
      return {
        port,
        close: async () => {
          await Promise.all([new Promise<void>((r) => udp.close(() => r())), new Promise<void>((r) => tcp.server.close(() => r()))]);
          for (const socket of tcp.sockets) socket.destroy();
        },
      };
    } catch (error) {
      udp.close();
      // A port picked for UDP may be taken for TCP: pick another, a few times.
      if (options.port !== 0 || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= PORT_ATTEMPTS) throw error;
    }
  }
}

/** The address the synthesised `ns1.<zone>` has: the listen address, loopback for a wildcard. */
function glueFor(host: string, family: 4 | 6): NameServerAddress {
  if (family === 6) return { AAAA: host === '::' ? '::1' : host };
  return { A: host === '0.0.0.0' || !/^\d+\.\d+\.\d+\.\d+$/.test(host) ? '127.0.0.1' : host };
}

async function bindUdp(host: string, port: number, family: 4 | 6, respond: (packet: Buffer, transport: 'udp') => Buffer | undefined): Promise<UdpSocket> {
  const dgram = await moduleOf(import('node:dgram'));
  const socket = dgram.createSocket({ type: family === 6 ? 'udp6' : 'udp4' });
  socket.on('message', (packet, peer) => {
    const answer = respond(packet, 'udp');
    if (answer) socket.send(answer, peer.port, peer.address);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, host, () => {
      socket.off('error', reject);
      // A send to a vanished client must not stop the server.
      socket.on('error', () => undefined);
      resolve();
    });
  });
  return socket;
}

async function listenTcp(host: string, port: number, respond: (packet: Buffer, transport: 'tcp') => Buffer | undefined): Promise<{ server: TcpServer; sockets: Set<Socket> }> {
  const net = await moduleOf(import('node:net'));
  const sockets = new Set<Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.setTimeout(TCP_IDLE_MS, () => socket.destroy());
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      // Several queries may come on one connection (RFC 7766); the 2-byte length bounds each.
      while (pending.length >= 2 && pending.length >= 2 + pending.readUInt16BE(0)) {
        const query = pending.subarray(2, 2 + pending.readUInt16BE(0));
        pending = pending.subarray(2 + query.length);
        const answer = respond(query, 'tcp');
        // A client that sends queries but does not read the answers is not served further.
        if (!answer || socket.writableLength > MAX_UNREAD_BYTES) return void socket.destroy();
        const prefix = Buffer.alloc(2);
        prefix.writeUInt16BE(answer.length);
        socket.write(Buffer.concat([prefix, answer]));
      }
    });
  });
  server.maxConnections = MAX_TCP_CONNECTIONS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return { server, sockets };
}

/**
 * The bytes to send back for one query packet, or undefined to stay silent (not a query, or
 * too broken to answer). Pure apart from `answer` and `log`: tests and the bench call it directly.
 */
export function answerPacket(packet: Buffer, transport: 'udp' | 'tcp', answer: (q: { name: string; type: number }) => ReturnType<typeof answerQuestion>, log?: (line: string) => void): Buffer | undefined {
  if (packet.length < 12 || packet.length > MAX_QUERY_BYTES) return undefined;
  const id = packet.readUInt16BE(0);
  const flags = packet.readUInt16BE(2);
  if (flags & 0x8000) return undefined; // a response: answering it could start a loop
  const recursionDesired = Boolean(flags & 0x0100);
  const fail = (rcode: number, questions: DnsMessage['questions'] = []) => encodeMessage({ id, response: true, recursionDesired, rcode, questions });
  let query: DnsMessage;
  try {
    query = decodeMessage(packet);
  } catch (error) {
    if (error instanceof DnsError) return fail(RCODE.FORMERR);
    throw error;
  }
  const question = query.questions[0];
  if (query.opcode !== 0) return fail(RCODE.NOTIMP, query.questions.slice(0, 1));
  if (query.questions.length !== 1 || !question) return fail(RCODE.FORMERR);
  const edns = query.ednsUdpSize === undefined ? {} : { ednsUdpSize: OUR_EDNS_SIZE };
  const base: EncodeOptions = { id, response: true, recursionDesired, questions: [question], ...edns };
  // Zone transfers (IXFR 251, AXFR 252) and other classes are not served.
  if (question.class !== CLASS_IN || question.type === 251 || question.type === 252) return encodeMessage({ ...base, rcode: RCODE.REFUSED });

  const result = answer(question);
  const full: EncodeOptions = { ...base, authoritative: result.authoritative, rcode: result.rcode, answers: result.answers, authority: result.authority, additional: result.additional };
  const limit = transport === 'tcp' ? 65535 : Math.min(OUR_EDNS_SIZE, Math.max(CLASSIC_UDP_BYTES, query.ednsUdpSize ?? CLASSIC_UDP_BYTES));
  let bytes: Buffer;
  let truncated = false;
  try {
    bytes = encodeMessage(full);
    if (bytes.length > limit) {
      // The header and question only, TC set: the client asks again over TCP (RFC 7766).
      bytes = encodeMessage({ ...base, authoritative: result.authoritative, rcode: result.rcode, truncated: true });
      truncated = true;
    }
  } catch (error) {
    if (!(error instanceof DnsError)) throw error;
    bytes = encodeMessage({ ...base, rcode: RCODE.SERVFAIL });
  }
  log?.(`DNS ${transport} ${question.name} ${typeName(question.type)} -> ${rcodeName(result.rcode)} ${result.answers.length} answer${result.answers.length === 1 ? '' : 's'}${truncated ? ' (truncated)' : ''}`);
  return bytes;
}
