import { describe, expect, it } from 'vitest';
import { randomQueryId } from '../../../../src/dns/client/query-id.js';

describe('DNS question IDs', () => {
  it('are 16-bit and spread, across many refills of the pool', () => {
    const ids = Array.from({ length: 5000 }, randomQueryId);
    expect(ids.every((id) => Number.isInteger(id) && id >= 0 && id <= 0xffff)).toBe(true);
    // 5,000 draws from 65,536 values: a few hundred repeats at most, never a constant.
    expect(new Set(ids).size).toBeGreaterThan(4500);
    expect(ids.some((id) => id >= 0x8000) && ids.some((id) => id < 0x8000)).toBe(true);
  });
});
