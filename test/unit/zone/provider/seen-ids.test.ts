// The proof that a listing showed each entity once (src/zone/provider/seen-ids.ts): by the order of the IDs while
// they grow, by a set once they do not; the same answer either way.
import { describe, expect, it } from 'vitest';
import { PresizedList } from '../../../../src/lib/presized-list.js';
import { SeenIds } from '../../../../src/zone/provider/seen-ids.js';

/** The first ID `ids` repeats, fed as a listing feeds them (an ID counted is kept), or undefined. */
function firstRepeated(ids: readonly string[]): string | undefined {
  const items = new PresizedList<string>();
  const seen = new SeenIds(items, (id) => id);
  for (const id of ids) {
    if (!seen.add(id)) return id;
    items.add(id);
  }
  return undefined;
}

describe('the entity IDs a listing showed', () => {
  it('IDs in the order of their numbers, across lengths, are all new', () => {
    expect(firstRepeated(['1', '2', '9', '10', '11', '99', '100', '12345'])).toBeUndefined();
  });

  it('an ID shown again is found, in order or out of it, however far back it was first shown', () => {
    expect(firstRepeated(['1', '2', '3', '3'])).toBe('3');
    expect(firstRepeated(['1', '2', '10', '2'])).toBe('2');
    expect(firstRepeated(['5', '4', '3', '9', '4'])).toBe('4');
    expect(firstRepeated(['10', '9', '11', '12', '10'])).toBe('10');
    expect(firstRepeated(['', ''])).toBe('');
  });

  it('IDs in no order, or not numbers, are all new when they differ', () => {
    expect(firstRepeated(['9', '10', '1', '01', 'a', 'b', '001', 'A'])).toBeUndefined();
    expect(firstRepeated(['30', '20', '10'])).toBeUndefined();
  });
});
