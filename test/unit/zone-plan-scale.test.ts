// Planning is n log n at worst (issue 17): one name with tens of thousands of values (a TXT
// set grown by a script, a round-robin A), a file whose records are all kept, a plan that
// leaves most of a big zone alone. Each input below took minutes when a step was quadratic
// (a findIndex and a splice per record of a group, a scan of the whole zone per kept record
// of the file, an includes() per record left alone) and takes well under a second now: the
// test does not time anything, it would only never finish.
import { describe, expect, it } from 'vitest';
import { checkKeptConflicts } from '../../src/zone/kept-conflicts.js';
import { ownership } from '../../src/zone/ownership.js';
import { planZone, summarize } from '../../src/zone/plan.js';
import type { LiveRecord } from '../../src/zone/record.js';
import type { WantedRecord, WantedZone } from '../../src/zone/wanted-zone.js';

const Z = 'example.com';
const N = 60_000;
const nobody = ownership({ zone: Z, hosts: [], ignore: [] });
const zoneOf = (records: WantedRecord[]): WantedZone => ({ zone: Z, records, notes: [] });
/** A few seconds on a loaded 2-core machine; a quadratic step takes many minutes. */
const ROOM = { timeout: 60_000 };

describe('planning big groups and big zones', () => {
  it(`one name and type with ${N} values: identical ones stay, a TTL is an update, new values pair with old ones`, ROOM, () => {
    const live: LiveRecord[] = Array.from({ length: N }, (_, i) => ({ entityID: String(i), name: `big.${Z}`, type: 'TXT', value: `v${i}` }));
    // A third identical, a third with a TTL, a third new values; then 100 more.
    const wanted = Array.from({ length: N + 100 }, (_, i): WantedRecord => ({ name: `big.${Z}`, type: 'TXT', value: i % 3 === 2 || i >= N ? `w${i}` : `v${i}`, ...(i % 3 === 1 ? { ttl: 60 } : {}), where: `z:${i + 2}:1` }));
    const plan = planZone(live, zoneOf(wanted), nobody);
    expect(summarize(plan)).toEqual({ create: 100, update: (2 * N) / 3, delete: 0, unchanged: N / 3 });
    const ttlUpdate = plan.changes.find((c) => c.before?.value === 'v1');
    expect(ttlUpdate).toMatchObject({ action: 'update', after: { value: 'v1', ttl: 60 } });
    expect(() => checkKeptConflicts(plan, zoneOf(wanted))).not.toThrow();
  });

  it(`a file of ${N} records that ownership keeps: each reported once, none applied`, ROOM, () => {
    const live: LiveRecord[] = Array.from({ length: N }, (_, i) => ({ entityID: String(i), name: `h${i}.${Z}`, type: 'TXT', value: `v${i}` }));
    const wanted = Array.from({ length: N }, (_, i): WantedRecord => ({ name: `h${i}.${Z}`, type: 'TXT', value: i % 2 ? `v${i}` : `x${i}`, where: `z:${i + 2}:1` }));
    const plan = planZone(live, zoneOf(wanted), ownership({ zone: Z, hosts: [], ignore: ['*:TXT'] }));
    expect(plan.changes).toEqual([]);
    // The live ones, and the file's values that differ from them.
    expect(plan.kept).toHaveLength(N + N / 2);
  });

  it(`a plan that leaves ${N} records alone beside ${N} unchanged: the CNAME check looks each name up once`, ROOM, () => {
    const live: LiveRecord[] = Array.from({ length: 2 * N }, (_, i) => ({ entityID: String(i), name: `h${i}.${Z}`, type: 'A', value: '192.0.2.1' }));
    const wanted = live.slice(0, N).map(({ entityID: _e, ...r }): WantedRecord => ({ ...r, type: 'A', where: 'z:1:1' }));
    wanted.push({ name: `h${N + 5}.${Z}`, type: 'CNAME', value: Z, where: 'z:9:1' });
    const plan = planZone(live, zoneOf(wanted), nobody, { keepUnlisted: true });
    expect(summarize(plan)).toEqual({ create: 1, update: 0, delete: 0, unchanged: N });
    expect(() => checkKeptConflicts(plan, zoneOf(wanted))).toThrow(`z:9:1: a CNAME cannot share its name with other data: h${N + 5}.${Z} keeps A 192.0.2.1 (not in the file (--keep-unlisted)) (RFC 1034 §3.6.2)`);
  });
});
