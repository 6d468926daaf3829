// Whole DNS messages (RFC 1035 4.1) to and from bytes. Decoding checks every length against
// the bytes there are before reading, so counts larger than the packet, cut-off records and
// record data that does not fill its length are refused, never read past.
import { canonicalAddress, familyOfAddress, ipv4Bytes, toBigInt } from '../../lib/address.js';
import { DnsWireError } from './errors.js';
import { readName, WireWriter } from './names.js';
import {
  CLASS_IN,
  TYPE_CODES,
  typeName,
  type DnsMessage,
  type DnsQuestion,
  type DnsRecord,
  type SoaValue,
} from './types.js';

const HEADER_BYTES = 12;
/** The smallest question (root name, type, class) and record (root name, type, class, TTL, length). */
const MIN_QUESTION_BYTES = 5;
const MIN_RECORD_BYTES = 11;

export function decodeMessage(packet: Buffer): DnsMessage {
  if (packet.length < HEADER_BYTES)
    throw new DnsWireError(`a ${packet.length}-byte message is shorter than a DNS header`);
  const flags = packet.readUInt16BE(2);
  const counts = [4, 6, 8, 10].map((at) => packet.readUInt16BE(at)) as [number, number, number, number];
  const [qd, an, ns, ar] = counts;
  if (qd * MIN_QUESTION_BYTES + (an + ns + ar) * MIN_RECORD_BYTES > packet.length - HEADER_BYTES) {
    throw new DnsWireError(
      `the section counts (${counts.join('/')}) are larger than the ${packet.length}-byte message`,
    );
  }
  let offset = HEADER_BYTES;
  const questions: DnsQuestion[] = [];
  for (let i = 0; i < qd; i++) {
    const { name, next } = readName(packet, offset);
    if (next + 4 > packet.length) throw new DnsWireError('a question is cut off');
    questions.push({ name, type: packet.readUInt16BE(next), class: packet.readUInt16BE(next + 2) });
    offset = next + 4;
  }
  let ednsUdpSize: number | undefined;
  const section = (count: number): DnsRecord[] => {
    const records: DnsRecord[] = [];
    for (let i = 0; i < count; i++) {
      const { name, type, klass, ttl, start, end } = readRecordHead(packet, offset);
      if (type === TYPE_CODES.OPT) ednsUdpSize = Math.max(512, klass);
      records.push({ name, ttl, ...decodeData(packet, type, start, end) } as DnsRecord);
      offset = end;
    }
    return records;
  };
  const answers = section(an);
  const authority = section(ns);
  const additional = section(ar);
  return {
    id: packet.readUInt16BE(0),
    response: Boolean(flags & 0x8000),
    opcode: (flags >> 11) & 0xf,
    authoritative: Boolean(flags & 0x0400),
    truncated: Boolean(flags & 0x0200),
    recursionDesired: Boolean(flags & 0x0100),
    recursionAvailable: Boolean(flags & 0x0080),
    rcode: flags & 0xf,
    questions,
    answers,
    authority,
    additional,
    ...(ednsUdpSize === undefined ? {} : { ednsUdpSize }),
  };
}

/** A TXT record's character-strings, each within the data. */
function txtStrings(data: Buffer): string[] {
  const strings: string[] = [];
  for (let at = 0; at < data.length; ) {
    const length = data[at]!;
    if (at + 1 + length > data.length) throw new DnsWireError('a TXT string runs past its record');
    strings.push(data.subarray(at + 1, at + 1 + length).toString('utf8'));
    at += 1 + length;
  }
  return strings;
}

/** An SOA record's two names and five numbers, which end its data exactly. */
function soaValue(
  packet: Buffer,
  start: number,
  end: number,
  nameAt: (at: number) => { name: string; next: number },
): SoaValue {
  const mname = nameAt(start);
  const rname = nameAt(mname.next);
  if (end - rname.next !== 20) throw new DnsWireError('an SOA record does not end with its five numbers');
  const n = (i: number) => packet.readUInt32BE(rname.next + i * 4);
  return {
    mname: mname.name,
    rname: rname.name,
    serial: n(0),
    refresh: n(1),
    retry: n(2),
    expire: n(3),
    minimum: n(4),
  };
}

/** The data of one record (exported for readers that keep each record's class, as UPDATE needs). */
export function decodeData(
  packet: Buffer,
  type: number,
  start: number,
  end: number,
): Pick<DnsRecord, 'type' | 'value'> {
  const data = packet.subarray(start, end);
  const need = (n: number) => {
    if (data.length !== n)
      throw new DnsWireError(`a ${typeName(type)} record has ${data.length} bytes of data, not ${n}`);
  };
  /** A name inside the data, which must end inside it. */
  const nameAt = (at: number) => {
    const read = readName(packet, at);
    if (read.next > end) throw new DnsWireError(`a name in a ${typeName(type)} record runs past its data`);
    return read;
  };
  const nameOnly = () => {
    const { name, next } = nameAt(start);
    if (next !== end) throw new DnsWireError(`a ${typeName(type)} record has bytes after its name`);
    return name;
  };
  switch (type) {
    case TYPE_CODES.A:
      need(4);
      return { type: 'A', value: Array.from(data).join('.') };
    case TYPE_CODES.AAAA: {
      need(16);
      const groups = Array.from({ length: 8 }, (_, i) => data.readUInt16BE(i * 2).toString(16));
      return { type: 'AAAA', value: canonicalAddress(groups.join(':')) };
    }
    case TYPE_CODES.CNAME:
      return { type: 'CNAME', value: nameOnly() };
    case TYPE_CODES.NS:
      return { type: 'NS', value: nameOnly() };
    case TYPE_CODES.PTR:
      return { type: 'PTR', value: nameOnly() };
    case TYPE_CODES.MX: {
      if (data.length < 3) throw new DnsWireError('an MX record is too short');
      const { name, next } = nameAt(start + 2);
      if (next !== end) throw new DnsWireError('an MX record has bytes after its name');
      return { type: 'MX', value: { preference: data.readUInt16BE(0), exchange: name } };
    }
    case TYPE_CODES.TXT:
      return { type: 'TXT', value: txtStrings(data) };
    case TYPE_CODES.SRV: {
      if (data.length < 7) throw new DnsWireError('an SRV record is too short');
      const { name, next } = nameAt(start + 6);
      if (next !== end) throw new DnsWireError('an SRV record has bytes after its name');
      return {
        type: 'SRV',
        value: {
          priority: data.readUInt16BE(0),
          weight: data.readUInt16BE(2),
          port: data.readUInt16BE(4),
          target: name,
        },
      };
    }
    case TYPE_CODES.SOA:
      return { type: 'SOA', value: soaValue(packet, start, end, nameAt) };
    case TYPE_CODES.CAA: {
      const tagLength = data[1];
      if (tagLength === undefined || 2 + tagLength > data.length)
        throw new DnsWireError('a CAA record is too short for its tag');
      return {
        type: 'CAA',
        value: {
          flags: data[0]!,
          tag: data.subarray(2, 2 + tagLength).toString('latin1'),
          value: data.subarray(2 + tagLength).toString('utf8'),
        },
      };
    }
    case TYPE_CODES.OPT:
      return { type: 'OPT', value: data.toString('hex') };
    default:
      return { type: `TYPE${type}`, value: data.toString('hex') };
  }
}

export interface EncodeOptions {
  id: number;
  response?: boolean;
  opcode?: number;
  authoritative?: boolean;
  truncated?: boolean;
  recursionDesired?: boolean;
  recursionAvailable?: boolean;
  rcode?: number;
  questions: DnsQuestion[];
  answers?: DnsRecord[];
  authority?: DnsRecord[];
  additional?: DnsRecord[];
  /** Adds an OPT record advertising this UDP payload size (EDNS0). */
  ednsUdpSize?: number;
  maxBytes?: number;
}

export function encodeMessage(message: EncodeOptions): Buffer {
  const w = new WireWriter(message.maxBytes);
  w.u16(message.id);
  const bit = (on: boolean | undefined, mask: number) => (on ? mask : 0);
  w.u16(
    bit(message.response, 0x8000) |
      ((message.opcode ?? 0) << 11) |
      bit(message.authoritative, 0x0400) |
      bit(message.truncated, 0x0200) |
      bit(message.recursionDesired, 0x0100) |
      bit(message.recursionAvailable, 0x0080) |
      (message.rcode ?? 0),
  );
  const { answers = [], authority = [], additional = [] } = message;
  const edns = message.ednsUdpSize === undefined ? 0 : 1;
  for (const count of [message.questions.length, answers.length, authority.length, additional.length + edns])
    w.u16(count);
  for (const q of message.questions) {
    w.name(q.name);
    w.u16(q.type);
    w.u16(q.class);
  }
  for (const record of [...answers, ...authority, ...additional]) writeRecord(w, record);
  if (edns) {
    w.u8(0); // root
    w.u16(TYPE_CODES.OPT);
    w.u16(message.ednsUdpSize!);
    w.u32(0); // extended rcode 0, version 0, no DO bit
    w.u16(0);
  }
  return w.toBuffer();
}

export function typeCode(type: DnsRecord['type'] | 'ANY'): number {
  const known = (TYPE_CODES as Record<string, number>)[type];
  if (known !== undefined) return known;
  const numeric = /^TYPE(\d{1,5})$/.exec(type);
  if (numeric && Number(numeric[1]) <= 0xffff) return Number(numeric[1]);
  throw new DnsWireError(`unknown record type "${type}"`);
}

function writeRecord(w: WireWriter, record: DnsRecord): void {
  w.name(record.name);
  w.u16(typeCode(record.type));
  w.u16(CLASS_IN);
  w.u32(record.ttl);
  const lengthAt = w.length;
  w.u16(0);
  writeData(w, record);
  w.setU16(lengthAt, w.length - lengthAt - 2);
}

function writeData(w: WireWriter, record: DnsRecord): void {
  switch (record.type) {
    case 'A': {
      const bytes = ipv4Bytes(record.value);
      if (bytes) {
        w.bytes(bytes);
        return;
      }
      throw new DnsWireError(`"${record.value}" is not an IPv4 address`);
    }
    case 'AAAA': {
      if (familyOfAddress(record.value) !== 6) throw new DnsWireError(`"${record.value}" is not an IPv6 address`);
      const hex = toBigInt(record.value)!.toString(16).padStart(32, '0');
      w.bytes(Buffer.from(hex, 'hex'));
      return;
    }
    case 'CNAME':
    case 'NS':
    case 'PTR':
      w.name(record.value);
      return;
    case 'MX':
      w.u16(record.value.preference);
      w.name(record.value.exchange);
      return;
    case 'TXT':
      for (const text of record.value) {
        const bytes = Buffer.from(text, 'utf8');
        if (bytes.length > 255)
          throw new DnsWireError('a TXT string is longer than 255 bytes (split it with splitTxt)');
        w.u8(bytes.length);
        w.bytes(bytes);
      }
      return;
    case 'SRV':
      w.u16(record.value.priority);
      w.u16(record.value.weight);
      w.u16(record.value.port);
      w.name(record.value.target, false); // RFC 2782: no compression
      return;
    case 'SOA':
      w.name(record.value.mname);
      w.name(record.value.rname);
      for (const n of [
        record.value.serial,
        record.value.refresh,
        record.value.retry,
        record.value.expire,
        record.value.minimum,
      ])
        w.u32(n);
      return;
    case 'CAA': {
      const tag = Buffer.from(record.value.tag, 'latin1');
      if (!tag.length || tag.length > 255) throw new DnsWireError('a CAA tag must be 1 to 255 bytes');
      w.u8(record.value.flags);
      w.u8(tag.length);
      w.bytes(tag);
      w.bytes(Buffer.from(record.value.value, 'utf8'));
      return;
    }
    default:
      w.bytes(Buffer.from(record.value, 'hex'));
      return;
  }
}

/**
 * One resource record's owner, type, class, TTL and where its data lies (RFC 1035 §4.1.3), checked against the
 * message's end.
 */
export function readRecordHead(
  packet: Buffer,
  offset: number,
): { name: string; type: number; klass: number; ttl: number; start: number; end: number } {
  const { name, next } = readName(packet, offset);
  if (next + 10 > packet.length) throw new DnsWireError(`the record for "${name}" is cut off`);
  const type = packet.readUInt16BE(next);
  const start = next + 10;
  const end = start + packet.readUInt16BE(next + 8);
  if (end > packet.length)
    throw new DnsWireError(`the data of the ${typeName(type)} record for "${name}" runs past the end of the message`);
  return { name, type, klass: packet.readUInt16BE(next + 2), ttl: packet.readUInt32BE(next + 4), start, end };
}
