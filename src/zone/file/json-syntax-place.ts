// Where a text stops being JSON (RFC 8259), for the JSON.parse messages that do not say ("Unexpected
// token", "Unexpected end of JSON input"): a scan of the syntax alone, one pass, no recursion (a file
// of a million "[" is scanned, not a stack overflow); and JSON.parse's words as a message may show them.

/** What the scan expects next. */
type Expect = 'value' | 'value-or-close' | 'key' | 'key-or-close' | 'colon' | 'after-value';

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const NUMBER_START = /[-\d]/;
const ESCAPED = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const HEX4 = /^[0-9a-fA-F]{4}$/;

/**
 * The offset of the first character that no JSON text can have there; the text's length when it
 * ends too soon; undefined when it is JSON.
 */
export function jsonSyntaxPlace(text: string): number | undefined {
  const closers: string[] = [];
  let expect: Expect = 'value';
  // Each round moves past at least one character or returns.
  for (let i = skipWhitespace(text, 0); ; i = skipWhitespace(text, i)) {
    if (i >= text.length) return expect === 'after-value' && closers.length === 0 ? undefined : text.length;
    const c = text[i]!;
    if (expect === 'after-value') {
      const closer = closers.at(-1);
      if (c === closer) closers.pop();
      else if (c === ',' && closer !== undefined) expect = closer === ']' ? 'value' : 'key';
      else return i;
      i++;
      continue;
    }
    if ((expect === 'value-or-close' && c === ']') || (expect === 'key-or-close' && c === '}')) {
      closers.pop();
      expect = 'after-value';
      i++;
      continue;
    }
    if (expect === 'colon') {
      if (c !== ':') return i;
      expect = 'value';
      i++;
      continue;
    }
    if (expect === 'key' || expect === 'key-or-close') {
      if (c !== '"') return i;
      const end = stringEnd(text, i);
      if (end < 0) return -end;
      expect = 'colon';
      i = end;
      continue;
    }
    const step = valueStep(text, i);
    if (step.error !== undefined) return step.error;
    if (step.opens !== undefined) closers.push(step.opens);
    expect = step.opens === ']' ? 'value-or-close' : step.opens === '}' ? 'key-or-close' : 'after-value';
    i = step.next;
  }
}

/** A value's first step: an object or array opened, or a whole scalar read; or where it breaks. */
function valueStep(text: string, i: number): { next: number; opens?: string; error?: number } {
  const c = text[i]!;
  if (c === '[') return { next: i + 1, opens: ']' };
  if (c === '{') return { next: i + 1, opens: '}' };
  if (c === '"') {
    const end = stringEnd(text, i);
    return end < 0 ? { next: i, error: -end } : { next: end };
  }
  for (const literal of ['true', 'false', 'null']) if (text.startsWith(literal, i)) return { next: i + literal.length };
  if (!NUMBER_START.test(c)) return { next: i, error: i };
  NUMBER.lastIndex = i;
  const number = NUMBER.exec(text)?.[0] ?? '';
  const next = i + number.length;
  // A number cut short ("1.", "-", "1e") or run on ("01") breaks where the match ended.
  if (number === '' || number === '-' || /[\d.eE+-]/.test(text[next] ?? '')) return { next, error: next };
  return { next };
}

/** The offset just past the string opened at `start`, or minus where it breaks (never 0: `start` is its quote). */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return i + 1;
    if (c < 0x20) return -i;
    if (c !== 0x5c) continue;
    const escaped = text[i + 1];
    if (escaped === 'u') {
      if (!HEX4.test(text.slice(i + 2, i + 6))) return -i;
      i += 5;
    } else if (escaped !== undefined && ESCAPED.has(escaped)) i++;
    else return -i;
  }
  return -text.length;
}

function skipWhitespace(text: string, i: number): number {
  for (let c = text.charCodeAt(i); c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09; c = text.charCodeAt(++i));
  return i;
}

/**
 * JSON.parse's words without the text it quotes (`, "[1,]" is not valid JSON`: a whole short file,
 * line breaks and escape sequences as they are), a control character it names as \DDD.
 */
export function jsonParseReason(message: string): string {
  const words = message.replace(/, (?:\.\.\.)?"[\s\S]*$/, '');
  return words.replace(/[\x00-\x1f\x7f]/g, (c) => `\\${String(c.charCodeAt(0)).padStart(3, '0')}`);
}

/** The line and column (1-based; a line ends at LF) of `offset` in `text`, counted without copying the text. */
export function placeOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let lf = text.indexOf('\n'); lf !== -1 && lf < offset; lf = text.indexOf('\n', lf + 1)) {
    line++;
    lineStart = lf + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
