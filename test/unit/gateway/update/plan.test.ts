// The gateway's plan: the provider calls from the records read to the records wanted, the
// provider's own records (SOA, apex NS, types ddedge does not manage) left as they are.
import { describe, expect, it } from 'vitest';
import { planTo } from '../../../../src/gateway/update/plan.js';
import type { LiveRecord, ZoneRecord } from '../../../../src/zone/record.js';

const live: LiveRecord[] = [
  {
    name: 'example.com',
    type: 'SOA',
    value: 'ns1.example.net. hostmaster.example.com. 1 3600 600 604800 300',
    entityID: '1',
  },
  { name: 'example.com', type: 'NS', value: 'ns1.example.net', entityID: '2' },
  { name: 'old.example.com', type: 'A', value: '192.0.2.1', ttl: 300, entityID: '3' },
  { name: 'same.example.com', type: 'TXT', value: 'kept', ttl: 300, entityID: '4' },
];

describe('planTo', () => {
  it('creates what is wanted, deletes what is not, leaves the provider its SOA and apex NS', () => {
    const wanted: ZoneRecord[] = [
      { name: 'same.example.com', type: 'TXT', value: 'kept', ttl: 300 },
      { name: 'new.example.com', type: 'A', value: '192.0.2.2', ttl: 60 },
    ];
    const plan = planTo(live, wanted, 'example.com');
    expect(plan.changes.map((c) => [c.action, c.before?.name ?? c.after?.name])).toEqual(
      expect.arrayContaining([
        ['create', 'new.example.com'],
        ['delete', 'old.example.com'],
      ]),
    );
    expect(plan.changes).toHaveLength(2);
    expect(plan.unchanged.map((r) => r.entityID)).toEqual(['4']);
    expect(plan.changes.some((c) => c.before?.type === 'SOA' || c.before?.type === 'NS')).toBe(false);
    expect(plan.kept.map((k) => `${k.name} ${k.type}`).sort()).toEqual(['example.com NS', 'example.com SOA']);
  });

  it('changes nothing when the records wanted are the records read', () => {
    const wanted: ZoneRecord[] = live
      .filter((r) => r.type === 'A' || r.type === 'TXT')
      .map(({ entityID: _id, ...r }) => r as ZoneRecord);
    expect(planTo(live, wanted, 'example.com').changes).toEqual([]);
  });
});
