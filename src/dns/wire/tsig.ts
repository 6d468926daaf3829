// TSIG (RFC 8945): HMAC signatures over whole DNS messages with a shared secret. Verifying a
// request reads the TSIG record at the end of the additional section and checks, in the RFC's
// order, the key (BADKEY), the MAC (BADSIG) and the time (BADTIME); signing an answer covers the
// request's MAC too, and a zone transfer's later messages cover the previous MAC (section 5.3.1).
// Secrets live in Buffers handed in by the caller and never appear in a message or an error.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { lowerName } from '../../lib/names.js';
import { DnsWireError } from './errors.js';
import { nameKey, nameToLabels, readName, skipName } from './names.js';

export const TSIG_TYPE = 250;
const CLASS_ANY = 255;

/** Algorithms by the names the keys file and dig use; each its HMAC hash and its wire name. */
export const TSIG_ALGORITHMS = {
  'hmac-md5': { hash: 'md5', wire: 'hmac-md5.sig-alg.reg.int', bytes: 16 },
  'hmac-sha1': { hash: 'sha1', wire: 'hmac-sha1', bytes: 20 },
  'hmac-sha224': { hash: 'sha224', wire: 'hmac-sha224', bytes: 28 },
  'hmac-sha256': { hash: 'sha256', wire: 'hmac-sha256', bytes: 32 },
  'hmac-sha384': { hash: 'sha384', wire: 'hmac-sha384', bytes: 48 },
  'hmac-sha512': { hash: 'sha512', wire: 'hmac-sha512', bytes: 64 },
} as const;
export type TsigAlgorithm = keyof typeof TSIG_ALGORITHMS;

/** TSIG error codes (RFC 8945 section 3). */
export const TSIG_ERROR = { NOERROR: 0, BADSIG: 16, BADKEY: 17, BADTIME: 18, BADTRUNC: 22 } as const;
/** The header RCODE of a TSIG failure. */
export const RCODE_NOTAUTH = 9;
export const DEFAULT_FUDGE = 300;

export interface TsigKey {
  /** The key's name, as a name key (lower case, no trailing dot). */
  name: string;
  algorithm: TsigAlgorithm;
  secret: Buffer;
}

/** A TSIG record read from a message, and where it starts. */
export interface TsigRecord {
  keyName: string;
  /** The algorithm's wire name, lower case. */
  algorithm: string;
  timeSigned: number;
  fudge: number;
  mac: Buffer;
  originalId: number;
  error: number;
  other: Buffer;
  /** The offset of the TSIG record: the signed message is the bytes before it. */
  offset: number;
}

export type TsigCheck =
  | { ok: true; key: TsigKey; tsig: TsigRecord }
  /** `key` is set when the key is known (BADTIME answers are signed with it). */
  | { ok: false; error: number; tsig: TsigRecord; key?: TsigKey };

export function algorithmOfWire(wire: string): TsigAlgorithm | undefined {
  const name = lowerName(wire);
  return (Object.keys(TSIG_ALGORITHMS) as TsigAlgorithm[]).find((a) => TSIG_ALGORITHMS[a].wire === name);
}

/**
 * The TSIG record of a message, undefined when it has none. Throws (a DnsWireError) when a
 * TSIG is anywhere but last in the additional section or cannot be read: FORMERR.
 */
export function findTsig(packet: Buffer): TsigRecord | undefined {
  const counts = [4, 6, 8, 10].map((at) => packet.readUInt16BE(at));
  let offset = 12;
  for (let i = 0; i < counts[0]!; i++) offset = skipName(packet, offset) + 4;
  const records = counts[1]! + counts[2]! + counts[3]!;
  for (let i = 0; i < records; i++) {
    const start = offset;
    // Owners are skipped, not read: only the TSIG's is (a message of thousands of records costs no more than its
    // bytes).
    const next = skipName(packet, offset);
    if (next + 10 > packet.length) throw wireError('a record is cut off');
    const type = packet.readUInt16BE(next);
    const end = next + 10 + packet.readUInt16BE(next + 8);
    if (end > packet.length) throw wireError('a record runs past the end of the message');
    if (type === TSIG_TYPE) {
      if (i !== records - 1 || counts[3] === 0) throw wireError('a TSIG record must be the last of the message');
      return readTsig(packet, readName(packet, start).name, start, next + 10, end);
    }
    offset = end;
  }
  return undefined;
}

function readTsig(packet: Buffer, keyName: string, offset: number, start: number, end: number): TsigRecord {
  const algorithm = readName(packet, start);
  let at = algorithm.next;
  const need = (n: number) => {
    if (at + n > end) throw wireError('a TSIG record is cut off');
  };
  need(10);
  const timeSigned = packet.readUInt16BE(at) * 2 ** 32 + packet.readUInt32BE(at + 2);
  const fudge = packet.readUInt16BE(at + 6);
  const macSize = packet.readUInt16BE(at + 8);
  at += 10;
  need(macSize + 6);
  const mac = Buffer.from(packet.subarray(at, at + macSize));
  at += macSize;
  const originalId = packet.readUInt16BE(at);
  const error = packet.readUInt16BE(at + 2);
  const otherSize = packet.readUInt16BE(at + 4);
  at += 6;
  need(otherSize);
  const other = Buffer.from(packet.subarray(at, at + otherSize));
  if (at + otherSize !== end) throw wireError('a TSIG record has bytes after its data');
  return {
    keyName: nameKey(keyName),
    algorithm: algorithm.name.toLowerCase(),
    timeSigned,
    fudge,
    mac,
    originalId,
    error,
    other,
    offset,
  };
}

/**
 * Checks a request's TSIG (RFC 8945 5.2): key, then MAC, then time, then truncation. Throws a
 * DnsWireError (FORMERR) for a MAC of a length RFC 8945 5.2.2.1 forbids.
 */
export function verifyRequest(
  packet: Buffer,
  tsig: TsigRecord,
  keyOf: (name: string) => TsigKey | undefined,
  nowSeconds: number,
): TsigCheck {
  const key = keyOf(tsig.keyName);
  if (!key || algorithmOfWire(tsig.algorithm) !== key.algorithm) return { ok: false, error: TSIG_ERROR.BADKEY, tsig };
  const full = TSIG_ALGORITHMS[key.algorithm].bytes;
  // RFC 8945 5.2.2.1: a MAC longer than the hash, or shorter than max(10, half the hash), is FORMERR.
  if (tsig.mac.length > full)
    throw wireError(`the TSIG MAC is ${tsig.mac.length} bytes, longer than ${key.algorithm} makes`);
  if (tsig.mac.length < Math.max(10, full / 2))
    throw wireError(`the TSIG MAC is truncated to ${tsig.mac.length} bytes, below the least RFC 8945 allows`);
  const expected = macOf(key, [
    unsignedPart(packet, tsig),
    variables(key, tsig.timeSigned, tsig.fudge, tsig.error, tsig.other),
  ]).subarray(0, tsig.mac.length);
  if (!timingSafeEqual(tsig.mac, expected)) return { ok: false, error: TSIG_ERROR.BADSIG, tsig };
  if (Math.abs(nowSeconds - tsig.timeSigned) > acceptedFudge(tsig))
    return { ok: false, error: TSIG_ERROR.BADTIME, tsig, key };
  // A truncated MAC that matches is still refused (5.2.4): the policy here is the whole MAC, as every client sends it.
  if (tsig.mac.length < full) return { ok: false, error: TSIG_ERROR.BADTRUNC, tsig, key };
  return { ok: true, key, tsig };
}

export interface SignOptions {
  timeSigned: number;
  fudge?: number;
  error?: number;
  other?: Buffer;
}

/**
 * Signs a message (a request, when `requestMac` is undefined; an answer to it otherwise). Returns the message with its
 * TSIG appended.
 */
export function signMessage(
  message: Buffer,
  key: TsigKey,
  requestMac: Buffer | undefined,
  options: SignOptions,
): { message: Buffer; mac: Buffer } {
  const fudge = options.fudge ?? DEFAULT_FUDGE;
  const error = options.error ?? 0;
  const other = options.other ?? Buffer.alloc(0);
  const prior = requestMac ? [lengthPrefixed(requestMac)] : [];
  const mac = macOf(key, [...prior, message, variables(key, options.timeSigned, fudge, error, other)]);
  return { message: appendTsig(message, key.name, key.algorithm, options.timeSigned, fudge, mac, error, other), mac };
}

/** A TSIG with no MAC, carrying only an error: the answer to BADKEY and BADSIG is not signed (RFC 8945 5.3.2). */
export function unsignedError(message: Buffer, tsig: TsigRecord, error: number): Buffer {
  const algorithm = algorithmOfWire(tsig.algorithm);
  return appendTsigRaw(
    message,
    tsig.keyName,
    algorithm ? TSIG_ALGORITHMS[algorithm].wire : tsig.algorithm,
    tsig.timeSigned,
    tsig.fudge,
    Buffer.alloc(0),
    error,
    Buffer.alloc(0),
  );
}

/** The answer to a request whose time is off: signed, with the server's time in Other Data (RFC 8945 5.2.3). */
export function signBadTime(message: Buffer, key: TsigKey, tsig: TsigRecord, nowSeconds: number): Buffer {
  const other = Buffer.alloc(6);
  writeTime(other, 0, nowSeconds);
  return signMessage(message, key, tsig.mac, {
    timeSigned: tsig.timeSigned,
    fudge: tsig.fudge,
    error: TSIG_ERROR.BADTIME,
    other,
  }).message;
}

/**
 * The answer to a request whose MAC was truncated below the local policy: signed, covering the truncated request MAC
 * (RFC 8945 5.2.2.1, 5.3.2).
 */
export function signBadTrunc(message: Buffer, key: TsigKey, tsig: TsigRecord, nowSeconds: number): Buffer {
  return signMessage(message, key, tsig.mac, { timeSigned: nowSeconds, fudge: tsig.fudge, error: TSIG_ERROR.BADTRUNC })
    .message;
}

/**
 * Signs the messages of one multi-message answer (a zone transfer): the first covers the request's MAC, each later one
 * the previous MAC and the timers only (RFC 8945 5.3.1).
 */
export class TsigStream {
  private previous: Buffer | undefined;

  constructor(
    private readonly key: TsigKey,
    private readonly requestMac: Buffer,
  ) {}

  sign(message: Buffer, timeSigned: number, fudge = DEFAULT_FUDGE): Buffer {
    if (!this.previous) {
      const signed = signMessage(message, this.key, this.requestMac, { timeSigned, fudge });
      this.previous = signed.mac;
      return signed.message;
    }
    const timers = Buffer.alloc(8);
    writeTime(timers, 0, timeSigned);
    timers.writeUInt16BE(fudge, 6);
    const mac = macOf(this.key, [lengthPrefixed(this.previous), message, timers]);
    this.previous = mac;
    return appendTsig(message, this.key.name, this.key.algorithm, timeSigned, fudge, mac, 0, Buffer.alloc(0));
  }
}

/** The request as it was before signing: without its TSIG, ARCOUNT one less, the original ID. */
function unsignedPart(packet: Buffer, tsig: TsigRecord): Buffer {
  const part = Buffer.from(packet.subarray(0, tsig.offset));
  part.writeUInt16BE(tsig.originalId, 0);
  part.writeUInt16BE(part.readUInt16BE(10) - 1, 10);
  return part;
}

/** The TSIG variables of the digest (RFC 8945 4.3.3): names in canonical (lower-case, uncompressed) form. */
function variables(key: TsigKey, timeSigned: number, fudge: number, error: number, other: Buffer): Buffer {
  const tail = Buffer.alloc(10);
  writeTime(tail, 0, timeSigned);
  tail.writeUInt16BE(fudge, 6);
  tail.writeUInt16BE(error, 8);
  const classTtl = Buffer.from([0, CLASS_ANY, 0, 0, 0, 0]);
  return Buffer.concat([
    canonicalWireName(key.name),
    classTtl,
    canonicalWireName(TSIG_ALGORITHMS[key.algorithm].wire),
    tail,
    lengthPrefixed(other),
  ]);
}

function macOf(key: TsigKey, parts: Buffer[]): Buffer {
  const hmac = createHmac(TSIG_ALGORITHMS[key.algorithm].hash, key.secret);
  for (const part of parts) hmac.update(part);
  return hmac.digest();
}

function appendTsig(
  message: Buffer,
  keyName: string,
  algorithm: TsigAlgorithm,
  timeSigned: number,
  fudge: number,
  mac: Buffer,
  error: number,
  other: Buffer,
): Buffer {
  return appendTsigRaw(message, keyName, TSIG_ALGORITHMS[algorithm].wire, timeSigned, fudge, mac, error, other);
}

function appendTsigRaw(
  message: Buffer,
  keyName: string,
  algorithmWire: string,
  timeSigned: number,
  fudge: number,
  mac: Buffer,
  error: number,
  other: Buffer,
): Buffer {
  const fixed = Buffer.alloc(10);
  writeTime(fixed, 0, timeSigned);
  fixed.writeUInt16BE(fudge, 6);
  fixed.writeUInt16BE(mac.length, 8);
  const after = Buffer.alloc(4);
  after.writeUInt16BE(message.readUInt16BE(0), 0); // original ID: the message's own
  after.writeUInt16BE(error, 2);
  const rdata = Buffer.concat([canonicalWireName(algorithmWire), fixed, mac, after, lengthPrefixed(other)]);
  const head = Buffer.alloc(10);
  head.writeUInt16BE(TSIG_TYPE, 0);
  head.writeUInt16BE(CLASS_ANY, 2);
  head.writeUInt32BE(0, 4);
  head.writeUInt16BE(rdata.length, 8);
  const out = Buffer.concat([message, canonicalWireName(keyName), head, rdata]);
  out.writeUInt16BE(out.readUInt16BE(10) + 1, 10);
  return out;
}

/** The name in RFC 8945's canonical wire form (lower case, uncompressed), as the MAC covers it. */
function canonicalWireName(name: string): Buffer {
  const labels = nameToLabels(name.toLowerCase());
  return Buffer.concat([...labels.flatMap((l) => [Buffer.from([l.length]), l]), Buffer.from([0])]);
}

function lengthPrefixed(data: Buffer): Buffer {
  const size = Buffer.alloc(2);
  size.writeUInt16BE(data.length);
  return Buffer.concat([size, data]);
}

function writeTime(buffer: Buffer, at: number, seconds: number): void {
  buffer.writeUInt16BE(Math.floor(seconds / 2 ** 32), at);
  buffer.writeUInt32BE(seconds % 2 ** 32, at + 2);
}

function wireError(message: string): Error {
  return new DnsWireError(message);
}

/**
 * The clock difference a server accepts: the request's fudge, at most 300 s (what nsupdate,
 * lego, certbot and miekg/dns send). A client may ask for up to 65,535 s; honoured, a message
 * signed 18 hours ago would still be good, and every signed update would have to be remembered
 * that long to refuse its replay.
 */
export const MAX_ACCEPTED_FUDGE = 300;
export function acceptedFudge(tsig: Pick<TsigRecord, 'fudge'>): number {
  return Math.min(tsig.fudge, MAX_ACCEPTED_FUDGE);
}
