// The escapes of a master-file token (RFC 1035 §5.1: \X is the character X, \DDD the byte
// DDD), decoded once the lexer has checked them. A token whose \DDD bytes are a character of
// several bytes is decoded as UTF-8; one whose bytes are not UTF-8 is bytes, for TXT data.

const BACKSLASH = 92;
const isDigit = (c: number): boolean => c >= 48 && c <= 57;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Text with \X and \DDD escapes (already checked by the lexer) decoded. */
export function decodeEscapes(text: string, start: number, end: number): string | undefined {
  let out = '';
  let run = start;
  for (let i = start; i < end; ) {
    if (text.charCodeAt(i) !== BACKSLASH) {
      i++;
      continue;
    }
    out += text.slice(run, i);
    const next = text.charCodeAt(i + 1);
    if (isDigit(next)) {
      const value = Number(text.slice(i + 1, i + 4));
      // A byte of a multi-byte character: the token is bytes, decoded as UTF-8 at once.
      if (value >= 128) return decodeUtf8(bytesOf(text, start, end));
      out += String.fromCharCode(value);
      i += 4;
    } else {
      const width = next >= 0xd800 && next <= 0xdbff ? 2 : 1;
      out += text.slice(i + 1, i + 1 + width);
      i += 1 + width;
    }
    run = i;
  }
  return out + text.slice(run, end);
}

/** Bytes as UTF-8 text, or undefined when they are not UTF-8. */
function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** The bytes a token stands for: its characters in UTF-8, each \DDD as one byte. */
export function bytesOf(text: string, start: number, end: number): Buffer {
  const parts: Buffer[] = [];
  let run = start;
  for (let i = start; i < end; ) {
    if (text.charCodeAt(i) !== BACKSLASH) {
      i++;
      continue;
    }
    parts.push(Buffer.from(text.slice(run, i), 'utf8'));
    const next = text.charCodeAt(i + 1);
    if (isDigit(next)) {
      parts.push(Buffer.of(Number(text.slice(i + 1, i + 4))));
      i += 4;
    } else {
      const width = next >= 0xd800 && next <= 0xdbff ? 2 : 1;
      parts.push(Buffer.from(text.slice(i + 1, i + 1 + width), 'utf8'));
      i += 1 + width;
    }
    run = i;
  }
  parts.push(Buffer.from(text.slice(run, end), 'utf8'));
  return Buffer.concat(parts);
}
