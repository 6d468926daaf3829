// The entity IDs a listing has shown, to prove that none was shown twice (zone-listing.ts).
import type { PresizedList } from '../../lib/presized-list.js';

/**
 * The entity IDs of a listing, to prove each was listed once. A provider that lists its entries in the order of their
 * IDs (the sandbox does, as numbers, oldest first) proves it by the order alone: IDs that only grow, shorter before
 * longer and then as text, are all different. So no set of 100,000 IDs is made, which a run that never reaches a
 * full collection would carry to its end; the set is made from the items kept so far at the first ID out of order.
 */
export class SeenIds<T> {
  #last = '';
  #set: Set<string> | undefined;

  constructor(
    private readonly items: PresizedList<T>,
    private readonly idOf: (item: T) => string,
  ) {}

  /** Whether `id` is new (then it is counted as seen). */
  add(id: string): boolean {
    const last = this.#last;
    if (this.#set === undefined) {
      if (this.items.count === 0 || id.length > last.length || (id.length === last.length && id > last)) {
        this.#last = id;
        return true;
      }
      this.#set = new Set();
      for (let i = 0; i < this.items.count; i++) this.#set.add(this.idOf(this.items.at(i)));
    }
    // One lookup per entity, not a test and then an add: the set does not grow for an ID seen before.
    const before = this.#set.size;
    this.#set.add(id);
    return this.#set.size !== before;
  }
}
