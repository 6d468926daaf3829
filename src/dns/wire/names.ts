// Domain names between their text form and the wire (RFC 1035 4.1.4). Reading follows
// compression pointers only backwards, so a hostile packet cannot make it loop, and at most
// MAX_POINTER_HOPS of them per name, so it cannot make each name cost thousands of steps;
// writing compresses repeated suffixes.
import { DnsWireError } from './errors.js';

const MAX_NAME_BYTES = 255;
const MAX_LABEL_BYTES = 63;
/**
 * A name has at most 127 labels (255 bytes), so a well-formed one needs at most one pointer per
 * label and one to its root label: 128. Without this bound, a chain of M backward pointers named by N records cost M×N
 * steps per parse (16,000 × 2,700 in one 64 KB UPDATE, read before any key is checked).
 */
const MAX_POINTER_HOPS = 128;
/** Bytes that stand for themselves in a name's text form; the rest are `\DDD` (and `\.`, `\\`). */
const PLAIN = /[A-Za-z0-9\-_*!#%&'+,/:<=>?[\]^`{|}~]/;

/** A name of letters, digits, `-`, `_` and `*` only: the common case, read without the escape parser. */
const SIMPLE_NAME = /^[A-Za-z0-9_*-]{1,63}(?:\.[A-Za-z0-9_*-]{1,63})*\.?$/;
const SIMPLE_LABEL = /^[A-Za-z0-9_*-]*$/;

/**
 * A plain name (letters, digits, `-`, `_`, `*`) without its trailing dot, or undefined for a
 * name that needs the escape parser; a plain name too long for the wire throws.
 */
function plainText(name: string): string | undefined {
  if (!SIMPLE_NAME.test(name)) return undefined;
  if (name.length > (name.endsWith('.') ? 254 : 253))
    throw new DnsWireError(`"${name}" is longer than ${MAX_NAME_BYTES} bytes`);
  return name.endsWith('.') ? name.slice(0, -1) : name;
}

/** The labels of a name in text form (escapes `\DDD`, `\.` allowed; trailing dot optional). */
export function nameToLabels(name: string): Buffer[] {
  const plain = plainText(name);
  if (plain !== undefined) return plain.split('.').map((label) => Buffer.from(label, 'latin1'));
  const labels: Buffer[] = [];
  let current: number[] = [];
  const text = name === '.' ? '' : name;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '.') {
      if (!current.length) throw new DnsWireError(`"${name}" has an empty label`);
      labels.push(Buffer.from(current));
      current = [];
    } else if (ch === '\\') {
      const digits = /^\d{3}/.exec(text.slice(i + 1));
      if (digits && Number(digits[0]) <= 255) {
        current.push(Number(digits[0]));
        i += 3;
      } else if (i + 1 < text.length) {
        current.push(...Buffer.from(text[++i]!, 'utf8'));
      } else throw new DnsWireError(`"${name}" ends with a lone backslash`);
    } else current.push(...Buffer.from(ch, 'utf8'));
    if (current.length > MAX_LABEL_BYTES)
      throw new DnsWireError(`"${name}" has a label longer than ${MAX_LABEL_BYTES} bytes`);
  }
  if (current.length) labels.push(Buffer.from(current));
  if (labels.reduce((sum, l) => sum + l.length + 1, 1) > MAX_NAME_BYTES)
    throw new DnsWireError(`"${name}" is longer than ${MAX_NAME_BYTES} bytes`);
  return labels;
}

function labelToText(label: Buffer): string {
  const plain = label.toString('latin1');
  if (SIMPLE_LABEL.test(plain)) return plain;
  let text = '';
  for (const byte of label) {
    const ch = String.fromCharCode(byte);
    text += PLAIN.test(ch) ? ch : ch === '.' || ch === '\\' ? `\\${ch}` : `\\${String(byte).padStart(3, '0')}`;
  }
  return text;
}

/** The canonical text of a name: escapes normalised, no trailing dot, lower case (for keys). */
export function nameKey(name: string): string {
  // A plain name is its own canonical text: no labels to build (a third of a query's cost).
  const plain = plainText(name);
  if (plain !== undefined) return plain.toLowerCase();
  return nameToLabels(name).map(labelToText).join('.').toLowerCase();
}

/** Reads a name at `offset`; returns it and the offset after it in the uncompressed stream. */
export function readName(packet: Buffer, offset: number): { name: string; next: number } {
  const labels: string[] = [];
  let position = offset;
  let next = -1;
  // Every pointer must go strictly below the previous one (or the name's start): no loops.
  let limit = offset;
  let bytes = 1;
  let hops = 0;
  for (;;) {
    const length = packet[position];
    if (length === undefined) throw new DnsWireError(`a name runs past the end of the message (at byte ${position})`);
    if ((length & 0xc0) === 0xc0) {
      const low = packet[position + 1];
      if (low === undefined) throw new DnsWireError('a compression pointer is cut off');
      const target = ((length & 0x3f) << 8) | low;
      if (target >= limit)
        throw new DnsWireError(`a compression pointer at byte ${position} does not point backwards (to ${target})`);
      if (++hops > MAX_POINTER_HOPS)
        throw new DnsWireError(`a name at byte ${offset} follows more than ${MAX_POINTER_HOPS} compression pointers`);
      if (next < 0) next = position + 2;
      position = limit = target;
      continue;
    }
    if (length & 0xc0) throw new DnsWireError(`unknown label type 0x${length.toString(16)} at byte ${position}`);
    if (length === 0) break;
    bytes += length + 1;
    if (bytes > MAX_NAME_BYTES) throw new DnsWireError(`a name is longer than ${MAX_NAME_BYTES} bytes`);
    if (position + 1 + length > packet.length) throw new DnsWireError('a label runs past the end of the message');
    labels.push(labelToText(packet.subarray(position + 1, position + 1 + length)));
    position += 1 + length;
  }
  return { name: labels.join('.'), next: next < 0 ? position + 1 : next };
}

/**
 * Where the name at `offset` ends, without reading it into text: walking past the records of a
 * message (to its TSIG, its OPT) then costs a few byte reads per record. A pointer ends the walk
 * and is not followed (only its direction is checked); readName checks the rest when the name is read.
 */
export function skipName(packet: Buffer, offset: number): number {
  let position = offset;
  for (;;) {
    const length = packet[position];
    if (length === undefined) throw new DnsWireError(`a name runs past the end of the message (at byte ${position})`);
    if ((length & 0xc0) === 0xc0) {
      if (position + 2 > packet.length) throw new DnsWireError('a compression pointer is cut off');
      // As readName requires: a pointer into the name itself (a loop) is refused here already.
      const target = ((length & 0x3f) << 8) | packet[position + 1]!;
      if (target >= offset)
        throw new DnsWireError(`a compression pointer at byte ${position} does not point backwards (to ${target})`);
      return position + 2;
    }
    if (length & 0xc0) throw new DnsWireError(`unknown label type 0x${length.toString(16)} at byte ${position}`);
    if (length === 0) return position + 1;
    if (position + 1 - offset + length + 1 > MAX_NAME_BYTES)
      throw new DnsWireError(`a name is longer than ${MAX_NAME_BYTES} bytes`);
    position += 1 + length;
  }
}

/** A growing message buffer that remembers where names were written, for compression. */
export class WireWriter {
  // Unsafe (not zero-filled): only bytes already written are ever read (toBuffer, setU16), and this is the hot path of
  // every answer.
  private buffer = Buffer.allocUnsafe(512);
  length = 0;
  private readonly suffixes = new Map<string, number>();

  constructor(private readonly maxBytes = 65535) {}

  private reserve(n: number): number {
    const at = this.length;
    if (at + n > this.maxBytes) throw new DnsWireError(`the message would exceed ${this.maxBytes} bytes`);
    if (at + n > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.min(this.maxBytes, Math.max(this.buffer.length * 2, at + n)));
      this.buffer.copy(grown, 0, 0, at);
      this.buffer = grown;
    }
    this.length += n;
    return at;
  }

  // reserve() may replace the buffer: call it before reading `this.buffer`.
  u8(value: number): void {
    const at = this.reserve(1);
    this.buffer.writeUInt8(value, at);
  }
  u16(value: number): void {
    const at = this.reserve(2);
    this.buffer.writeUInt16BE(value, at);
  }
  u32(value: number): void {
    const at = this.reserve(4);
    this.buffer.writeUInt32BE(value >>> 0, at);
  }
  bytes(data: Uint8Array): void {
    const at = this.reserve(data.length);
    this.buffer.set(data, at);
  }
  setU16(at: number, value: number): void {
    this.buffer.writeUInt16BE(value, at);
  }

  /** Writes a name, pointing at an earlier copy of its longest known suffix. */
  name(name: string, compress = true): void {
    // Plain names (nearly all) are written from the text; others through their label bytes.
    const plain = plainText(name);
    if (plain !== undefined) {
      this.plainName(plain, compress);
      return;
    }
    const labels = nameToLabels(name);
    // The key of each suffix: its labels' text, lower case (compression ignores case).
    const keys: string[] = [];
    for (let i = labels.length - 1; i >= 0; i--) {
      const text = labelToText(labels[i]!).toLowerCase();
      keys[i] = i === labels.length - 1 ? text : `${text}.${keys[i + 1]}`;
    }
    for (let i = 0; i < labels.length; i++) {
      const earlier = compress ? this.suffixes.get(keys[i]!) : undefined;
      if (earlier !== undefined) {
        this.u16(0xc000 | earlier);
        return;
      }
      if (compress && this.length < 0x3fff) this.suffixes.set(keys[i]!, this.length);
      this.u8(labels[i]!.length);
      this.bytes(labels[i]!);
    }
    this.u8(0);
  }

  /**
   * A name of plain ASCII labels (no trailing dot): each suffix's key is a slice of the name in
   * lower case, the same text the escaped path builds, so the two share pointers.
   */
  private plainName(text: string, compress: boolean): void {
    const lower = compress ? text.toLowerCase() : text;
    for (let start = 0; start < text.length; ) {
      if (compress) {
        const key = start === 0 ? lower : lower.slice(start);
        const earlier = this.suffixes.get(key);
        if (earlier !== undefined) {
          this.u16(0xc000 | earlier);
          return;
        }
        if (this.length < 0x3fff) this.suffixes.set(key, this.length);
      }
      let end = text.indexOf('.', start);
      if (end < 0) end = text.length;
      this.u8(end - start);
      const at = this.reserve(end - start);
      for (let i = start; i < end; i++) this.buffer[at + i - start] = text.charCodeAt(i);
      start = end + 1;
    }
    this.u8(0);
  }

  /** Forgets everything after `length` (names written there can no longer be pointed at). */
  truncate(length: number): void {
    this.length = length;
    for (const [key, at] of this.suffixes) if (at >= length) this.suffixes.delete(key);
  }

  toBuffer(): Buffer {
    return Buffer.from(this.buffer.subarray(0, this.length));
  }
}
