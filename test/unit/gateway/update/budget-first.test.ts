// An update through the DNS door asks the call budget before anything is read, as the dyndns2
// door does: when what is left cannot pay for the cheapest change (the reading, one write, its
// undoing and the reading again), the update is answered at once and the provider is not called.
import { describe, expect, it } from 'vitest';
import { EDE } from '../../../../src/dns/wire/edns.js';
import { applyBatch } from '../../../../src/gateway/update/batch.js';
import { RCODE_UPDATE } from '../../../../src/gateway/update/rules.js';
import { addA, batchWorld, noA, pendingUpdate, updateOf, ZONE } from '../../../helpers/update-batch.js';

const records = [{ name: 'kept.example.com', type: 'A', ttl: 300, value: '192.0.2.1' }];

/** One update in one batch, with `left` calls left in the budget once the view was read; the calls it made. */
async function withCallsLeft(left: number, message = updateOf(addA('new.example.com', '192.0.2.2'))) {
  const world = await batchWorld({ records, budget: 1 + left });
  const update = pendingUpdate('alice', message);
  const before = world.zone.calls.length;
  await applyBatch(ZONE, [update], world.deps, world.newId);
  return { world, update, calls: world.zone.calls.slice(before) };
}

describe('an RFC 2136 update and the call budget', () => {
  it('makes no provider call when what is left cannot pay for the cheapest change', async () => {
    const { update, calls, world } = await withCallsLeft(3);
    expect(calls).toEqual([]);
    expect(world.zone.held()).toEqual(['kept.example.com A 192.0.2.1']);
    expect(update.answers).toEqual([
      { rcode: RCODE_UPDATE.SERVFAIL, ede: EDE.OTHER, why: '4 calls do not fit the 3 left' },
    ]);
  });

  it('reads and writes when the budget can pay for that much', async () => {
    const { update, calls, world } = await withCallsLeft(4);
    expect(calls).toEqual(['list', 'create new.example.com A 192.0.2.2']);
    expect(world.zone.held()).toContain('new.example.com A 192.0.2.2');
    expect(update.answers).toEqual([{ rcode: RCODE_UPDATE.NOERROR, ede: 0, why: '', changed: true }]);
  });

  it('reads for an update that only checks prerequisites while the budget pays for the reading alone', async () => {
    const { update, calls } = await withCallsLeft(1, updateOf(noA('new.example.com')));
    expect(calls).toEqual(['list']);
    expect(update.answers).toEqual([{ rcode: RCODE_UPDATE.NOERROR, ede: 0, why: '' }]);
  });
});
