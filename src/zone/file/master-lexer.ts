// RFC 1035 §5.1 lexing, as BIND's lexer does it: the file as entries (one per record or
// directive), each a list of tokens, with parentheses joining lines, comments dropped, quoted
// strings kept whole. A line ends at LF, CRLF or a lone CR (BIND ends a line at a lone CR too);
// a comment runs to the LF only, so a CR inside a comment starts nothing.
//
// The lexer makes no object per token: the current entry's tokens are offsets into the text
// in typed arrays that are reused from entry to entry, and a token's text is cut out (and its
// escapes decoded) only when the reader asks for it. Reading 100,000 records this way leaves
// little for the garbage collector.
import { bytesOf, decodeEscapes } from './master-escapes.js';
import type { FileProblems } from '../zone-file-error.js';

/** No record has this many fields (a TXT record holds at most 65,535 bytes). */
const MAX_ENTRY_TOKENS = 65_536;

const LF = 10;
const CR = 13;
const SPACE = 32;
const TAB = 9;
const QUOTE = 34;
const BACKSLASH = 92;
const SEMICOLON = 59;
const OPEN = 40;
const CLOSE = 41;

const QUOTED = 1;
const ESCAPED = 2;

/** Characters that end an unquoted token (ASCII): blanks, line ends, ; ( ) ". */
const ENDS_TOKEN = new Uint8Array(128);
for (const c of [SPACE, TAB, LF, CR, SEMICOLON, OPEN, CLOSE, QUOTE, 0x0b, 0x0c]) ENDS_TOKEN[c] = 1;

/**
 * Blanks other than space and tab (JavaScript's \s): a no-break space pasted from a web page,
 * a form feed. BIND would make them part of a name; ddedge refuses them, because they look like
 * the space that separates fields.
 */
function isOtherBlank(c: number): boolean {
  if (c < 128) return c === 0x0b || c === 0x0c;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;

export class MasterLexer {
  /** How many tokens the current entry has. */
  count = 0;
  /** The current entry's line began with a blank: its owner is the previous one. */
  ownerOmitted = false;
  /** Something in the current entry was wrong (and reported): the reader skips the entry. */
  broken = false;

  private starts = new Int32Array(16);
  private ends = new Int32Array(16);
  private lines = new Int32Array(16);
  private columns = new Int32Array(16);
  private flags = new Uint8Array(16);
  private at = 0;
  private line = 1;
  private lineStart = 0;

  constructor(
    private readonly text: string,
    private readonly problems: FileProblems,
  ) {}

  /** Moves to the next entry that has tokens; false at the end of the file. */
  next(): boolean {
    const text = this.text;
    const n = text.length;
    let i = this.at;
    let depth = 0;
    let openLine = 0;
    let openColumn = 0;
    let lineBegins = true;
    this.count = 0;
    this.broken = false;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === LF || c === CR) {
        // CRLF ends the line at its LF.
        if (c === CR && text.charCodeAt(i + 1) === LF) {
          i++;
          continue;
        }
        if (c === LF) {
          this.line++;
          this.lineStart = i + 1;
        }
        i++;
        if (depth > 0) continue;
        if (this.count > 0) {
          this.at = i;
          return true;
        }
        // A line of blanks, comments or errors only: nothing to read.
        this.broken = false;
        lineBegins = true;
        continue;
      }
      if (lineBegins) {
        this.ownerOmitted = c === SPACE || c === TAB;
        lineBegins = false;
      }
      if (c === SPACE || c === TAB) i++;
      else if (c === SEMICOLON) {
        const end = text.indexOf('\n', i);
        i = end < 0 ? n : end;
      } else if (c === OPEN) {
        if (depth > 0) this.fail(i, 'nested "(" is not allowed');
        else [openLine, openColumn] = [this.line, i - this.lineStart + 1];
        depth = 1;
        i++;
      } else if (c === CLOSE) {
        if (depth === 0) this.fail(i, '")" without "("');
        depth = 0;
        i++;
      } else if (isOtherBlank(c)) {
        this.fail(
          i,
          `unexpected U+${c.toString(16).toUpperCase().padStart(4, '0')} (a blank that is not a space or tab); ` +
            `fields are separated by spaces or tabs`,
        );
        i++;
      } else i = c === QUOTE ? this.quoted(i) : this.unquoted(i);
    }
    this.at = n;
    if (depth > 0) {
      this.problems.add(openLine, openColumn, '"(" is not closed');
      this.broken = true;
    }
    return this.count > 0;
  }

  /** The token as written, escapes and all (inside the quotes for a quoted one). */
  raw(k: number): string {
    return this.text.slice(this.starts[k]!, this.ends[k]!);
  }

  isQuoted(k: number): boolean {
    return (this.flags[k]! & QUOTED) !== 0;
  }

  hasEscapes(k: number): boolean {
    return (this.flags[k]! & ESCAPED) !== 0;
  }

  lineOf(k: number): number {
    return this.lines[k]!;
  }

  columnOf(k: number): number {
    return this.columns[k]!;
  }

  /** Whether the token starts with a digit (a TTL, a number). */
  startsWithDigit(k: number): boolean {
    return this.starts[k]! < this.ends[k]! && isDigit(this.text.charCodeAt(this.starts[k]!));
  }

  /** The token's number when it is written as digits only (no escapes), else -1. */
  digits(k: number): number {
    const end = this.ends[k]!;
    let start = this.starts[k]!;
    if (start === end) return -1;
    let value = 0;
    for (; start < end; start++) {
      const c = this.text.charCodeAt(start);
      if (!isDigit(c)) return -1;
      value = value * 10 + (c - 48);
    }
    return value;
  }

  /** The token's text, escapes decoded; undefined when its \DDD bytes are not UTF-8. */
  decoded(k: number): string | undefined {
    if (!this.hasEscapes(k)) return this.raw(k);
    return decodeEscapes(this.text, this.starts[k]!, this.ends[k]!);
  }

  /** The token's data as bytes: its characters in UTF-8, each \DDD the byte it names. */
  bytes(k: number): Buffer {
    return bytesOf(this.text, this.starts[k]!, this.ends[k]!);
  }

  private fail(i: number, reason: string): void {
    this.problems.add(this.line, i - this.lineStart + 1, reason);
    this.broken = true;
  }

  /** A quoted string from its opening quote at `from`; returns where lexing goes on. */
  private quoted(from: number): number {
    const text = this.text;
    const n = text.length;
    let flags = QUOTED;
    let i = from + 1;
    for (;;) {
      if (i >= n) {
        this.fail(from, 'a quoted string is not closed');
        return n;
      }
      const c = text.charCodeAt(i);
      if (c === QUOTE) break;
      if (c === LF) {
        this.fail(from, 'a quoted string is not closed before the end of the line');
        return i;
      }
      if (c === BACKSLASH) {
        flags |= ESCAPED;
        i = this.escape(i);
      } else i++;
    }
    this.push(from, from + 1, i, flags);
    return i + 1;
  }

  /** A token of plain characters and escapes from `from`; returns where it ends. */
  private unquoted(from: number): number {
    const text = this.text;
    const n = text.length;
    let flags = 0;
    let i = from;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c < 128 ? ENDS_TOKEN[c] === 1 : isOtherBlank(c)) break;
      if (c === BACKSLASH) {
        flags |= ESCAPED;
        i = this.escape(i);
      } else i++;
    }
    this.push(from, from, i, flags);
    return i;
  }

  /** Checks the escape at `i` (a backslash); returns the offset after it. */
  private escape(i: number): number {
    const text = this.text;
    const next = text.charCodeAt(i + 1);
    if (Number.isNaN(next) || next === LF || next === CR) {
      this.fail(i, '"\\" at the end of a line');
      return i + 1;
    }
    if (isDigit(next)) {
      if (!isDigit(text.charCodeAt(i + 2)) || !isDigit(text.charCodeAt(i + 3))) {
        this.fail(i, '"\\" followed by a digit must be three digits (\\DDD)');
        return i + 2;
      }
      const value = Number(text.slice(i + 1, i + 4));
      if (value > 255) this.fail(i, `"\\${text.slice(i + 1, i + 4)}" is not a byte (\\000 to \\255)`);
      return i + 4;
    }
    // An escaped character outside the BMP is two UTF-16 units.
    return next >= 0xd800 && next <= 0xdbff ? i + 3 : i + 2;
  }

  private push(at: number, start: number, end: number, flags: number): void {
    const k = this.count;
    if (k === MAX_ENTRY_TOKENS) {
      this.fail(
        at,
        `more than ${MAX_ENTRY_TOKENS.toLocaleString('en')} fields in one entry (no record has so many; is a ")" ` +
          `missing?)`,
      );
      this.count++;
      return;
    }
    if (k > MAX_ENTRY_TOKENS) return;
    if (k === this.starts.length) this.grow();
    this.starts[k] = start;
    this.ends[k] = end;
    this.lines[k] = this.line;
    this.columns[k] = at - this.lineStart + 1;
    this.flags[k] = flags;
    this.count = k + 1;
  }

  private grow(): void {
    const size = this.starts.length * 2;
    const bigger = <T extends Int32Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = make(size);
      b.set(a);
      return b;
    };
    this.starts = bigger(this.starts, (s) => new Int32Array(s));
    this.ends = bigger(this.ends, (s) => new Int32Array(s));
    this.lines = bigger(this.lines, (s) => new Int32Array(s));
    this.columns = bigger(this.columns, (s) => new Int32Array(s));
    this.flags = bigger(this.flags, (s) => new Uint8Array(s));
  }
}
