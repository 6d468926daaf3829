// TXT data on the wire and in master files is a list of character-strings of at most 255
// bytes each: one splitter for the sandbox's name server and the zone writer.
//
// TXT data is bytes; the provider keeps a TXT value as text. Data that is UTF-8 is held as the
// text itself. Data that is not (a master file's "\200" that is no part of a character) is held
// as one quoted master-file string: printable ASCII as it is ("\"" and "\\" escaped), every
// other byte as \DDD, e.g. `"\200abc"`, which is how a zone-file backend (BIND, PowerDNS) reads
// those bytes. A value is read as that form only when it is exactly what these functions would
// write for bytes that are not UTF-8, so every other text (quotes and backslashes included)
// stays the text it is, and reading then writing either form gives back the same bytes.

/** A text as TXT character-strings of at most 255 bytes each, never splitting a character. */
export function splitTxt(text: string): string[] {
  const strings: string[] = [];
  let current = '';
  let bytes = 0;
  for (const ch of text) {
    const size = Buffer.byteLength(ch, 'utf8');
    if (bytes + size > 255) {
      strings.push(current);
      current = '';
      bytes = 0;
    }
    current += ch;
    bytes += size;
  }
  strings.push(current);
  return strings;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const isUtf8 = (data: Uint8Array): boolean => {
  try {
    utf8.decode(data);
    return true;
  } catch {
    return false;
  }
};

/**
 * Why the text fields of wire rdata (TXT and SPF character-strings, a CAA tag and value) are
 * not UTF-8, or undefined when they are (or the type has none, or the data is malformed: the
 * decoder says so). Decoding such bytes as UTF-8 turns each bad byte into U+FFFD, so "caf\233"
 * and "caf\239\191\189" would become one value: a reader that keeps text checks here first.
 */
export function textRdataNotUtf8(type: number, data: Uint8Array): string | undefined {
  if (type === 16 || type === 99) {
    for (let at = 0; at < data.length; ) {
      const length = data[at]!;
      if (!isUtf8(data.subarray(at + 1, at + 1 + length)))
        return (
          `${type === 16 ? 'TXT' : 'SPF'} character-string ` +
          `${quoteBytes(data.subarray(at + 1, at + 1 + length))} is not UTF-8`
        );
      at += 1 + length;
    }
  } else if (type === 257 && data.length >= 2) {
    const tagEnd = 2 + data[1]!;
    if (!isUtf8(data.subarray(2, tagEnd)) || !isUtf8(data.subarray(tagEnd)))
      return `CAA value ${quoteBytes(data.subarray(tagEnd))} is not UTF-8`;
  }
  return undefined;
}

/** Bytes as one quoted string: printable ASCII as it is, `"` and `\` escaped, others \DDD. */
function quoteBytes(data: Uint8Array): string {
  let out = '"';
  for (const byte of data) {
    if (byte === 0x22 || byte === 0x5c) out += `\\${String.fromCharCode(byte)}`;
    else if (byte >= 0x20 && byte < 0x7f) out += String.fromCharCode(byte);
    else out += `\\${String(byte).padStart(3, '0')}`;
  }
  return `${out}"`;
}

/** TXT data as the provider's text: the text itself when it is UTF-8, else the quoted \DDD form. */
export function txtValueOfBytes(data: Uint8Array): string {
  return isUtf8(data) ? Buffer.from(data).toString('utf8') : quoteBytes(data);
}

/** The bytes a provider's TXT value holds in the quoted \DDD form; undefined for plain text. */
export function txtBytesOfValue(value: string): Buffer | undefined {
  // The form holds at least one \DDD of 128 or more: `"\128"` is the shortest.
  if (
    value.length < 6 ||
    value.charCodeAt(0) !== 0x22 ||
    value.charCodeAt(value.length - 1) !== 0x22 ||
    !value.includes('\\')
  )
    return undefined;
  const bytes: number[] = [];
  for (let i = 1; i < value.length - 1; ) {
    const c = value.charCodeAt(i);
    if (c !== 0x5c) {
      if (c < 0x20 || c >= 0x7f) return undefined;
      bytes.push(c);
      i++;
      continue;
    }
    const digits = /^\d{3}/.exec(value.slice(i + 1, i + 4));
    if (digits) {
      if (Number(digits[0]) > 255) return undefined;
      bytes.push(Number(digits[0]));
      i += 4;
    } else {
      bytes.push(value.charCodeAt(i + 1));
      i += 2;
    }
  }
  const data = Buffer.from(bytes);
  // Only exactly what txtValueOfBytes writes: anything else is text.
  return !isUtf8(data) && quoteBytes(data) === value ? data : undefined;
}

/** A text as a quoted character-string: `"` and `\` escaped, control characters as \DDD. */
function quoteText(text: string): string {
  return `"${text.replace(/["\\\x00-\x1f\x7f]/g, (c) =>
    c === '"' || c === '\\' ? `\\${c}` + `` : `\\${String(c.charCodeAt(0)).padStart(3, '0')}`,
  )}"`;
}

/** A TXT value as master-file rdata: quoted character-strings of at most 255 bytes each. */
export function txtRdata(value: string): string {
  const data = txtBytesOfValue(value);
  if (!data) return splitTxt(value).map(quoteText).join(' ');
  const strings: string[] = [];
  for (let at = 0; at < data.length || at === 0; at += 255) strings.push(quoteBytes(data.subarray(at, at + 255)));
  return strings.join(' ');
}

/** How many bytes TXT rdata needs for a value: its data and one length byte per string. */
export function txtRdataLength(value: string): number {
  const data = txtBytesOfValue(value);
  if (data) return data.length + Math.max(1, Math.ceil(data.length / 255));
  const bytes = Buffer.byteLength(value, 'utf8');
  // ASCII splits anywhere; other text between characters, as splitTxt does.
  if (bytes === value.length) return bytes + Math.max(1, Math.ceil(bytes / 255));
  return splitTxt(value).reduce((total, s) => total + 1 + Buffer.byteLength(s, 'utf8'), 0);
}
