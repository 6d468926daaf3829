// Which texts of a long run may have been seen before, in a fixed table of bits instead of a set of
// every text: a set of 100,000 names (and the tables it outgrew) is several megabytes that a run
// never reaching a full collection carries to its end, where these bits are one. A text seen
// before is always said so; a new one is said so by mistake at most about once in 64 (two texts
// whose hash falls on one bit), so the answer is a list of candidates for an exact look.
import { textHash } from './text-hash.js';

/** Bits per text the table is made for: what keeps the mistakes near one in 64. */
const BITS_PER_TEXT = 64;
const MIN_BITS = 1024;
/** 4 MiB of bits: 64 a text for the 500,000 entries a listing may hold at most. */
const MAX_BITS = 2 ** 25;

export class SeenTexts {
  readonly #bits: Uint32Array;
  readonly #mask: number;
  readonly #sharedEnd: number;

  /**
   * A table for about `count` texts (more only makes more mistakes). `sharedEnd`: how many characters at the end most
   * texts share (a zone's names end in the zone), left out of the hash of a text longer than that: hashing is most of
   * the cost, and those characters tell few texts apart (a text given again is always found: its hash is its own).
   */
  constructor(count: number, sharedEnd = 0) {
    this.#sharedEnd = sharedEnd;
    let size = MIN_BITS;
    while (size < count * BITS_PER_TEXT && size < MAX_BITS) size *= 2;
    this.#bits = new Uint32Array(size / 32);
    this.#mask = size - 1;
  }

  /** Whether `text` may have been given before (then it may not be new); it counts as seen from now on. */
  seenBefore(text: string): boolean {
    const bit = textHash(text, this.#sharedEnd) & this.#mask;
    const word = bit >>> 5;
    const flag = 1 << (bit & 31);
    const before = (this.#bits[word]! & flag) !== 0;
    this.#bits[word]! |= flag;
    return before;
  }
}
