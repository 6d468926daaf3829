// TXT data on the wire and in master files is a list of character-strings of at most 255
// bytes each: one splitter for the sandbox's name server and the zone writer.

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
