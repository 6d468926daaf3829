// A secret transformed rather than escaped: Base64 (of the secret alone, or after `user:` as
// in a Basic authorization header), Base64url, hex. A hostile server echoes these back, and
// they share no character with the secret, so redact.ts's spellings cannot see them.
//
// Base64 of a secret depends on where it starts in the encoded data (its offset modulo 3),
// so each of the three alignments gives a "core": the characters made only of the secret's
// own bits. Whatever precedes it (any user name) or follows it, one of the three cores appears
// in the encoding. The cores are computed once, at registration; redact() then runs a plain
// substring search per form, and masks the whole encoded token around a match (the edges mix
// in bits of the neighbours and would otherwise be left showing).

/** Shorter cores could match ordinary words and ids; a secret this short has few to give. */
const MIN_FORM_LENGTH = 6;

export function encodedForms(secret: string): string[] {
  const bytes = utf8Bytes(secret);
  let hex = '';
  for (const byte of bytes) hex += HEX[byte >> 4]! + HEX[byte & 15]!;
  const forms = [hex, hex.toUpperCase()];
  for (let offset = 0; offset < 3; offset++) {
    const core = base64(bytes, offset).slice(
      Math.ceil((offset * 8) / 6),
      Math.floor(((offset + bytes.length) * 8) / 6),
    );
    forms.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
    // In a query string, + and / arrive percent-encoded (either hex case).
    if (/[+/]/.test(core))
      forms.push(core.replace(/\+/g, '%2B').replace(/\//g, '%2F'), core.replace(/\+/g, '%2b').replace(/\//g, '%2f'));
  }
  return forms.filter((form, index) => form.length >= MIN_FORM_LENGTH && forms.indexOf(form) === index);
}

// Encoded here in plain loops, not with Buffer: this runs on every cycle's start path, where
// Buffer's first hex and Base64 calls are the slower by far (measured cold).
const HEX = '0123456789abcdef';
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Base64 of `offset` zero bytes followed by `bytes`. */
function base64(bytes: number[], offset: number): string {
  const length = offset + bytes.length;
  const at = (i: number): number => (i < offset || i >= length ? 0 : bytes[i - offset]!);
  let out = '';
  for (let i = 0; i < length; i += 3) {
    const n = (at(i) << 16) | (at(i + 1) << 8) | at(i + 2);
    out +=
      ALPHABET[(n >> 18) & 63]! +
      ALPHABET[(n >> 12) & 63]! +
      (length - i > 1 ? ALPHABET[(n >> 6) & 63]! : '=') +
      (length - i > 2 ? ALPHABET[n & 63]! : '=');
  }
  return out;
}

function utf8Bytes(text: string): number[] {
  const bytes: number[] = [];
  // ASCII, the usual key: its characters are its bytes.
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0x7f) return [...new TextEncoder().encode(text)];
    bytes.push(code);
  }
  return bytes;
}

const MASK = '***';
const TOKEN_CHAR = /[A-Za-z0-9+/_-]/;
/** + and / as a query string carries them. */
const ESCAPED_TOKEN_CHAR = /^%2[BbFf]$/;
const ESCAPED_PADDING = /^%3[Dd]$/;

/** The text with every token holding `form` replaced by the mask. */
export function maskEncodedForm(text: string, form: string): string {
  let out = text;
  // Each pass masks one occurrence and searches on after the mask: at most one per character.
  for (let from = out.indexOf(form); from !== -1; from = out.indexOf(form, from)) {
    const start = tokenStart(out, from);
    const end = tokenEnd(out, from + form.length);
    out = out.slice(0, start) + MASK + out.slice(end);
    from = start + MASK.length;
  }
  return out;
}

function tokenStart(text: string, index: number): number {
  let start = index;
  for (;;) {
    if (start > 0 && TOKEN_CHAR.test(text[start - 1]!)) start--;
    else if (start >= 3 && ESCAPED_TOKEN_CHAR.test(text.slice(start - 3, start))) start -= 3;
    else return start;
  }
}

function tokenEnd(text: string, index: number): number {
  let end = index;
  for (;;) {
    if (end < text.length && TOKEN_CHAR.test(text[end]!)) end++;
    else if (ESCAPED_TOKEN_CHAR.test(text.slice(end, end + 3))) end += 3;
    else break;
  }
  // Base64 padding (up to two, plain or escaped) ends the token.
  for (let pad = 0; pad < 2; pad++) {
    if (text[end] === '=') end++;
    else if (ESCAPED_PADDING.test(text.slice(end, end + 3))) end += 3;
    else break;
  }
  return end;
}
