// The CNAME rule against what a plan leaves alone: which records stay, which one a CNAME (or
// the data beside a CNAME) meets, and the file line and reason the refusal names.
import { describe, expect, it } from 'vitest';
import { checkKeptConflicts } from '../../../../src/zone/plan/kept-conflicts.js';
import type { KeptRecord, Plan, Change } from '../../../../src/zone/plan/plan.js';
import type { LiveRecord, ZoneRecord } from '../../../../src/zone/record.js';
import type { WantedRecord, WantedZone } from '../../../../src/zone/wanted-zone.js';

const Z = 'example.com';
const live = (id: number, name: string, type: string, value: string): LiveRecord => ({
  entityID: String(id),
  name,
  type,
  value,
});
const record = (name: string, type: string, value: string): ZoneRecord => ({ name, type, value }) as ZoneRecord;
const line = (where: string, name: string, type: string, value: string) =>
  ({ ...record(name, type, value), where }) as WantedRecord;
const file = (...records: WantedRecord[]): WantedZone => ({ zone: Z, records, notes: [] });
const planOf = (parts: {
  live: LiveRecord[];
  changes?: Change[];
  unchanged?: LiveRecord[];
  kept?: KeptRecord[];
}): Plan => ({
  zone: Z,
  changes: parts.changes ?? [],
  kept: parts.kept ?? [],
  unchanged: parts.unchanged ?? [],
  live: parts.live,
  touchable: 0,
});
const refusal = (plan: Plan, wanted: WantedZone): string => {
  try {
    checkKeptConflicts(plan, wanted);
  } catch (error) {
    return (error as Error).message;
  }
  return 'no refusal';
};
const RFC = '(RFC 1034 §3.6.2)';

describe('checkKeptConflicts', () => {
  const www = `www.${Z}`;
  const host = live(1, www, 'A', '192.0.2.1');

  it('names the line of the record created and the reason the record it meets is kept', () => {
    const cname = record(www, 'CNAME', `x.${Z}`);
    const plan = planOf({
      live: [host],
      changes: [{ action: 'create', after: cname }],
      kept: [
        { name: `other.${Z}`, type: 'A', value: '192.0.2.1', reason: 'another name' },
        { name: www, type: 'TXT', value: '192.0.2.1', reason: 'another type' },
        { name: www, type: 'A', value: '192.0.2.9', reason: 'another value' },
        { name: www, type: 'A', value: '192.0.2.1', reason: "one of the agent's hosts, DDEDGE_HOSTS or --host" },
      ],
    });
    const wanted = file(
      line('z:1:1', `other.${Z}`, 'CNAME', `x.${Z}`),
      line('z:2:1', www, 'TXT', `x.${Z}`),
      line('z:3:1', www, 'CNAME', `y.${Z}`),
      line('z:4:1', www, 'CNAME', `x.${Z}`),
    );
    const message = `z:4:1: a CNAME cannot share its name with other data: ${www} keeps A 192.0.2.1 (one of the agent's hosts, DDEDGE_HOSTS or --host) ${RFC}`;
    expect(refusal(plan, wanted)).toBe(message);
  });

  it('without its exact line, names the first line of its name, else the zone; unlisted, the record is "left alone"', () => {
    const plan = planOf({ live: [host], changes: [{ action: 'create', after: record(www, 'CNAME', `x.${Z}`) }] });
    const sameName = file(line('z:1:1', `a.${Z}`, 'A', '192.0.2.3'), line('z:2:1', www, 'MX', `x.${Z}`));
    expect(refusal(plan, sameName)).toBe(
      `z:2:1: a CNAME cannot share its name with other data: ${www} keeps A 192.0.2.1 (left alone) ${RFC}`,
    );
    expect(refusal(plan, file(line('z:1:1', `a.${Z}`, 'A', '192.0.2.3')))).toMatch(
      /^example\.com: a CNAME cannot share/,
    );
  });

  it('data created beside a CNAME left alone meets the CNAME, not the first record at the name', () => {
    const plan = planOf({
      live: [host, live(2, www, 'CNAME', `x.${Z}`)],
      changes: [{ action: 'create', after: record(www, 'TXT', 't') }],
    });
    expect(refusal(plan, file())).toContain(`${www} keeps CNAME x.${Z} (left alone)`);
    const cnameFirst = planOf({
      live: [live(2, www, 'CNAME', `x.${Z}`), host],
      changes: [{ action: 'create', after: record(www, 'TXT', 't') }],
    });
    expect(refusal(cnameFirst, file())).toContain(`${www} keeps CNAME x.${Z} (left alone)`);
    const plain = planOf({
      live: [host, live(2, www, 'TXT', 'u')],
      changes: [{ action: 'create', after: record(www, 'TXT', 't') }],
    });
    expect(refusal(plain, file())).toBe('no refusal');
  });

  it('a record the plan deletes, updates or keeps as it is does not stay beside the CNAME', () => {
    const kept = live(3, `mail.${Z}`, 'TXT', 'kept');
    const cname = record(www, 'CNAME', `x.${Z}`);
    const deleting = planOf({
      live: [host, kept],
      changes: [
        { action: 'delete', before: host },
        { action: 'create', after: cname },
      ],
    });
    expect(refusal(deleting, file())).toBe('no refusal');
    const updating = planOf({ live: [host, kept], changes: [{ action: 'update', before: host, after: cname }] });
    expect(refusal(updating, file())).toBe('no refusal');
    const alone = live(4, www, 'CNAME', `x.${Z}`);
    expect(refusal(planOf({ live: [alone, kept], unchanged: [alone] }), file())).toBe('no refusal');
  });

  it('a record created counts as no record left alone: a CNAME beside a record left alone is found', () => {
    const kept = live(3, `mail.${Z}`, 'TXT', 'kept');
    const plan = planOf({
      live: [host, kept],
      changes: [
        { action: 'delete', before: host },
        { action: 'create', after: record(kept.name, 'CNAME', `x.${Z}`) },
      ],
    });
    expect(refusal(plan, file())).toContain(`mail.${Z} keeps TXT kept (left alone)`);
    const unchanged = planOf({
      live: [host, kept],
      unchanged: [host],
      changes: [{ action: 'create', after: record(kept.name, 'CNAME', `x.${Z}`) }],
    });
    expect(refusal(unchanged, file())).toContain(`mail.${Z} keeps TXT kept (left alone)`);
  });
});
