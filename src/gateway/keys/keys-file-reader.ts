// The keys file's tokens and the reader of its statements (keys-file.ts reads what they say):
// named.conf's lexical rules (comments #, //, /* */; quoted strings on one line; { } ;), where
// each token is (line and column, for every error), how a mistake is passed on (KeysFileMistake)
// and where reading goes on after one, and how a token is shown in a message: never what may be
// a secret.
import type { FileProblems } from '../../zone/zone-file-error.js';

export interface Token {
  text: string;
  quoted: boolean;
  line: number;
  column: number;
  /** The first token of its line: a statement word there begins a statement after a mistake. */
  first?: boolean;
  /** Where the tokenizer met a mistake it has reported: the statement it is in is dropped, unreported. */
  broken?: boolean;
}

/** Where an error points: a line and column (1-based). */
export type Place = Pick<Token, 'line' | 'column'>;

/** A mistake where it is; without a reason, one already reported (the tokenizer's). */
export class KeysFileMistake extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
    readonly reason?: string,
  ) {
    super(reason ?? 'a mistake already reported');
  }
}

const STATEMENT_WORDS = new Set(['key', 'grant', 'transfer', 'quota']);

const startsStatement = (token: Token): boolean =>
  Boolean(token.first && !token.quoted && STATEMENT_WORDS.has(token.text));

/** How deep in braces the reader is after `token`. */
function depthAfter(token: Token, depth: number): number {
  if (token.quoted) return depth;
  if (token.text === '{') return depth + 1;
  return token.text === '}' ? Math.max(0, depth - 1) : depth;
}

/** A keys file's tokens, read in order; every error names the file, the line and the column. */
export class StatementReader {
  private at = 0;
  /** Where each key read so far was defined. */
  readonly keyPlaces = new Map<string, Place>();

  constructor(
    private readonly tokens: Token[],
    readonly file: string,
  ) {}

  get done(): boolean {
    return this.at >= this.tokens.length;
  }

  get position(): number {
    return this.at;
  }

  readonly fail = (place: Place, message: string): never => {
    throw new KeysFileMistake(place.line, place.column, message);
  };

  next(what: string): Token {
    if (this.done)
      this.fail(this.tokens[this.tokens.length - 1] ?? { line: 1, column: 1 }, `the file ends where ${what} should be`);
    const token = this.tokens[this.at++]!;
    if (token.broken) throw new KeysFileMistake(token.line, token.column);
    return token;
  }

  /**
   * After a mistake in the statement that began at `start`: on to the next one. It begins after
   * the statement's own ";" (outside its braces), or at a statement word that begins a line (so
   * a statement whose ";" or "}" is missing costs one mistake, not the next statement too).
   */
  skipStatement(start: number): void {
    const last = this.tokens[this.at - 1];
    if (this.at - 1 > start && last && startsStatement(last)) {
      this.at--;
      return;
    }
    let depth = 0;
    for (let i = start; i < this.at; i++) depth = depthAfter(this.tokens[i]!, depth);
    if (last && !last.quoted && last.text === ';' && depth === 0) return;
    while (this.at < this.tokens.length) {
      const token = this.tokens[this.at]!;
      if (startsStatement(token)) return;
      this.at++;
      depth = depthAfter(token, depth);
      if (!token.quoted && token.text === ';' && depth === 0) return;
    }
  }

  expect(text: string, after: string): void {
    const t = this.next(`"${text}"`);
    if (t.quoted || t.text !== text) this.fail(t, `expected "${text}" ${after}, found ${shown(t)}`);
  }
}

/**
 * A token as an error names it. A secret may be anywhere a line was pasted wrong, so what could
 * be one is never shown: a quoted string (secrets are quoted), text after a ":" (nsupdate -y
 * takes ALG:NAME:SECRET), and a token with a run of 16 or more base64 characters (a secret of
 * 12 bytes or more; names and words have dots and dashes between shorter runs).
 */
export function shown(token: Token): string {
  if (token.quoted) return 'a quoted string (not shown: it may be a secret)';
  return shownText(token.text);
}

/** A key name as messages name it: quoted, unless it may be a secret pasted as one (shown()). */
export function shownName(key: string): string {
  return shownText(key, '"…" (a name not shown: it may be a secret)');
}

function shownText(text: string, secret = 'a token that may be a secret (not shown)'): string {
  const colon = text.indexOf(':');
  const before = colon < 0 ? text : text.slice(0, colon);
  if (/[A-Za-z0-9+/=]{16,}/.test(before)) return secret;
  const cut = before.length > 40 ? `${before.slice(0, 40)}…` : before;
  const safe = cut.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return colon < 0 ? `"${safe}"` : `"${safe}:…" (the rest not shown: it may be a secret)`;
}

/** The file's tokens; a mistake in one is added to `problems` and marks where it is (Token.broken). */
export function tokenize(text: string, problems: FileProblems): Token[] {
  const tokens: Token[] = [];
  const push = (token: Token) => tokens.push({ ...token, first: tokens.at(-1)?.line !== token.line });
  let line = 1;
  // Where the current line starts: a token's column is counted from it (1-based, in characters).
  let lineStart = 0;
  const column = (i: number) => i - lineStart + 1;
  for (let i = 0; i < text.length; ) {
    const ch = text[i]!;
    if (ch === '\n') {
      line++;
      i++;
      lineStart = i;
    } else if (/\s/.test(ch)) i++;
    else if (ch === '#' || (ch === '/' && text[i + 1] === '/')) {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) {
        problems.add(line, column(i), 'a /* comment is never closed');
        push({ text: '', quoted: false, line, column: column(i), broken: true });
        break;
      }
      for (let c = i; c < end; c++) {
        if (text[c] !== '\n') continue;
        line++;
        lineStart = c + 1;
      }
      i = end + 2;
    } else if (ch === '"') {
      const end = text.indexOf('"', i + 1);
      const newline = text.indexOf('\n', i + 1);
      if (end < 0 || (newline >= 0 && newline < end)) {
        // The rest of the line is not read: what follows the quote is part of the string, or nothing meant.
        problems.add(line, column(i), 'a quoted string is not closed on its line');
        push({ text: '', quoted: false, line, column: column(i), broken: true });
        i = newline < 0 ? text.length : newline;
        continue;
      }
      push({ text: text.slice(i + 1, end), quoted: true, line, column: column(i) });
      i = end + 1;
    } else if (ch === '{' || ch === '}' || ch === ';') {
      push({ text: ch, quoted: false, line, column: column(i) });
      i++;
    } else {
      let end = i;
      while (end < text.length && !/[\s{};"#]/.test(text[end]!)) end++;
      push({ text: text.slice(i, end), quoted: false, line, column: column(i) });
      i = end;
    }
  }
  return tokens;
}
