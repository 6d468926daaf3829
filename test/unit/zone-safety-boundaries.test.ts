// The 30% rule at its edges (zone review, issue 10): exactly 10 records, exactly 30%, and a
// share just over 30% that rounding would show as "30%, more than 30%".
import { describe, expect, it } from 'vitest';
import { planZone, type Plan } from '../../src/zone/plan.js';
import type { LiveRecord } from '../../src/zone/record.js';
import { safetyProblems } from '../../src/zone/safety.js';

const Z = 'example.com';
const live = (n: number): LiveRecord[] => Array.from({ length: n }, (_, i) => ({ entityID: String(i), name: `h${i}.${Z}`, type: 'A', value: `10.0.${i >> 8}.${i & 255}` }));
/** A plan that deletes `deleted` of `total` records. */
function deleting(deleted: number, total: number): Plan {
  const zone = live(total);
  const records = zone.slice(deleted).map(({ entityID: _e, ...r }) => ({ ...r, type: 'A' as const, where: 'z:1:1' }));
  return planZone(zone, { zone: Z, records, notes: [] }, () => undefined);
}

describe('the 30% rule at its edges', () => {
  it('exactly 10 records: 3 changes (30%) pass, 4 stop; 9 records are not held to it', () => {
    expect(safetyProblems(deleting(3, 10))).toEqual([]);
    expect(safetyProblems(deleting(4, 10))[0]).toContain('4 of the zone\'s 10 records (40%, more than 30%)');
    expect(safetyProblems(deleting(8, 9))).toEqual([]);
  });

  it('a plan that deletes every record stops whatever the size of the zone (an empty or wrong file)', () => {
    expect(safetyProblems(deleting(9, 9))).toEqual(["it would delete every record of the zone (9); is the file the right one?"]);
    expect(safetyProblems(deleting(1, 1))).toEqual(["it would delete every record of the zone (1); is the file the right one?"]);
    expect(safetyProblems(deleting(0, 0))).toEqual([]);
    expect(safetyProblems(deleting(12, 12))).toContain("it would delete every record of the zone (12); is the file the right one?");
  });

  it('exactly 30% of a large zone passes; just over it says by how much, never "30%, more than 30%"', () => {
    expect(safetyProblems(deleting(300, 1000))).toEqual([]);
    expect(safetyProblems(deleting(30, 100))).toEqual([]);
    const over = safetyProblems(deleting(301, 1000))[0];
    expect(over).toContain('301 of the zone\'s 1000 records (30.1%, more than 30%)');
    expect(safetyProblems(deleting(3001, 10000))[0]).toContain('(30.01%, more than 30%)');
  });
});
