// A minimal authoritative DNS server over UDP on 127.0.0.1, enough for the DNS-based
// address sources: answers A, AAAA and TXT questions from a fixed table.
import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { toBigInt } from '../../src/ip/address.js';

export interface DnsAnswers {
  A?: Record<string, string>;
  AAAA?: Record<string, string>;
  TXT?: Record<string, string>;
}

const TYPES: Record<number, keyof DnsAnswers> = { 1: 'A', 28: 'AAAA', 16: 'TXT' };

export async function startDnsServer(answers: DnsAnswers): Promise<{ server: string; close(): Promise<void> }> {
  const socket = dgram.createSocket('udp4');
  socket.on('message', (query, peer) => {
    let offset = 12;
    const labels: string[] = [];
    while (query[offset]! > 0) {
      labels.push(query.subarray(offset + 1, offset + 1 + query[offset]!).toString());
      offset += query[offset]! + 1;
    }
    const questionEnd = offset + 5;
    const type = TYPES[query.readUInt16BE(offset + 1)];
    const name = labels.join('.').toLowerCase();
    const value = type ? answers[type]?.[name] : undefined;
    const header = Buffer.from(query.subarray(0, 12));
    header.writeUInt16BE(value ? 0x8400 : 0x8403, 2); // response, authoritative; NXDOMAIN when unknown
    header.writeUInt16BE(value ? 1 : 0, 6);
    header.writeUInt16BE(0, 8);
    header.writeUInt16BE(0, 10);
    const parts: Buffer[] = [header, Buffer.from(query.subarray(12, questionEnd))];
    if (value && type) {
      let data: Buffer;
      if (type === 'A') data = Buffer.from(value.split('.').map(Number));
      else if (type === 'AAAA') data = Buffer.from(toBigInt(value)!.toString(16).padStart(32, '0'), 'hex');
      else data = Buffer.concat([Buffer.from([value.length]), Buffer.from(value)]);
      const record = Buffer.alloc(12);
      record.writeUInt16BE(0xc00c, 0);
      record.writeUInt16BE(query.readUInt16BE(offset + 1), 2);
      record.writeUInt16BE(1, 4);
      record.writeUInt32BE(60, 6);
      record.writeUInt16BE(data.length, 10);
      parts.push(record, data);
    }
    socket.send(Buffer.concat(parts), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address() as AddressInfo;
  return { server: `127.0.0.1:${port}`, close: () => new Promise((resolve) => socket.close(() => resolve())) };
}
