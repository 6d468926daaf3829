// A map from names to values for a zone's worth of names, made at its size when the size is known.
// A Map of 100,000 names grows by doubling: each growth copies its table, and a run that never
// reaches a full collection (a zone plan) carries every copy to its end, 6.5 MB in all where the
// last table holds 3.7. Here the keys and values are two arrays made at the size asked for and the
// hash table is a typed array of indexes into them, 2.6 MB for 100,000 names with no copies.
//
// Open addressing, linear probing, the table at most half full: a probe sequence always ends at an
// empty slot. The hash is seeded per process, so names chosen to collide on one run do not on the next.
// Names of one zone all end in the zone's name: a table told so hashes what comes before it (and the
// length), a third of the work for `host12345.example.com`; names are still compared whole.
import { textHash } from './text-hash.js';

const SEED = (Math.random() * 0x1_0000_0000) >>> 0;

/** The least power of two, 16 at least, that holds `count` names at most half full. */
function slotsFor(count: number): number {
  let size = 16;
  while (size < count * 2) size *= 2;
  return size;
}

/**
 * The part of Map that a zone's index by name uses, in the order names were first set (as a Map):
 * a name deleted and set again comes last.
 */
export class NameTable<V> {
  /** Index + 1 of the entry in `keys` and `values`; 0 for an empty slot. */
  #slots: Int32Array;
  #keys: (string | undefined)[];
  #values: (V | undefined)[];
  /** Entries made, deleted ones included (their key is undefined). */
  #entries = 0;
  #size = 0;
  /** The units at the end of every name that the hash leaves out. */
  readonly #skip: number;

  /**
   * `expected`: the names it will most likely hold (it grows past that); `commonEnd`: how most names end (a
   * zone's names end in `.zone`), left out of their hash.
   */
  constructor(expected = 0, commonEnd = '') {
    this.#skip = commonEnd.length;
    this.#slots = new Int32Array(slotsFor(expected));
    this.#keys = new Array(expected);
    this.#values = new Array(expected);
  }

  get size(): number {
    return this.#size;
  }

  get(name: string): V | undefined {
    const at = this.#find(name);
    return at >= 0 ? this.#values[at] : undefined;
  }

  /** The value held for `name`; when there is none, `value` is set for it and undefined returned (one lookup). */
  getOrSet(name: string, value: V): V | undefined {
    const at = this.#find(name);
    if (at >= 0) return this.#values[at];
    this.#add(name, value, at);
    return undefined;
  }

  /** Where `name` is held, for valueAt and setValueAt (one lookup for both); -1 when it is not. */
  entryOf(name: string): number {
    const at = this.#find(name);
    return at >= 0 ? at : -1;
  }

  /** The value at an entry entryOf gave (no name set or deleted since). */
  valueAt(entry: number): V {
    return this.#values[entry] as V;
  }

  setValueAt(entry: number, value: V): void {
    this.#values[entry] = value;
  }

  has(name: string): boolean {
    return this.#find(name) >= 0;
  }

  set(name: string, value: V): this {
    const at = this.#find(name);
    if (at >= 0) this.#values[at] = value;
    else this.#add(name, value, at);
    return this;
  }

  delete(name: string): boolean {
    const at = this.#find(name);
    if (at < 0) return false;
    // The slot keeps pointing here, so that probes go on past it; no key matches undefined.
    this.#keys[at] = undefined;
    this.#values[at] = undefined;
    this.#size--;
    return true;
  }

  /** Each name and its value, in order. `each` may change the values of names already held, not add names. */
  forEach(each: (value: V, name: string) => void): void {
    for (let i = 0; i < this.#entries; i++) {
      const name = this.#keys[i];
      if (name !== undefined) each(this.#values[i] as V, name);
    }
  }

  /** A new entry for `name`, at `free` (#find's complement of an empty slot) unless the table is remade first. */
  #add(name: string, value: V, free: number): void {
    let slot = ~free;
    if ((this.#entries + 1) * 2 > this.#slots.length) {
      this.#rehash();
      slot = ~this.#find(name);
    }
    const entry = this.#entries++;
    this.#keys[entry] = name;
    this.#values[entry] = value;
    this.#slots[slot] = entry + 1;
    this.#size++;
  }

  /** The entry of `name`, or the bitwise complement of the empty slot where it would go. */
  #find(name: string): number {
    const slots = this.#slots;
    const keys = this.#keys;
    const mask = slots.length - 1;
    // At most half the slots are taken: an empty one comes before the probes have gone round.
    for (let i = textHash(name, this.#skip, SEED) & mask, probes = 0; probes <= mask; i = (i + 1) & mask, probes++) {
      const entry = slots[i]!;
      if (entry === 0) return ~i;
      if (keys[entry - 1] === name) return entry - 1;
    }
    throw new Error('name table: no empty slot (it is never more than half full)');
  }

  /** Entries compacted in their order (deleted ones dropped), in a table made for one more name than they are. */
  #rehash(): void {
    const keys = this.#keys;
    const values = this.#values;
    const entries = this.#entries;
    this.#slots = new Int32Array(slotsFor(this.#size + 1));
    // The arrays get room for half as many names again, as a growing array would (they grow past it on their own);
    // made at the slots' half, they were mostly empty for long.
    const room = Math.min(this.#slots.length / 2, this.#size + (this.#size >> 1) + 1);
    this.#keys = new Array(room);
    this.#values = new Array(room);
    this.#entries = 0;
    for (let i = 0; i < entries; i++) {
      const name = keys[i];
      if (name === undefined) continue;
      const entry = this.#entries++;
      this.#keys[entry] = name;
      this.#values[entry] = values[i];
      // Not yet in the slots, and no other entry has its name: found as the empty slot where it goes.
      this.#slots[~this.#find(name)] = entry + 1;
    }
  }
}
