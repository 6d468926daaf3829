// The name table answers as a Map would, through growth, deletions and names set again, and walks
// its names in a Map's order.
import { describe, expect, it } from 'vitest';
import { NameTable } from '../../../src/lib/name-table.js';

/** A seeded sequence, so that a failure is the same on every run. */
function numbers(seed: number): () => number {
  let x = seed;
  return () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x / 0x1_0000_0000;
  };
}

const entries = <V>(walkable: { forEach(each: (value: V, name: string) => void): void }): [string, V][] => {
  const seen: [string, V][] = [];
  walkable.forEach((value, name) => {
    seen.push([name, value]);
  });
  return seen;
};

describe('NameTable', () => {
  for (const [expected, commonEnd] of [
    [0, ''],
    [10, '.example.com'],
    [5000, '.example.com'],
    [100, 'a much longer end than any name here, which is then hashed whole'],
  ] as const) {
    it(`answers as a Map over 20,000 random operations (made for ${expected} names ending "${commonEnd}")`, () => {
      const next = numbers(expected + 1);
      const table = new NameTable<number>(expected, commonEnd);
      const map = new Map<string, number>();
      // Few distinct names, so that sets, deletes and sets again meet the same names often.
      const name = () => `h${Math.floor(next() * 3000)}.example.com`;
      for (let i = 0; i < 20_000; i++) {
        const key = name();
        const op = next();
        if (op < 0.55) {
          expect(table.set(key, i)).toBe(table);
          map.set(key, i);
        } else if (op < 0.62) {
          expect(table.getOrSet(key, i)).toBe(map.get(key));
          if (!map.has(key)) map.set(key, i);
        } else if (op < 0.66) {
          const entry = table.entryOf(key);
          expect(entry >= 0).toBe(map.has(key));
          if (entry >= 0) {
            expect(table.valueAt(entry)).toBe(map.get(key));
            table.setValueAt(entry, -i);
            map.set(key, -i);
          }
        } else if (op < 0.7) expect(table.delete(key)).toBe(map.delete(key));
        else if (op < 0.85) expect(table.get(key)).toBe(map.get(key));
        else expect(table.has(key)).toBe(map.has(key));
        expect(table.size).toBe(map.size);
      }
      expect(entries(table)).toEqual(entries(map));
    });
  }

  it('holds names that differ in any unit, the empty name and names beyond Latin-1', () => {
    const table = new NameTable<string>(2);
    const names = ['', 'a', 'b', 'ab', 'ba', 'é.example', '例え.jp', '\u{1f600}', 'a'.repeat(300)];
    for (const n of names) table.set(n, `value of ${n}`);
    for (const n of names) expect(table.get(n)).toBe(`value of ${n}`);
    expect(table.get('c')).toBeUndefined();
    expect(table.has('a'.repeat(299))).toBe(false);
    expect(entries(table).map(([n]) => n)).toEqual(names);
  });

  it('puts a name deleted and set again last, as a Map does, and lets a walk change values', () => {
    const table = new NameTable<number>();
    for (const n of ['x', 'y', 'z']) table.set(n, 1);
    table.delete('x');
    table.set('x', 2);
    table.forEach((value, name) => {
      table.set(name, value * 10);
    });
    expect(entries(table)).toEqual([
      ['y', 10],
      ['z', 10],
      ['x', 20],
    ]);
  });

  it('keeps finding every name while most of a large table is deleted and refilled', () => {
    const table = new NameTable<number>(100);
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 1000; i++) table.set(`n${round}-${i}`, i);
      for (let i = 0; i < 1000; i += 2) table.delete(`n${round}-${i}`);
    }
    expect(table.size).toBe(2500);
    for (let round = 0; round < 5; round++)
      for (let i = 0; i < 1000; i++) expect(table.get(`n${round}-${i}`)).toBe(i % 2 ? i : undefined);
  });
});
