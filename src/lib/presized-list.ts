// A list filled one item at a time whose length is known, most often, before its first item: the
// array is made at that length at once. An array pushed to grows by half again each time it is
// full, and a run that never reaches a full collection keeps every copy its growth left (about
// 1.5 MB for 100,000 items); made at its length, there are none.

export class PresizedList<T> {
  #items: T[] = [];
  #count = 0;

  /** Items added so far. */
  get count(): number {
    return this.#count;
  }

  /** Makes the array for `length` items in all, before the first is added (more may still come: the array grows). */
  reserve(length: number): void {
    if (this.#count === 0 && length > this.#items.length) this.#items = new Array<T>(length);
  }

  add(item: T): void {
    this.#items[this.#count++] = item;
  }

  /** The item at `index`, below `count`. */
  at(index: number): T {
    return this.#items[index]!;
  }

  /** The items added, as an array of exactly that many (the list's own array: nothing is added after). */
  toArray(): T[] {
    this.#items.length = this.#count;
    return this.#items;
  }
}
