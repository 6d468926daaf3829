// The rdata of the eight types the provider keeps, from a master-file entry's tokens into the
// provider's form: SRV "weight port target" with the priority apart, CAA `flag tag "value"`,
// TXT the text itself (or, for bytes that are not UTF-8, the quoted \DDD form of
// dns/wire/txt-strings.ts).
import { txtBytesOfValue, txtRdataLength, txtValueOfBytes } from '../../dns/wire/txt-strings.js';
import type { MasterLexer } from './master-lexer.js';
import type { ZoneType } from '../record.js';
import { canonicalValue, formatCaa, ValueError } from '../values.js';
import { shown } from '../zone-file-error.js';

/** What reading rdata needs from the reader: its tokens, names against the origin, and a way to fail. */
export interface RdataContext {
  lexer: MasterLexer;
  /** The full name (or ".") a target token stands for; fails the entry when it is none. */
  target(k: number, what: string): string;
  /** Reports the problem at token k and abandons the entry. */
  fail(k: number, reason: string): never;
}

/** The value (and MX/SRV priority) of one record, written into a reused object. */
export interface Rdata {
  value: string;
  priority: number | undefined;
}

/** A TXT record's rdata is at most 65,535 bytes, the string lengths included. */
const MAX_RDATA = 65_535;

/** Reads the data of a `type` record from token `first` to the entry's last into `out`. */
export function readRdata(type: ZoneType, first: number, c: RdataContext, out: Rdata): void {
  const lx = c.lexer;
  const count = lx.count - first;
  out.priority = undefined;
  try {
    switch (type) {
      case 'A':
      case 'AAAA':
        expect(c, type, first, 1, 'an address');
        out.value = canonicalValue(type, text(c, first));
        return;
      case 'CNAME':
      case 'NS':
        expect(c, type, first, 1, 'a host name');
        out.value = c.target(first, 'host name');
        return;
      case 'MX':
        expect(c, type, first, 2, '"preference exchange"');
        out.priority = number16(c, first, 'MX preference');
        out.value = c.target(first + 1, 'mail server name');
        return;
      case 'SRV': {
        expect(c, type, first, 4, '"priority weight port target"');
        out.priority = number16(c, first, 'SRV priority');
        const weight = number16(c, first + 1, 'SRV weight');
        const port = number16(c, first + 2, 'SRV port');
        out.value = `${weight} ${port} ${c.target(first + 3, 'SRV target')}`;
        return;
      }
      case 'CAA': {
        expect(c, type, first, 3, '"flag tag value"');
        const flag = lx.digits(first);
        if (flag < 0 || flag > 255) c.fail(first, `CAA flag ${shown(lx.raw(first))} is not a number from 0 to 255`);
        const tag = lx.raw(first + 1);
        if (!/^[A-Za-z0-9]+$/.test(tag)) c.fail(first + 1, `CAA tag ${shown(tag)} is not letters and digits`);
        out.value = formatCaa(flag, tag, text(c, first + 2));
        return;
      }
      case 'TXT':
        expect(c, type, first, 1, 'at least one string');
        out.value = txtValue(first, c);
        return;
    }
  } catch (error) {
    if (error instanceof ValueError) c.fail(count > 0 ? first : first - 1, error.message);
    throw error;
  }
}

/** Fails unless the record has `wanted` data fields (TXT: at least that many). */
function expect(c: RdataContext, type: ZoneType, first: number, wanted: number, shape: string): void {
  const lx = c.lexer;
  const count = lx.count - first;
  if (count < wanted) c.fail(count > 0 ? lx.count - 1 : first - 1, `${type} needs ${shape}`);
  if (count > wanted && type !== 'TXT')
    c.fail(first + wanted, `unexpected ${shown(lx.raw(first + wanted))}: ${type} is ${shape}`);
}

/** Token k's text; fails when its \DDD bytes are not UTF-8 (only TXT data may hold such bytes). */
function text(c: RdataContext, k: number): string {
  return (
    c.lexer.decoded(k) ??
    c.fail(k, `${shown(c.lexer.raw(k))} holds bytes that are not UTF-8 (\\DDD); only TXT data may`)
  );
}

function number16(c: RdataContext, k: number, what: string): number {
  const n = c.lexer.digits(k);
  if (n < 0 || n > 65535) c.fail(k, `${what} ${shown(c.lexer.raw(k))} is not a number from 0 to 65535`);
  return n;
}

/** The strings of a TXT record joined, as text when they are UTF-8 and in the \DDD form when not. */
function txtValue(first: number, c: RdataContext): string {
  const lx = c.lexer;
  let value = '';
  let bytes = false;
  let quoted = false;
  for (let k = first; k < lx.count; k++) {
    if (lx.isQuoted(k)) quoted = true;
    const text = lx.decoded(k);
    if (text === undefined) bytes = true;
    else value += text;
  }
  if (bytes) {
    const parts: Buffer[] = [];
    for (let k = first; k < lx.count; k++) parts.push(lx.bytes(k));
    value = txtValueOfBytes(Buffer.concat(parts));
  }
  // RFC 1035 reads each word as a string of its own, joined with nothing between: a
  // hand-typed `TXT v=spf1 mx -all` becomes "v=spf1mx-all". No one means that; a tool that
  // writes strings quotes at least one of them.
  if (lx.count - first > 1 && !quoted) {
    const words: string[] = [];
    for (let k = first; k < lx.count; k++) words.push(lx.decoded(k) ?? lx.raw(k));
    c.fail(
      first,
      `TXT of several unquoted words is several strings joined without spaces (${shown(value)}); quote the text: ` +
        `${shown(words.join(' '))}`,
    );
  }
  if (!bytes && txtBytesOfValue(value) !== undefined) {
    c.fail(
      first,
      `the text ${shown(value)} is how ddedge gives the provider TXT bytes that are not UTF-8, and would be read ` +
        `back as those bytes; write the bytes themselves (\\DDD) instead`,
    );
  }
  // Three bytes at most per UTF-16 unit: only a long value can be over the limit.
  if (value.length * 3 > MAX_RDATA - 1024) {
    const length = txtRdataLength(value);
    if (length > MAX_RDATA)
      c.fail(
        first,
        `TXT data of ${length.toLocaleString('en')} bytes with its string lengths is more than a record holds ` +
          `(${MAX_RDATA.toLocaleString('en')})`,
      );
  }
  return value;
}
