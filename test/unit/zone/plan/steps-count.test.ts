// The calls of a plan counted without making its steps (callsOf): always the count of the
// steps themselves, whatever the changes (a replace is two calls, a delete that frees a CNAME's
// name one, as any other).
import { describe, expect, it } from 'vitest';
import type { Change } from '../../../../src/zone/plan/plan.js';
import { callCount, callsOf, stepsOf } from '../../../../src/zone/plan/steps.js';
import type { LiveRecord, ZoneRecord } from '../../../../src/zone/record.js';

const Z = 'example.com';
const live = (id: number, name: string, type: string, value: string, ttl?: number): LiveRecord => ({
  entityID: String(id),
  name,
  type,
  value,
  ttl,
});
const rec = (name: string, type: ZoneRecord['type'], value: string, ttl?: number): ZoneRecord => ({
  name,
  type,
  value,
  ttl,
});

describe("a plan's calls, counted", () => {
  const at = `www.${Z}`;
  const cases: Record<string, Change[]> = {
    'no change': [],
    'creates only': [
      { action: 'create', after: rec(at, 'A', '192.0.2.1') },
      { action: 'create', after: rec(`mail.${Z}`, 'A', '192.0.2.2') },
    ],
    'an update in place': [
      { action: 'update', before: live(1, at, 'A', '192.0.2.1', 300), after: rec(at, 'A', '192.0.2.1', 600) },
    ],
    'a TTL back to the default (a delete and a create)': [
      {
        action: 'update',
        before: live(1, at, 'A', '192.0.2.1', 300),
        after: rec(at, 'A', '192.0.2.1'),
        replace: true,
      },
    ],
    'a CNAME whose name a delete frees first': [
      { action: 'create', after: rec(at, 'CNAME', `x.${Z}`) },
      { action: 'delete', before: live(2, at, 'A', '192.0.2.1') },
      { action: 'delete', before: live(3, `old.${Z}`, 'TXT', 'gone') },
    ],
  };
  for (const [what, changes] of Object.entries(cases))
    it(`is the count of the steps: ${what}`, () => {
      expect(callsOf(changes)).toBe(callCount(stepsOf(changes)));
    });

  it('counts a replace as two calls and every other change as one', () => {
    expect(callsOf(cases['a TTL back to the default (a delete and a create)']!)).toBe(2);
    expect(callsOf(cases['a CNAME whose name a delete frees first']!)).toBe(3);
  });
});
