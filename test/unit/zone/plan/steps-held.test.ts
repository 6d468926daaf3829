// stepsHeld judges, after a write whose answer was lost, which steps of a plan the zone read
// again shows made: the gateway and zone apply report by it.
import { describe, expect, it } from 'vitest';
import { parseFault } from '../../../../src/sandbox/faults.js';
import type { LiveRecord, ZoneRecord } from '../../../../src/zone/record.js';
import type { Step } from '../../../../src/zone/plan/steps.js';
import { stepsHeld } from '../../../../src/zone/plan/steps-held.js';

const rec = (entityID: string, name: string, value: string, ttl?: number): LiveRecord =>
  ({ entityID, name, type: 'A', value, ...(ttl === undefined ? {} : { ttl }) }) as LiveRecord;
const create = (name: string, value: string): Step => ({
  call: 'create',
  record: { name, type: 'A', value },
  change: { action: 'create', after: { name, type: 'A', value } },
});

describe('stepsHeld', () => {
  it('counts each new entry once: two creates of one value need two new entries', () => {
    const before = [rec('1', 'a.example.com', '192.0.2.1')];
    const steps = [create('b.example.com', '192.0.2.2'), create('b.example.com', '192.0.2.2')];
    expect(stepsHeld(steps, [...before, rec('2', 'b.example.com', '192.0.2.2')], before)).toHaveLength(1);
    expect(
      stepsHeld(
        steps,
        [...before, rec('2', 'b.example.com', '192.0.2.2'), rec('3', 'b.example.com', '192.0.2.2')],
        before,
      ),
    ).toHaveLength(2);
  });

  it('a create of a value the zone held before is not shown by the old entry', () => {
    const before = [rec('1', 'a.example.com', '192.0.2.1')];
    expect(stepsHeld([create('a.example.com', '192.0.2.1')], before, before)).toEqual([]);
  });

  it('an update by its entry holding the new value (and TTL), a delete by its entry gone', () => {
    const old = rec('1', 'a.example.com', '192.0.2.1', 300);
    const update: Step = {
      call: 'update',
      entityID: '1',
      record: rec('1', 'a.example.com', '192.0.2.9', 60),
      change: {
        action: 'update',
        before: old,
        after: { name: 'a.example.com', type: 'A', value: '192.0.2.9', ttl: 60 } as ZoneRecord,
      },
    };
    const remove: Step = { call: 'delete', entityID: '1', record: old, change: { action: 'delete', before: old } };
    expect(stepsHeld([update], [rec('1', 'a.example.com', '192.0.2.9', 60)], [old])).toEqual([update]);
    expect(stepsHeld([update], [rec('1', 'a.example.com', '192.0.2.9', 300)], [old])).toEqual([]);
    expect(stepsHeld([remove], [], [old])).toEqual([remove]);
    expect(stepsHeld([remove], [old], [old])).toEqual([]);
  });
});

describe('the lost-answer fault', () => {
  it('is written <target>=lost-answer, with a count', () => {
    expect(parseFault('service/dnscreate=lost-answerx2')).toMatchObject({
      target: 'service/dnscreate',
      kind: 'lost-answer',
      remaining: 2,
    });
    expect(() => parseFault('service/dnscreate=lost-nothing')).toThrow(/kind one of .*lost-answer/);
  });
});

describe('stepsHeld: what an entry must show', () => {
  const old = rec('1', 'a.example.com', '192.0.2.1', 300);
  const updateTo = (record: LiveRecord): Step => ({
    call: 'update',
    entityID: '1',
    record,
    change: { action: 'update', before: old, after: record as ZoneRecord },
  });

  it('an update whose entry is gone was not made', () => {
    expect(stepsHeld([updateTo(rec('1', 'a.example.com', '192.0.2.9'))], [], [old])).toEqual([]);
  });

  it('an update that sends no TTL or priority holds whatever the entry has of them; one that sends them needs them', () => {
    const noTtl = updateTo(rec('1', 'a.example.com', '192.0.2.9'));
    expect(stepsHeld([noTtl], [rec('1', 'a.example.com', '192.0.2.9', 300)], [old])).toEqual([noTtl]);
    const mx = (priority?: number) =>
      ({ ...rec('1', 'a.example.com', 'mx.example.net'), type: 'MX', priority }) as LiveRecord;
    const toTwenty = updateTo(mx(20));
    expect(stepsHeld([toTwenty], [mx(10)], [old])).toEqual([]);
    expect(stepsHeld([toTwenty], [mx(20)], [old])).toEqual([toTwenty]);
    const noPriority = updateTo(mx());
    expect(stepsHeld([noPriority], [mx(10)], [old])).toEqual([noPriority]);
  });

  it('a create is shown only by a new entry of its name, type and value', () => {
    const before = [rec('1', 'a.example.com', '192.0.2.1')];
    const now = [...before, rec('2', 'c.example.com', '192.0.2.3')];
    expect(stepsHeld([create('b.example.com', '192.0.2.2')], now, before)).toEqual([]);
  });
});
