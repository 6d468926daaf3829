import { ConfigError } from '../lib/errors.js';

/** One thing wrong in a zone file, where it is. */
export interface FileProblem {
  line: number;
  column: number;
  reason: string;
}

/** The most problems a message lists; the rest are counted ("… and 12 more"). */
const MAX_LISTED_PROBLEMS = 20;
/** Reading stops at this many problems: a file of a million bad lines says so in a moment. */
const MAX_COUNTED_PROBLEMS = 1000;

/**
 * A file that cannot be used as a zone (exit 2): every problem found, each as
 * `file:line:column: reason` on a line of its own, in the order of the file, at most
 * MAX_LISTED_PROBLEMS of them listed. `line`, `column` and `reason` are the first one's.
 */
export class ZoneFileError extends ConfigError {
  readonly line: number;
  readonly column: number;
  readonly reason: string;

  constructor(
    readonly file: string,
    readonly problems: FileProblem[],
    /** How many problems there were in all, listed or not. */
    readonly total = problems.length,
  ) {
    const listed = problems.slice(0, MAX_LISTED_PROBLEMS).map((p) => `${file}:${p.line}:${p.column}: ${p.reason}`);
    const more = total - listed.length;
    const stopped =
      total >= MAX_COUNTED_PROBLEMS ? ` (reading stopped at the ${MAX_COUNTED_PROBLEMS.toLocaleString('en')}th)` : '';
    super(
      listed.join('\n') +
        (more > 0
          ? `\n… and ${more.toLocaleString('en')} more error${more === 1 ? '' : 's'} in ${file}${stopped}`
          : ''),
    );
    const first = problems[0]!;
    this.line = first.line;
    this.column = first.column;
    this.reason = first.reason;
  }
}

/**
 * The problems of one file as reading goes on: the first MAX_LISTED_PROBLEMS kept, the others
 * only counted (up to MAX_COUNTED_PROBLEMS, when reading stops), so a file of a million bad
 * lines costs no more memory or time than one of a thousand.
 */
export class FileProblems {
  private readonly listed: FileProblem[] = [];
  private total = 0;

  constructor(readonly file: string) {}

  add(line: number, column: number, reason: string): void {
    this.total++;
    if (this.listed.length < MAX_LISTED_PROBLEMS) this.listed.push({ line, column, reason });
  }

  get count(): number {
    return this.total;
  }

  /** A problem listed whatever was found before it (the list is sorted by line, then cut, when thrown). */
  addListed(line: number, column: number, reason: string): void {
    this.total++;
    this.listed.push({ line, column, reason });
  }

  /** So many problems were found that reading further would only make the list longer. */
  get full(): boolean {
    return this.total >= MAX_COUNTED_PROBLEMS;
  }

  /** Throws a ZoneFileError listing what was found, if anything was. */
  throwIfAny(): void {
    if (!this.total) return;
    // Found in the order of the file, except within an entry over several lines: a line's
    // lexing error is found before the reader looks at the entry's earlier fields.
    const sorted = [...this.listed].sort((a, b) => a.line - b.line || a.column - b.column);
    throw new ZoneFileError(this.file, sorted, this.total);
  }
}

/** The longest piece of a file's text a message quotes. */
const SHOWN_CHARACTERS = 60;

/**
 * A piece of the file as a message quotes it: in double quotes, control characters as \DDD
 * (a file's escape sequence never reaches a terminal raw), cut after SHOWN_CHARACTERS (a
 * 10-MB token does not make a 10-MB message).
 */
export function shown(text: string): string {
  const cut = text.length > SHOWN_CHARACTERS ? `${text.slice(0, SHOWN_CHARACTERS)}…` : text;
  return `"${cut.replace(/[\x00-\x1f\x7f]/g, (c) => `\\${String(c.charCodeAt(0)).padStart(3, '0')}`)}"`;
}
