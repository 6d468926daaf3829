// The 30% rule at its edges, where an off-by-one would go unseen: exactly 10 records, exactly
// 30%, and a share just over 30% that rounding would show as "30%, more than 30%".
import { describe, expect, it } from 'vitest';
import { planZone, type Plan } from '../../../../src/zone/plan/plan.js';
import type { LiveRecord, ZoneRecord } from '../../../../src/zone/record.js';
import { ownership } from '../../../../src/zone/plan/ownership.js';
import { safetyProblems, UnsafePlanError } from '../../../../src/zone/plan/safety.js';
import { ExitCode } from '../../../../src/lib/errors.js';

const Z = 'example.com';
const live = (n: number): LiveRecord[] =>
  Array.from({ length: n }, (_, i) => ({
    entityID: String(i),
    name: `h${i}.${Z}`,
    type: 'A',
    value: `10.0.${i >> 8}.${i & 255}`,
  }));
/** A plan that deletes `deleted` of `total` records. */
function deleting(deleted: number, total: number): Plan {
  const zone = live(total);
  const records = zone.slice(deleted).map(({ entityID: _e, ...r }) => ({ ...r, type: 'A' as const, where: 'z:1:1' }));
  return planZone(zone, { zone: Z, records, notes: [] }, () => undefined);
}

describe('the 30% rule at its edges', () => {
  it('exactly 10 records: 3 changes (30%) pass, 4 stop; 9 records are not held to it', () => {
    expect(safetyProblems(deleting(3, 10))).toEqual([]);
    expect(safetyProblems(deleting(4, 10))[0]).toContain("4 of the zone's 10 records (40%, more than 30%)");
    expect(safetyProblems(deleting(8, 9))).toEqual([]);
  });

  it('a plan that deletes every record stops whatever the size of the zone (an empty or wrong file)', () => {
    expect(safetyProblems(deleting(9, 9))).toEqual([
      'it would delete every record of the zone (9); is the file the right one?',
    ]);
    expect(safetyProblems(deleting(1, 1))).toEqual([
      'it would delete every record of the zone (1); is the file the right one?',
    ]);
    expect(safetyProblems(deleting(0, 0))).toEqual([]);
    expect(safetyProblems(deleting(12, 12))).toContain(
      'it would delete every record of the zone (12); is the file the right one?',
    );
  });

  it('exactly 30% of a large zone passes; just over it says by how much, never "30%, more than 30%"', () => {
    expect(safetyProblems(deleting(300, 1000))).toEqual([]);
    expect(safetyProblems(deleting(30, 100))).toEqual([]);
    const over = safetyProblems(deleting(301, 1000))[0];
    expect(over).toContain("301 of the zone's 1000 records (30.1%, more than 30%)");
    expect(safetyProblems(deleting(3001, 10000))[0]).toContain('(30.01%, more than 30%)');
  });
});

// The rule counts what the plan may touch, so that a zone's size cannot hide a large change.
// Records it keeps (the agent's hosts, ACME challenges, --ignore, what it cannot write) neither
// dilute the share nor count.
describe('what the safety rule counts', () => {
  const rec = (id: string, name: string, type: string, value: string): LiveRecord => ({
    entityID: id,
    name,
    type,
    value,
  });
  const want = (...records: LiveRecord[]) => ({
    zone: Z,
    records: records.map(({ entityID: _e, ...r }) => ({ ...r, type: r.type as 'A', where: 'z:1:1' })),
    notes: [],
  });
  const hosts = Array.from({ length: 20 }, (_, i) => rec(`h${i}`, `host${i}.${Z}`, 'A', '81.0.2.15'));
  const acme = Array.from({ length: 20 }, (_, i) => rec(`c${i}`, `_acme-challenge.s${i}.${Z}`, 'TXT', `token-${i}`));
  const legacy = Array.from({ length: 10 }, (_, i) => rec(`l${i}`, `legacy-${i}.${Z}`, 'TXT', 'old'));
  const mine = (n: number) => Array.from({ length: n }, (_, i) => rec(`m${i}`, `m${i}.${Z}`, 'A', `192.0.2.${i}`));
  const owner = ownership({ zone: Z, hosts: hosts.map((h) => h.name), ignore: ['legacy-*'] });
  const kept = [...hosts, ...acme, ...legacy];

  it('kept records do not dilute the 30%: 4 of the 10 records it may touch stop the plan, beside 50 it keeps', () => {
    const live = [...kept, ...mine(10)];
    const plan = planZone(live, want(...mine(6)), owner);
    expect(safetyProblems(plan)).toEqual([
      'it would change or delete 4 of the 10 records it may touch (40%, more than 30%; the 50 records it keeps are not counted)',
    ]);
    expect(safetyProblems(planZone(live, want(...mine(7)), owner))).toEqual([]);
  });

  it('a zone with fewer than 10 records it may touch is exempt from the 30%, however many it keeps', () => {
    const live = [...kept, ...mine(9)];
    const changed = mine(9).map((r, i) => (i < 5 ? { ...r, value: `198.51.100.${i}` } : r));
    expect(safetyProblems(planZone(live, want(...changed), owner))).toEqual([]);
    // One kept record made 10 in all: before, 4 updates of 10 stopped the plan.
    const nine = [rec('k', `_acme-challenge.${Z}`, 'TXT', 't'), ...mine(9)];
    expect(
      safetyProblems(
        planZone(nine, want(...mine(9).map((r, i) => (i < 4 ? { ...r, value: `198.51.100.${i}` } : r))), owner),
      ),
    ).toEqual([]);
  });

  it('creates count for nothing, neither in the share nor in the base', () => {
    const plan = planZone(
      mine(10),
      want(
        ...mine(10).map((r, i) => (i < 3 ? { ...r, value: `198.51.100.${i}` } : r)),
        ...Array.from({ length: 40 }, (_, i) => rec('', `new${i}.${Z}`, 'A', '192.0.2.99')),
      ),
      owner,
    );
    expect(plan.changes.filter((c) => c.action === 'create')).toHaveLength(40);
    expect(safetyProblems(plan)).toEqual([]);
  });

  it('deleting every record it may touch stops, even when it keeps others', () => {
    const plan = planZone([...kept, ...mine(2)], want(), owner);
    expect(safetyProblems(plan)).toEqual([
      'it would delete every record of the zone that it may touch (2; the 50 records it keeps stay); is the file the right one?',
    ]);
    // Nothing it may touch: nothing to stop.
    expect(safetyProblems(planZone(kept, want(), owner))).toEqual([]);
  });
});

describe('the apex: the last addresses and the last MX are protected, not every edit', () => {
  const rec = (id: string, name: string, type: string, value: string, priority?: number): LiveRecord => ({
    entityID: id,
    name,
    type,
    value,
    ...(priority === undefined ? {} : { priority }),
  });
  const want = (...records: LiveRecord[]) => ({
    zone: Z,
    records: records.map(({ entityID: _e, ...r }) => ({ ...r, type: r.type as 'A', where: 'z:1:1' })),
    notes: [],
  });
  const nobody = ownership({ zone: Z, hosts: [], ignore: [] });
  const a = rec('1', Z, 'A', '192.0.2.1');
  const aaaa = rec('2', Z, 'AAAA', '2001:db8::1');
  const mx1 = rec('3', Z, 'MX', `mx1.${Z}`, 10);
  const mx2 = rec('4', Z, 'MX', `mx2.${Z}`, 20);
  const spf = rec('5', Z, 'TXT', 'v=spf1 mx -all');
  const www = rec('6', `www.${Z}`, 'CNAME', Z);
  const zone = [a, aaaa, mx1, mx2, spf, www];
  const problems = (records: LiveRecord[], live = zone, owner = nobody) =>
    safetyProblems(planZone(live, want(...records), owner));

  it('a new SPF text, an MX moved, a new apex address, one of two MX or the AAAA beside an A removed are ordinary changes', () => {
    expect(problems([a, aaaa, mx1, mx2, { ...spf, value: 'v=spf1 mx include:_spf.example.net -all' }, www])).toEqual(
      [],
    );
    expect(problems([a, aaaa, mx1, { ...mx2, value: 'mx3.example.net' }, spf, www])).toEqual([]);
    expect(problems([a, aaaa, { ...mx1, priority: 5 }, mx2, spf, www])).toEqual([]);
    expect(problems([{ ...a, value: '192.0.2.2' }, { ...aaaa, value: '2001:db8::2' }, mx1, mx2, spf, www])).toEqual([]);
    expect(problems([a, aaaa, mx1, spf, www])).toEqual([]);
    expect(problems([a, mx1, mx2, spf, www])).toEqual([]);
    expect(problems([a, aaaa, mx1, mx2, www])).toEqual([]);
  });

  it('deleting every A/AAAA, or every MX, at the apex stops', () => {
    expect(problems([mx1, mx2, spf, www])).toEqual([`it would delete every A/AAAA record at the apex (${Z}: 2)`]);
    expect(problems([a, aaaa, spf, www])).toEqual([`it would delete every MX record at the apex (${Z}: 2)`]);
    expect(problems([spf, www])).toEqual([
      `it would delete every A/AAAA record at the apex (${Z}: 2)`,
      `it would delete every MX record at the apex (${Z}: 2)`,
    ]);
  });

  it("an address the plan keeps at the apex (the agent's host) or creates there is not the last one", () => {
    const agent = ownership({ zone: Z, hosts: [Z], ignore: [] });
    expect(problems([mx1, mx2, spf, www], zone, agent)).toEqual([]);
    expect(problems([rec('', Z, 'AAAA', '2001:db8::9'), mx1, mx2, spf, www])).toEqual([]);
    expect(problems([a, aaaa, rec('', Z, 'MX', 'mx.example.net', 10), spf, www])).toEqual([]);
  });
});

describe('what the safety rules count and say', () => {
  const a = (id: number, name: string, value = '192.0.2.1'): LiveRecord & ZoneRecord => ({
    entityID: String(id),
    name,
    type: 'A',
    value,
  });
  const planOf = (live: LiveRecord[], changes: Plan['changes'], touchable = live.length): Plan => ({
    zone: Z,
    changes,
    kept: [],
    unchanged: [],
    live,
    touchable,
  });
  const hosts = live(11);

  it('counts updates as well as deletes, and says how many records it keeps, in the singular too', () => {
    const updates = hosts.slice(0, 4).map((before) => ({
      action: 'update' as const,
      before,
      after: { ...before, type: 'A' as const, value: '192.0.2.7' },
    }));
    expect(safetyProblems(planOf(hosts.slice(0, 10), updates))).toEqual([
      "it would change or delete 4 of the zone's 10 records (40%, more than 30%)",
    ]);
    expect(safetyProblems(planOf(hosts, updates, 10))).toEqual([
      'it would change or delete 4 of the 10 records it may touch (40%, more than 30%; the 1 record it keeps is not counted)',
    ]);
    expect(safetyProblems(planOf([...hosts, a(99, `x.${Z}`)], updates, 10))[0]).toContain(
      '; the 2 records it keeps are not counted)',
    );
  });

  it('shows the share rounded to whole percents when that is over the limit', () => {
    const deletes = hosts.slice(0, 4).map((before) => ({ action: 'delete' as const, before }));
    expect(safetyProblems(planOf(hosts, deletes))).toEqual([
      "it would change or delete 4 of the zone's 11 records (36%, more than 30%)",
    ]);
  });

  it('deleting every record it may touch names the records it keeps, in the singular too', () => {
    const [one, two] = [a(1, `a.${Z}`), a(2, `b.${Z}`)];
    expect(safetyProblems(planOf([one, two], [{ action: 'delete', before: one }], 1))).toEqual([
      'it would delete every record of the zone that it may touch (1; the one record it keeps stays); is the file the right one?',
    ]);
    expect(safetyProblems(planOf([one, two, a(3, `c.${Z}`)], [{ action: 'delete', before: one }], 1))[0]).toContain(
      '(1; the 2 records it keeps stay)',
    );
  });

  it('the apex keeps an address when one is created there, not when one is created elsewhere', () => {
    const [apex1, apex2, www] = [a(1, Z), a(2, Z, '192.0.2.2'), a(3, `www.${Z}`)];
    const removal = `it would delete every A/AAAA record at the apex (${Z}: 1)`;
    const elsewhere = planOf(
      [apex1, www],
      [
        { action: 'delete', before: apex1 },
        { action: 'create', after: a(4, `new.${Z}`) },
      ],
    );
    expect(safetyProblems(elsewhere)).toEqual([removal]);
    const replaced = planOf(
      [apex1, apex2, www],
      [
        { action: 'delete', before: apex1 },
        { action: 'create', after: a(4, Z, '192.0.2.4') },
      ],
    );
    expect(safetyProblems(replaced)).toEqual([]);
    const moved = planOf(
      [apex1, www],
      [
        { action: 'delete', before: apex1 },
        { action: 'create', after: a(4, Z, '192.0.2.4') },
      ],
    );
    expect(safetyProblems(moved)).toEqual([]);
  });

  it('a stopped plan is a usage error (exit 2)', () => {
    expect(new UnsafePlanError('x').exitCode).toBe(ExitCode.usage);
  });
});
