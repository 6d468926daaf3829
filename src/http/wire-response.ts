// Reads one HTTP/1.1 response from the bytes of a connection, for wire-transport.ts: the
// status line and headers, then the body as its framing says (Content-Length, chunked, or
// until the connection closes; RFC 9112 §6.3). Where a lenient reader would guess (two
// different lengths, a length beside chunked, a folded header), the answer is malformed.
// Every part has a size bound, so a hostile server cannot make it buffer without end.

export type ResponseHeaders = Record<string, string | string[]>;

export interface ResponseEvents {
  head(status: number, headers: ResponseHeaders): void;
  body(chunk: Buffer): void;
  /** The body is complete; bytes after it are ignored (the connection is not reused). */
  done(): void;
}

/** What went wrong on the wire, for request.ts to classify; never carries the answer's bytes. */
export class WireError extends Error {
  constructor(
    readonly kind: 'malformed' | 'incomplete',
    message: string,
  ) {
    super(message);
  }
}

const MAX_HEAD_BYTES = 64 * 1024;
const MAX_HEADERS = 100;
/** 100 Continue and 103 Early Hints may precede the answer; a server sending many is broken. */
const MAX_INTERIM = 8;
const MAX_CHUNK_LINE = 4096;
const MAX_TRAILER_BYTES = 16 * 1024;

const STATUS_START = 'HTTP/1.';
const NOT_STATUS_LINE = 'the answer does not start with an HTTP/1.x status line';
const STATUS_LINE = /^HTTP\/1\.[01] ([1-9]\d\d)(?:[ \t][^\0]*)?$/;
// The name and colon only: trimming the value with a pattern (`(.*?)[ \t]*$`) backtracks over
// every run of spaces inside it, the square of the line's length, a hostile server's choice.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+:/;
const BAD_VALUE_CHAR = /[\0-\x08\x0a-\x1f\x7f]/;
const CHUNK_SIZE = /^([0-9a-fA-F]{1,12})[ \t]*(?:;.*)?$/;

type Phase = 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailers' | 'until-close' | 'done';

export class ResponseReader {
  /** The unread bytes: a view of `store`, whose room after them takes the next chunk. */
  private pending: Buffer = Buffer.alloc(0);
  private store: Buffer = this.pending;
  /** How many of the pending bytes were already searched for a line end, and had none. */
  private scanned = 0;
  private phase: Phase = 'head';
  private remaining = 0;
  private interim = 0;
  private trailerBytes = 0;
  private received = false;
  /** Body bytes of the current push, given as one chunk at its end (see flushBody). */
  private bodyParts: Buffer[] = [];

  constructor(private readonly events: ResponseEvents) {}

  /** Takes the next bytes of the connection; throws a WireError when they are not HTTP. */
  push(chunk: Buffer): void {
    if (this.phase === 'done') return;
    this.received = true;
    this.append(chunk);
    // Each pass consumes bytes or waits for more; the pending bytes bound the passes.
    while (this.step()) {}
    this.flushBody();
  }

  /** The connection ended: completes a body that runs until the close, or says what is missing. */
  end(): void {
    if (this.phase === 'done') return;
    if (this.phase === 'until-close') {
      this.finish();
      return;
    }
    if (!this.received) throw new WireError('incomplete', 'the connection closed without an answer');
    throw new WireError(
      'incomplete',
      this.phase === 'head'
        ? 'the connection closed in the middle of the headers'
        : 'the connection closed before the whole answer arrived',
    );
  }

  /** One unit of work; false when it needs more bytes. */
  private step(): boolean {
    switch (this.phase) {
      case 'head':
        return this.readHead();
      case 'length':
      case 'chunk-data':
        return this.readCounted();
      case 'until-close':
        if (this.pending.length) this.bodyParts.push(this.take(this.pending.length));
        return false;
      case 'chunk-size':
        return this.readChunkSize();
      case 'chunk-end':
        return this.readChunkEnd();
      case 'trailers':
        return this.readTrailer();
      default:
        return false;
    }
  }

  private readHead(): boolean {
    // A server speaking something else is known by its first bytes, not after 64 KiB of them.
    const start = this.pending.subarray(0, STATUS_START.length).toString('latin1');
    if (!STATUS_START.startsWith(start)) throw new WireError('malformed', NOT_STATUS_LINE);
    // The end is searched for in the new bytes only (and the two before them, where it may start).
    const end = headEnd(this.pending, Math.max(0, this.scanned - 2));
    if (end < 0) {
      if (this.pending.length > MAX_HEAD_BYTES)
        throw new WireError('malformed', `the headers are over ${MAX_HEAD_BYTES} bytes`);
      this.scanned = this.pending.length;
      return false;
    }
    if (end > MAX_HEAD_BYTES) throw new WireError('malformed', `the headers are over ${MAX_HEAD_BYTES} bytes`);
    const lines = this.take(end).toString('latin1').split(/\r?\n/).slice(0, -2);
    const status = STATUS_LINE.exec(lines[0] ?? '');
    if (!status) throw new WireError('malformed', NOT_STATUS_LINE);
    const code = Number(status[1]);
    const headers = parseHeaders(lines.slice(1));
    if (code < 200 && code !== 101) {
      if (++this.interim > MAX_INTERIM)
        throw new WireError('malformed', `more than ${MAX_INTERIM} interim (1xx) answers`);
      return true;
    }
    // The framing is judged before the head is reported: a refused answer is never half given.
    const framing = framingOf(code, headers);
    this.events.head(code, headers);
    if (framing === 'none' || framing === 0) this.finish();
    else if (framing === 'chunked') this.phase = 'chunk-size';
    else if (framing === 'until-close') this.phase = 'until-close';
    else {
      this.remaining = framing;
      this.phase = 'length';
    }
    return true;
  }

  /** The bytes of a Content-Length body or of one chunk. */
  private readCounted(): boolean {
    if (!this.pending.length) return false;
    const part = this.take(Math.min(this.remaining, this.pending.length));
    this.remaining -= part.length;
    this.bodyParts.push(part);
    if (this.remaining > 0) return false;
    if (this.phase === 'length') this.finish();
    else this.phase = 'chunk-end';
    return true;
  }

  private readChunkSize(): boolean {
    const line = this.line(MAX_CHUNK_LINE, 'a chunk size line');
    if (line === undefined) return false;
    const size = CHUNK_SIZE.exec(line);
    if (!size) throw new WireError('malformed', 'a chunk size is not hexadecimal');
    this.remaining = Number.parseInt(size[1]!, 16);
    this.phase = this.remaining === 0 ? 'trailers' : 'chunk-data';
    return true;
  }

  private readChunkEnd(): boolean {
    const line = this.line(2, 'the end of a chunk');
    if (line === undefined) return false;
    if (line !== '') throw new WireError('malformed', 'a chunk is longer than its size says');
    this.phase = 'chunk-size';
    return true;
  }

  private readTrailer(): boolean {
    const line = this.line(MAX_TRAILER_BYTES, 'a trailer');
    if (line === undefined) return false;
    this.trailerBytes += line.length + 2;
    if (this.trailerBytes > MAX_TRAILER_BYTES)
      throw new WireError('malformed', `the trailers are over ${MAX_TRAILER_BYTES} bytes`);
    if (line === '') this.finish();
    return true;
  }

  /** One line without its CRLF (or bare LF), or undefined until it is complete. */
  private line(limit: number, what: string): string | undefined {
    const newline = this.pending.indexOf(0x0a, this.scanned);
    if (newline < 0) {
      if (this.pending.length > limit) throw new WireError('malformed', `${what} is over ${limit} bytes`);
      this.scanned = this.pending.length;
      return undefined;
    }
    if (newline > limit) throw new WireError('malformed', `${what} is over ${limit} bytes`);
    return this.take(newline + 1)
      .toString('latin1')
      .replace(/\r?\n$/, '');
  }

  private take(count: number): Buffer {
    const part = this.pending.subarray(0, count);
    this.pending = this.pending.subarray(count);
    this.scanned = 0;
    return part;
  }

  /**
   * Adds a chunk after the pending bytes. Unread bytes wait only for the end of a head or a
   * line, a chunk at a time; copying them all again for each chunk (a hostile server sends
   * one byte at a time) would cost the square of their length, so the store grows by
   * doubling and each chunk is copied once. Bytes before the pending ones (already given as
   * body) are never written over: the store only fills forward, and a grown store is new.
   */
  private append(chunk: Buffer): void {
    if (!this.pending.length) {
      this.pending = this.store = chunk;
      return;
    }
    let end = this.pending.byteOffset - this.store.byteOffset + this.pending.length;
    if (end + chunk.length > this.store.length) {
      const grown = Buffer.allocUnsafe(Math.max(2 * (this.pending.length + chunk.length), 4096));
      end = this.pending.copy(grown);
      this.store = grown;
    }
    chunk.copy(this.store, end);
    this.pending = this.store.subarray(end - this.pending.length, end + chunk.length);
  }

  private finish(): void {
    this.phase = 'done';
    this.pending = this.store = Buffer.alloc(0);
    this.flushBody();
    this.events.done();
  }

  /**
   * Gives the body bytes gathered from one push as one chunk. A server framing its body in
   * 1-byte chunks would otherwise cost an event, a queue entry and a copy for each byte (a
   * 1 MiB answer: ~3 s and ~165 MB), where a piece of the connection costs one.
   */
  private flushBody(): void {
    if (!this.bodyParts.length) return;
    const parts = this.bodyParts;
    this.bodyParts = [];
    this.events.body(parts.length === 1 ? parts[0]! : Buffer.concat(parts));
  }
}

/** Where the head ends: after the first empty line (CRLF CRLF, or bare LFs). -1 until then. */
function headEnd(bytes: Buffer, from: number): number {
  for (let at = bytes.indexOf(0x0a, from); at >= 0; at = bytes.indexOf(0x0a, at + 1)) {
    if (bytes[at + 1] === 0x0a) return at + 2;
    if (bytes[at + 1] === 0x0d && bytes[at + 2] === 0x0a) return at + 3;
  }
  return -1;
}

function parseHeaders(lines: string[]): ResponseHeaders {
  if (lines.length > MAX_HEADERS) throw new WireError('malformed', `more than ${MAX_HEADERS} headers`);
  const headers: ResponseHeaders = {};
  for (const line of lines) {
    const match = HEADER_NAME.exec(line);
    const value = match ? trimSpaces(line.slice(match[0].length)) : '';
    // A line that starts with a space continues the one before (obsolete folding): refused.
    if (!match || BAD_VALUE_CHAR.test(value)) throw new WireError('malformed', 'a header line is not "name: value"');
    const name = match[0].slice(0, -1).toLowerCase();
    const before = headers[name];
    if (before === undefined) headers[name] = name === 'set-cookie' ? [value] : value;
    else if (Array.isArray(before)) before.push(value);
    else headers[name] = `${before}, ${value}`;
  }
  return headers;
}

/** The value without the spaces and tabs around it (only those: 0xA0 is a byte of the value). */
function trimSpaces(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && (text[start] === ' ' || text[start] === '\t')) start++;
  while (end > start && (text[end - 1] === ' ' || text[end - 1] === '\t')) end--;
  return text.slice(start, end);
}

/** How the body is delimited (RFC 9112 §6.3): not at all, chunked, a byte count, or the close. */
function framingOf(status: number, headers: ResponseHeaders): 'none' | 'chunked' | 'until-close' | number {
  if (status === 101 || status === 204 || status === 304) return 'none';
  const transferEncoding = headers['transfer-encoding'];
  const length = headers['content-length'];
  if (transferEncoding !== undefined) {
    if (length !== undefined)
      throw new WireError('malformed', 'the answer has both Transfer-Encoding and Content-Length');
    if (String(transferEncoding).trim().toLowerCase() !== 'chunked')
      throw new WireError('malformed', 'the answer uses a transfer coding other than chunked');
    return 'chunked';
  }
  return length === undefined ? 'until-close' : contentLength(String(length));
}

/** One length, however often it is repeated ("42, 42"); two different lengths are an attack. */
function contentLength(text: string): number {
  const values = new Set(text.split(',').map((v) => v.trim()));
  const [only] = values;
  if (values.size !== 1 || !/^\d{1,15}$/.test(only!))
    throw new WireError('malformed', 'the Content-Length is not one whole number');
  return Number(only);
}
