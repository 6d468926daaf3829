// The export and backup writers cost n log n at worst (zoneAsMasterFile was once quadratic,
// 1,964 ms at 64k records). Wall time is the bench's business (npm run bench); this test counts
// work instead, deterministically: every element a linear array method walks over (includes,
// indexOf, find, filter, ...) while the zone of 2n records is written, against n. A search
// inside a loop, the usual way to turn linear into quadratic, doubles the ratio to about 4.
import { describe, expect, it } from 'vitest';
import type { LiveRecord } from '../../../../src/zone/record.js';
import { unwritableRecords } from '../../../../src/zone/plan/unwritable.js';
import { backupAsMasterFile, zoneAsMasterFile } from '../../../../src/zone/apply/zone-files.js';

const ZONE = 'example.com';
const WALKING = [
  'includes',
  'indexOf',
  'lastIndexOf',
  'find',
  'findIndex',
  'findLast',
  'findLastIndex',
  'some',
  'every',
  'filter',
  'map',
  'flatMap',
  'forEach',
  'reduce',
  'slice',
  'splice',
] as const;

/** Elements walked by Array.prototype's linear methods while `work` runs (synchronously). */
function elementsWalked(work: () => void): number {
  let walked = 0;
  const proto = Array.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  const originals = WALKING.map((name) => [name, proto[name]!] as const);
  for (const [name, original] of originals) {
    proto[name] = function (this: unknown[], ...args: unknown[]) {
      walked += this.length;
      return original.apply(this, args);
    };
  }
  try {
    work();
  } finally {
    for (const [name, original] of originals) proto[name] = original;
  }
  return walked;
}

/** A zone of n records of every kind the writers handle: ordinary, unwritable, duplicate, other types. */
function zoneOf(n: number): LiveRecord[] {
  const records: LiveRecord[] = [];
  for (let i = 0; records.length < n; i++) {
    const r = (name: string, type: string, value: string, extra: Partial<LiveRecord> = {}) =>
      records.push({ entityID: String(records.length + 1), name, type, value, ...extra });
    r(`h${i}.${ZONE}`, 'A', `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
    r(`h${i}.${ZONE}`, 'TXT', `record ${i}`, { ttl: 600 });
    r(`m${i}.${ZONE}`, 'MX', `mx${i}.example.net`, { priority: 10 });
    r(`w${i}.${ZONE}`, 'CNAME', '*.example.net');
    r(`h${i}.${ZONE}`, 'A', `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, { ttl: 60 });
    r(`p${i}.${ZONE}`, 'PTR', 'x.example.net');
  }
  return records.slice(0, n);
}

describe('the cost of writing a zone', () => {
  it.each([
    ['zoneAsMasterFile (export)', (records: LiveRecord[]) => zoneAsMasterFile(ZONE, records, ['header'])],
    ['backupAsMasterFile (backup)', (records: LiveRecord[]) => backupAsMasterFile(ZONE, records, ['header'])],
    ['unwritableRecords', (records: LiveRecord[]) => unwritableRecords(ZONE, records)],
  ])('%s walks at most 2.3 times the elements for twice the records', (_name, write) => {
    const n = 3000;
    const small = zoneOf(n);
    const large = zoneOf(2 * n);
    const once = elementsWalked(() => write(small));
    const twice = elementsWalked(() => write(large));
    expect(once).toBeGreaterThan(0);
    expect(twice / once).toBeLessThanOrEqual(2.3);
    // And in absolute terms: a few walks over the zone, not one per record.
    expect(twice).toBeLessThan(40 * 2 * n);
  });

  it('the counter sees a quadratic writer (so the test above can fail)', () => {
    const quadratic = (records: LiveRecord[]) =>
      records.filter((r) => !records.slice(0, 10).includes(r) && records.indexOf(r) >= 0);
    const once = elementsWalked(() => quadratic(zoneOf(1000)));
    const twice = elementsWalked(() => quadratic(zoneOf(2000)));
    expect(twice / once).toBeGreaterThan(3.5);
  });
});
