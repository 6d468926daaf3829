// IPv6 addresses of a zone file in RFC 5952 form, for the common case (hex groups, at most one
// "::") without the 128-bit integers of ip/address.ts: a zone of 100,000 records has ten
// thousand AAAA records, and BigInt arithmetic made them a tenth of the reading time. Anything
// else (an IPv4 tail, a zone id, a mistake) is left to ip/address.ts, which decides.

const COLON = 58;
const groups = new Int32Array(8);

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

/** Fills `groups` from hex-only IPv6 text; false when the text is not of that form. */
function parseHexGroups(text: string): boolean {
  const length = text.length;
  if (length < 2 || length > 39) return false;
  let i = 0;
  let count = 0;
  let gap = -1;
  if (text.charCodeAt(0) === COLON) {
    if (text.charCodeAt(1) !== COLON) return false;
    gap = 0;
    i = 2;
  }
  while (i < length) {
    let value = 0;
    let digits = 0;
    for (let h = hexValue(text.charCodeAt(i)); h >= 0 && i < length; h = hexValue(text.charCodeAt(++i))) {
      if (++digits > 4) return false;
      value = value * 16 + h;
    }
    if (digits === 0 || count === 8) return false;
    groups[count++] = value;
    if (i === length) break;
    if (text.charCodeAt(i) !== COLON || ++i === length) return false;
    if (text.charCodeAt(i) === COLON) {
      if (gap >= 0) return false;
      gap = count;
      i++;
    }
  }
  if (gap < 0) return count === 8;
  if (count > 7) return false;
  const after = count - gap;
  for (let k = 0; k < after; k++) groups[7 - k] = groups[count - 1 - k]!;
  for (let k = gap; k < 8 - after; k++) groups[k] = 0;
  return true;
}

/** The RFC 5952 form of hex-only IPv6 text, or undefined when it is not of that form. */
export function canonicalHexIPv6(text: string): string | undefined {
  if (!parseHexGroups(text)) return undefined;
  // The longest run of two or more zero groups (the first of equal ones) becomes "::".
  let bestStart = -1;
  let bestLength = 0;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength && j - i >= 2) [bestStart, bestLength] = [i, j - i];
    i = j;
  }
  let out = '';
  for (let i = 0; i < 8; i++) {
    if (i === bestStart) {
      out += '::';
      i += bestLength - 1;
      continue;
    }
    if (out !== '' && !out.endsWith(':')) out += ':';
    out += groups[i]!.toString(16);
  }
  return out;
}
