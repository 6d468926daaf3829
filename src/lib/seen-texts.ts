// Which texts of a long run may have been seen before, in a fixed table of bits instead of a set of
// every text: a set of 100,000 names (and the tables it outgrew) is several megabytes that a run
// never reaching a full collection carries to its end, where these bits are one. A text seen
// before is always said so; a new one is said so by mistake at most about once in 64 (two texts
// whose hash falls on one bit), so the answer is a list of candidates for an exact look.

/** Bits per text the table is made for: what keeps the mistakes near one in 64. */
const BITS_PER_TEXT = 64;
const MIN_BITS = 1024;

export class SeenTexts {
  readonly #bits: Uint32Array;
  readonly #mask: number;

  /** A table for about `count` texts (more only makes more mistakes). */
  constructor(count: number) {
    let size = MIN_BITS;
    while (size < count * BITS_PER_TEXT && size < 2 ** 30) size *= 2;
    this.#bits = new Uint32Array(size / 32);
    this.#mask = size - 1;
  }

  /** Whether `text` may have been given before (then it may not be new); it counts as seen from now on. */
  seenBefore(text: string): boolean {
    const bit = hashOf(text) & this.#mask;
    const word = bit >>> 5;
    const flag = 1 << (bit & 31);
    const before = (this.#bits[word]! & flag) !== 0;
    this.#bits[word]! |= flag;
    return before;
  }
}

/** FNV-1a over the UTF-16 code units, as 32 bits. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
