// EDNS(0) for the server side (RFC 6891): what a query's OPT record asks for (payload size,
// version, options such as a DNS cookie), and an OPT record for the answer with the options a
// server adds (a cookie, RFC 7873; an Extended DNS Error, RFC 8914) and the upper bits of an
// extended RCODE. The codec (message.ts) writes only a bare OPT; answers are built here.
import { TYPE_CODES, type DnsMessage } from './types.js';

export const OPTION = { COOKIE: 10, EDE: 15 } as const;

/** Extended DNS Error codes used here (RFC 8914 section 4). */
export const EDE = {
  OTHER: 0,
  NOT_READY: 14,
  BLOCKED: 15,
  CENSORED: 16,
  FILTERED: 17,
  PROHIBITED: 18,
  NOT_AUTHORITATIVE: 20,
  NOT_SUPPORTED: 21,
  NETWORK_ERROR: 23,
  INVALID_DATA: 24,
} as const;

export interface QueryEdns {
  udpSize: number;
  version: number;
  /** Options by code, each the data of its first occurrence. */
  options: Map<number, Buffer>;
}

/** The query's EDNS, or undefined without an OPT record. */
export function ednsOf(message: DnsMessage): QueryEdns | undefined {
  const opt = message.additional.find((r) => r.type === 'OPT');
  if (!opt || message.ednsUdpSize === undefined) return undefined;
  const options = new Map<number, Buffer>();
  const data = Buffer.from(opt.value as string, 'hex');
  // Option data that does not fill its length is ignored from there on, not an error: the rest of the query is still
  // answerable.
  for (let at = 0; at + 4 <= data.length; ) {
    const code = data.readUInt16BE(at);
    const length = data.readUInt16BE(at + 2);
    if (at + 4 + length > data.length) break;
    if (!options.has(code)) options.set(code, data.subarray(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return { udpSize: message.ednsUdpSize, version: (opt.ttl >>> 16) & 0xff, options };
}

export interface AnswerOpt {
  udpSize: number;
  /** The full 12-bit RCODE; its upper 8 bits go in the OPT record. */
  rcode?: number;
  options?: { code: number; data: Buffer }[];
}

/** The bytes of an OPT record (owner: root). */
export function optRecord(opt: AnswerOpt): Buffer {
  const options = opt.options ?? [];
  const rdata = Buffer.concat(options.map(({ code, data }) => Buffer.concat([u16(code), u16(data.length), data])));
  const head = Buffer.alloc(11);
  head.writeUInt8(0, 0);
  head.writeUInt16BE(TYPE_CODES.OPT, 1);
  head.writeUInt16BE(opt.udpSize, 3);
  head.writeUInt8(((opt.rcode ?? 0) >> 4) & 0xff, 5); // extended RCODE; version 0 and no flags follow
  head.writeUInt16BE(rdata.length, 9);
  return Buffer.concat([head, rdata]);
}

/** An Extended DNS Error option: the code and a short text saying why (never a secret). */
export function edeOption(infoCode: number, text: string): { code: number; data: Buffer } {
  return { code: OPTION.EDE, data: Buffer.concat([u16(infoCode), Buffer.from(text.slice(0, 200), 'utf8')]) };
}

/** Appends records already in wire form to the additional section of an encoded message. */
export function appendAdditional(message: Buffer, ...records: Buffer[]): Buffer {
  if (!records.length) return message;
  const out = Buffer.concat([message, ...records]);
  out.writeUInt16BE(out.readUInt16BE(10) + records.length, 10);
  return out;
}

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
}
