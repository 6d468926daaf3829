// Texts seen before, in a table of bits (src/lib/seen-texts.ts): never a text seen before called new, and few new
// ones called seen.
import { describe, expect, it } from 'vitest';
import { SeenTexts } from '../../../src/lib/seen-texts.js';

describe('texts seen before', () => {
  it('a text given again is always said seen, however many came between', () => {
    const names = Array.from({ length: 20_000 }, (_, i) => `h${i}.bench.example`);
    const seen = new SeenTexts(names.length);
    for (const name of names) seen.seenBefore(name);
    for (const name of names) expect(seen.seenBefore(name)).toBe(true);
    expect(seen.seenBefore('')).toBe(false);
    expect(seen.seenBefore('')).toBe(true);
  });

  it("with the end most texts share left out of the hash, as a zone's names, the same", () => {
    const zone = 'bench.example';
    const names = Array.from({ length: 20_000 }, (_, i) => `h${i}.${zone}`);
    const seen = new SeenTexts(names.length, zone.length + 1);
    let mistakes = 0;
    for (const name of names) if (seen.seenBefore(name)) mistakes++;
    expect(mistakes).toBeLessThan(names.length / 32);
    for (const name of [...names, 'a', 'example', zone, `x.${zone}`]) seen.seenBefore(name);
    for (const name of [...names, 'a', 'example', zone, `x.${zone}`]) expect(seen.seenBefore(name)).toBe(true);
  });

  it('new texts are said seen by mistake rarely, also beyond the count the table was made for', () => {
    const mistakes = (count: number, made: number) => {
      const seen = new SeenTexts(made);
      let wrong = 0;
      for (let i = 0; i < count; i++) if (seen.seenBefore(`h${i}.bench.example`)) wrong++;
      return wrong;
    };
    expect(mistakes(100_000, 100_000)).toBeLessThan(100_000 / 32);
    expect(mistakes(10, 0)).toBeLessThan(3);
    // Five times more than it was made for: more mistakes, still a fraction.
    expect(mistakes(5_000, 1_000)).toBeLessThan(5_000 / 4);
  });
});
