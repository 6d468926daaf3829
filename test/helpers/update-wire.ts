// UPDATE messages (RFC 2136) byte by byte, for tests that must send what the codec would not
// write: any class and TTL on a record, records with no data, counts that lie. Names are
// written uncompressed, as the clients whose shapes the fixtures copy write them.
import { ednsOf, optRecord } from '../../src/dns/wire/edns.js';
import { decodeMessage } from '../../src/dns/wire/message.js';
import { nameToLabels, readName } from '../../src/dns/wire/names.js';
import { findTsig, signMessage, type TsigKey } from '../../src/dns/wire/tsig.js';

export const CLASS = { IN: 1, CH: 3, NONE: 254, ANY: 255 } as const;
export const TYPE = { A: 1, NS: 2, CNAME: 5, SOA: 6, TXT: 16, AAAA: 28, OPT: 41, AXFR: 252, ANY: 255 } as const;

function wireName(name: string): Buffer {
  const labels = name === '.' || name === '' ? [] : nameToLabels(name);
  return Buffer.concat([...labels.flatMap((l) => [Buffer.from([l.length]), l]), Buffer.from([0])]);
}

/** One resource record: owner, type, class, TTL and data (none by default). */
export function rr(name: string, type: number, klass: number, ttl: number, data: Buffer = Buffer.alloc(0)): Buffer {
  const fixed = Buffer.alloc(10);
  fixed.writeUInt16BE(type, 0);
  fixed.writeUInt16BE(klass, 2);
  fixed.writeUInt32BE(ttl, 4);
  fixed.writeUInt16BE(data.length, 8);
  return Buffer.concat([wireName(name), fixed, data]);
}

export const txtData = (...strings: string[]): Buffer =>
  Buffer.concat(strings.flatMap((s) => [Buffer.from([Buffer.byteLength(s)]), Buffer.from(s)]));
export const aData = (ip: string): Buffer => Buffer.from(ip.split('.').map(Number));

export interface UpdateShape {
  id?: number;
  zone?: string;
  zoneClass?: number;
  zoneType?: number;
  /** Zone section entries, each a whole question (defaults to the one zone). */
  zones?: Buffer[];
  prerequisites?: Buffer[];
  updates?: Buffer[];
  additional?: Buffer[];
  /** Adds an OPT record (EDNS0, this UDP size) last in the additional section. */
  edns?: number;
  /** Overrides the header's four counts (counts that lie). */
  counts?: [number, number, number, number];
}

export function question(name: string, type: number, klass: number): Buffer {
  const tail = Buffer.alloc(4);
  tail.writeUInt16BE(type, 0);
  tail.writeUInt16BE(klass, 2);
  return Buffer.concat([wireName(name), tail]);
}

export function updateMessage(shape: UpdateShape): Buffer {
  const zones = shape.zones ?? [
    question(shape.zone ?? 'example.com', shape.zoneType ?? TYPE.SOA, shape.zoneClass ?? CLASS.IN),
  ];
  const prerequisites = shape.prerequisites ?? [];
  const updates = shape.updates ?? [];
  const additional = [...(shape.additional ?? []), ...(shape.edns ? [optRecord({ udpSize: shape.edns })] : [])];
  const header = Buffer.alloc(12);
  header.writeUInt16BE(shape.id ?? 0x5151, 0);
  header.writeUInt16BE(5 << 11, 2);
  const counts = shape.counts ?? [zones.length, prerequisites.length, updates.length, additional.length];
  for (const [i, n] of counts.entries()) header.writeUInt16BE(n, 4 + i * 2);
  return Buffer.concat([header, ...zones, ...prerequisites, ...updates, ...additional]);
}

export const signed = (
  message: Buffer,
  key: TsigKey,
  timeSigned = Math.floor(Date.now() / 1000),
  fudge = 300,
): Buffer => signMessage(message, key, undefined, { timeSigned, fudge }).message;

/** The signed message with its TSIG's MAC replaced by `mac` (a truncated or lengthened one). */
export function withMac(packet: Buffer, mac: Buffer): Buffer {
  const tsig = findTsig(packet)!;
  const owner = readName(packet, tsig.offset).next;
  const rdataStart = owner + 10;
  const macSizeAt = readName(packet, rdataStart).next + 8;
  const macEnd = macSizeAt + 2 + packet.readUInt16BE(macSizeAt);
  const size = Buffer.alloc(2);
  size.writeUInt16BE(mac.length);
  const out = Buffer.concat([packet.subarray(0, macSizeAt), size, mac, packet.subarray(macEnd)]);
  out.writeUInt16BE(out.length - rdataStart, owner + 8);
  return out;
}

/** What a test looks at in an answer: the full RCODE, the EDE code (if any), the TSIG error and MAC size (if signed). */
export function outcome(bytes: Buffer): {
  id: number;
  rcode: number;
  ede?: number;
  edeText?: string;
  tsigError?: number;
  macBytes?: number;
} {
  const message = decodeMessage(bytes);
  const edns = ednsOf(message);
  const opt = message.additional.find((r) => r.type === 'OPT');
  const rcode = (((opt?.ttl ?? 0) >>> 24) << 4) | message.rcode;
  const ede = edns?.options.get(15);
  const tsig = findTsig(bytes);
  return {
    id: message.id,
    rcode,
    ...(ede ? { ede: ede.readUInt16BE(0), edeText: ede.subarray(2).toString('utf8') } : {}),
    ...(tsig ? { tsigError: tsig.error, macBytes: tsig.mac.length } : {}),
  };
}
