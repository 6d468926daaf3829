// Which updates of a failed batch the failing write belongs to: by the name and type of the
// record the failing step wrote (the plan may merge two updates' changes into one step).
import { describe, expect, it } from 'vitest';
import { bystanderReason, holdsFailedWrite } from '../../../../src/gateway/update/failed-write.js';
import type { Change } from '../../../../src/zone/plan/plan.js';
import type { LiveRecord, ZoneRecord } from '../../../../src/zone/record.js';
import type { Step } from '../../../../src/zone/plan/steps.js';

const live: LiveRecord = { entityID: '1', name: 'a.dyn.example.com', type: 'A', value: '192.0.2.9' };
const create = (name: string, type: ZoneRecord['type'] = 'A', value = '192.0.2.4'): Change => ({
  action: 'create',
  after: { name, type, value },
});
const remove: Change = { action: 'delete', before: live };
const stepOf = (change: Change): Step => ({ call: change.action, record: (change.after ?? change.before)!, change });

describe('holdsFailedWrite', () => {
  it('is true for the update whose change is the failing write, false for one at another name or type', () => {
    const failing = stepOf(create('four.home.example.com'));
    expect(holdsFailedWrite([create('four.home.example.com', 'A', '192.0.2.5')], failing)).toBe(true);
    expect(holdsFailedWrite([remove], failing)).toBe(false);
    expect(holdsFailedWrite([create('four.home.example.com', 'TXT', 'x')], failing)).toBe(false);
  });

  it("counts an update of a record as its old and its new value (one step for two updates' changes)", () => {
    const merged = stepOf({
      action: 'update',
      before: live,
      after: { name: live.name, type: 'A', value: '192.0.2.10' },
    });
    expect(holdsFailedWrite([remove], merged)).toBe(true);
    expect(holdsFailedWrite([create('a.dyn.example.com', 'A', '192.0.2.10')], merged)).toBe(true);
  });

  it("is true for every update when the failure names no step, and the bystanders' reason names no record", () => {
    expect(holdsFailedWrite([remove], undefined)).toBe(true);
    expect(bystanderReason(true, '')).toBe(
      'the provider refused a write of another update sent at the same time; send it again',
    );
  });
});
