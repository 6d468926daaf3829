// Planning is n log n at worst, whatever the zone's shape: one name with thousands of values (a
// TXT set grown by a script, a round-robin A), a file whose records are all kept, a plan that
// leaves most of a big zone alone. Nothing is timed: the records and lists the functions read are counted
// (through proxies), and the count must stay within a bound of n log n. The quadratic steps
// these replace (a findIndex and a splice per record of a group, a scan of the whole zone per
// kept record of the file, an includes() per record left alone) read n² / 2 at least: 200
// million here, against a bound of about 3 million (the code reads about 0.5 million); past
// the bound the proxies throw, so a quadratic step fails at once instead of running for minutes.
import { describe, expect, it } from 'vitest';
import { checkKeptConflicts } from '../../../../src/zone/plan/kept-conflicts.js';
import { ownership } from '../../../../src/zone/plan/ownership.js';
import { planZone, summarize, type Plan } from '../../../../src/zone/plan/plan.js';
import type { LiveRecord } from '../../../../src/zone/record.js';
import type { WantedRecord, WantedZone } from '../../../../src/zone/wanted-zone.js';

const Z = 'example.com';
const N = 20_000;
/** Reads allowed per record and per level of a sort (log2 n). */
const PER_RECORD_AND_LEVEL = 4;
const bound = (n: number) => PER_RECORD_AND_LEVEL * n * Math.ceil(Math.log2(n));
const nobody = ownership({ zone: Z, hosts: [], ignore: [] });
const zoneOf = (records: WantedRecord[]): WantedZone => ({ zone: Z, records, notes: [] });
/** Room for the proxies on a loaded machine: the suite's bound (vitest.config.ts), not a tighter one. */
const ROOM = {};

/** Every property read of the objects (and arrays) it wraps, counted; past `limit`, an error at once. */
function counter(limit: number) {
  let reads = 0;
  const handler: ProxyHandler<object> = {
    get(target, key, receiver) {
      if (++reads > limit) throw new Error(`more than ${limit} reads: not n log n`);
      return Reflect.get(target, key, receiver);
    },
  };
  return {
    wrap: <T extends object>(value: T): T => new Proxy(value, handler) as T,
    reads: () => reads,
  };
}

describe('planning reads each record n log n times at worst', () => {
  it(
    `one name and type with ${N} values: identical ones stay, a TTL is an update, new values pair with old ones`,
    ROOM,
    () => {
      const count = counter(bound(2 * N));
      const live = count.wrap(
        Array.from(
          { length: N },
          (_, i): LiveRecord => count.wrap({ entityID: String(i), name: `big.${Z}`, type: 'TXT', value: `v${i}` }),
        ),
      );
      // A third identical, a third with a TTL, a third new values; then 99 more.
      const wanted = Array.from(
        { length: N + 99 },
        (_, i): WantedRecord =>
          count.wrap({
            name: `big.${Z}`,
            type: 'TXT',
            value: i % 3 === 2 || i >= N ? `w${i}` : `v${i}`,
            ...(i % 3 === 1 ? { ttl: 60 } : {}),
            where: `z:${i + 2}:1`,
          }),
      );
      const plan = planZone(live, zoneOf(wanted), nobody);
      checkKeptConflicts(plan, zoneOf(wanted));
      expect(count.reads()).toBeLessThan(bound(2 * N));
      expect(summarize(plan)).toEqual({
        create: 99,
        update: N - Math.ceil(N / 3),
        delete: 0,
        unchanged: Math.ceil(N / 3),
      });
      expect(plan.changes.find((c) => c.before?.value === 'v1')).toMatchObject({
        action: 'update',
        after: { value: 'v1', ttl: 60 },
      });
    },
  );

  it(`a file of ${N} records that ownership keeps: each reported once, none applied`, ROOM, () => {
    const count = counter(bound(2 * N));
    const live = count.wrap(
      Array.from(
        { length: N },
        (_, i): LiveRecord => count.wrap({ entityID: String(i), name: `h${i}.${Z}`, type: 'TXT', value: `v${i}` }),
      ),
    );
    const wanted = Array.from(
      { length: N },
      (_, i): WantedRecord =>
        count.wrap({ name: `h${i}.${Z}`, type: 'TXT', value: i % 2 ? `v${i}` : `x${i}`, where: `z:${i + 2}:1` }),
    );
    const plan = planZone(live, zoneOf(wanted), ownership({ zone: Z, hosts: [], ignore: ['*:TXT'] }));
    expect(count.reads()).toBeLessThan(bound(2 * N));
    expect(plan.changes).toEqual([]);
    // The live ones, and the file's values that differ from them.
    expect(plan.kept).toHaveLength(N + N / 2);
  });

  it(
    `a plan that leaves ${N} records alone beside ${N} unchanged: the CNAME check looks each name up once`,
    ROOM,
    () => {
      const live: LiveRecord[] = Array.from({ length: 2 * N }, (_, i) => ({
        entityID: String(i),
        name: `h${i}.${Z}`,
        type: 'A',
        value: '192.0.2.1',
      }));
      const wanted = live
        .slice(0, N)
        .map(({ entityID: _e, ...r }): WantedRecord => ({ ...r, type: 'A', where: 'z:1:1' }));
      wanted.push({ name: `h${N + 5}.${Z}`, type: 'CNAME', value: Z, where: 'z:9:1' });
      const planned = planZone(live, zoneOf(wanted), nobody, { keepUnlisted: true });
      expect(summarize(planned)).toEqual({ create: 1, update: 0, delete: 0, unchanged: N });
      const count = counter(bound(3 * N));
      const plan: Plan = {
        ...planned,
        live: count.wrap(planned.live.map(count.wrap)),
        unchanged: count.wrap(planned.unchanged.map(count.wrap)),
        changes: count.wrap(planned.changes),
      };
      expect(() => checkKeptConflicts(plan, zoneOf(wanted))).toThrow(
        `z:9:1: a CNAME cannot share its name with other data: h${N + 5}.${Z} keeps A 192.0.2.1 (not in the file (--keep-unlisted)) (RFC 1034 §3.6.2)`,
      );
      expect(count.reads()).toBeLessThan(bound(3 * N));
    },
  );
});
