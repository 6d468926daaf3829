// RFC 1035 §5.1 lexing: the file as a list of entries (one per record or directive), each a
// list of tokens, with parentheses joining lines, comments dropped, quoted strings kept
// whole and escapes (\X, \DDD) decoded. Positions are kept for error messages.
import { ZoneFileError } from './zone-file-error.js';

export interface Token {
  text: string;
  quoted: boolean;
  line: number;
  column: number;
}

export interface Entry {
  /** The line began with blank space: the owner is the previous one. */
  ownerOmitted: boolean;
  tokens: Token[];
  line: number;
}

const decoder = new TextDecoder('utf-8', { fatal: false });
const UNQUOTED_RUN = /[^\s;()"\\]+/y;
const QUOTED_RUN = /[^"\\\n]+/y;
/** What UNQUOTED_RUN stops at (JavaScript's \s) besides space, tab and line ends. */
const OTHER_BLANK = /^(?![ \t\r\n])\s$/;

export function lexMasterFile(text: string, file: string): Entry[] {
  const entries: Entry[] = [];
  let current: Entry | undefined;
  let depth = 0;
  let openedAt = { line: 0, column: 0 };
  let line = 1;
  let column = 1;
  let i = 0;
  const fail = (reason: string, l = line, c = column): never => {
    throw new ZoneFileError(file, l, c, reason);
  };
  const finishLine = () => {
    if (depth === 0 && current) {
      if (current.tokens.length) entries.push(current);
      current = undefined;
    }
  };
  const advance = (count = 1) => {
    i += count;
    column += count;
  };

  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '\n') {
      finishLine();
      i++;
      line++;
      column = 1;
      continue;
    }
    if (ch === '\r') {
      advance();
      continue;
    }
    if (!current) current = { ownerOmitted: ch === ' ' || ch === '\t', tokens: [], line };
    if (ch === ' ' || ch === '\t') advance();
    else if (OTHER_BLANK.test(ch)) {
      // Only spaces and tabs separate fields; a no-break space pasted from a web page or a form
      // feed would otherwise end a token without being one, and the lexer would stop advancing.
      fail(`unexpected U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} (a blank that is not a space or tab); fields are separated by spaces or tabs`);
    }
    else if (ch === ';') {
      while (i < text.length && text[i] !== '\n') advance();
    } else if (ch === '(') {
      if (depth === 0) openedAt = { line, column };
      depth++;
      if (depth > 1) fail('nested "(" is not allowed');
      advance();
    } else if (ch === ')') {
      if (depth === 0) fail('")" without "("');
      depth--;
      advance();
    } else {
      const start = { line, column };
      const quoted = ch === '"';
      if (quoted) advance();
      // Runs of plain characters are taken whole; only escapes are looked at one by one.
      // \DDD escapes are bytes (a UTF-8 character may be written as several), so a token
      // that has them is assembled as bytes and decoded once.
      const plain = quoted ? QUOTED_RUN : UNQUOTED_RUN;
      const parts: (string | number)[] = [];
      let hasBytes = false;
      for (;;) {
        plain.lastIndex = i;
        const run = plain.exec(text);
        if (run) {
          parts.push(run[0]);
          advance(run[0].length);
        }
        if (i >= text.length) {
          if (quoted) fail('a quoted string is not closed', start.line, start.column);
          break;
        }
        const c = text[i]!;
        if (c === '\\') {
          const digits = /^\d{3}/.exec(text.slice(i + 1, i + 4));
          if (digits) {
            const value = Number(digits[0]);
            if (value > 255) fail(`"\\${digits[0]}" is not a byte (\\000 to \\255)`);
            parts.push(value);
            hasBytes = true;
            advance(4);
            continue;
          }
          if (/^\d/.test(text[i + 1] ?? '')) fail('"\\" followed by a digit must be three digits (\\DDD)');
          if (i + 1 >= text.length || text[i + 1] === '\n') fail('"\\" at the end of a line');
          const escaped = String.fromCodePoint(text.codePointAt(i + 1)!);
          parts.push(escaped);
          advance(1 + escaped.length);
          continue;
        }
        if (quoted && c === '"') advance();
        else if (quoted) fail('a quoted string is not closed before the end of the line', start.line, start.column);
        break;
      }
      const tokenText = hasBytes
        ? decoder.decode(Buffer.concat(parts.map((p) => (typeof p === 'number' ? Buffer.of(p) : Buffer.from(p, 'utf8')))))
        : parts.join('');
      current.tokens.push({ text: tokenText, quoted, line: start.line, column: start.column });
    }
  }
  if (depth > 0) fail('"(" is not closed', openedAt.line, openedAt.column);
  finishLine();
  return entries;
}
