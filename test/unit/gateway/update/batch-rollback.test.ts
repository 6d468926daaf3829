// A batch whose writes failed half-way (batch-rollback.ts), against an in-memory zone: its own
// writes taken back, the update that held the failing write told which, the others (bystanders)
// rolled back with it and sent round again or told to send again, and the journal told.
import { describe, expect, it } from 'vitest';
import { EDE } from '../../../../src/dns/wire/edns.js';
import { applyBatch } from '../../../../src/gateway/update/batch.js';
import { RCODE_UPDATE } from '../../../../src/gateway/update/rules.js';
import {
  addA,
  batchWorld,
  noA,
  pendingUpdate,
  updateOf,
  ZONE,
  type WorldOptions,
} from '../../../helpers/update-batch.js';
import type { WriteFault, WriteCall } from '../../../helpers/memory-zone.js';

const records = [{ name: 'kept.example.com', type: 'A', ttl: 300, value: '192.0.2.1' }];

/** alice's add at a (made), bob's at b (the write that fails), and bob's add at a that waits on alice's. */
async function failing(onWrite: (call: WriteCall) => WriteFault | undefined, options: WorldOptions = {}) {
  const world = await batchWorld({ records, ...options });
  world.zone.onWrite = onWrite;
  const bystander = pendingUpdate('alice', updateOf(addA('a.example.com', '192.0.2.2')));
  const offender = pendingUpdate('bob', updateOf(addA('b.example.com', '192.0.2.3')));
  const waiting = pendingUpdate('bob', updateOf(noA('a.example.com'), addA('a.example.com', '192.0.2.9')));
  const before = world.zone.calls.length;
  const again = await applyBatch(ZONE, [bystander, waiting, offender], world.deps, world.newId);
  return { world, again, bystander, offender, waiting, calls: world.zone.calls.slice(before) };
}

describe('a batch the provider refused half-way', () => {
  it("takes back the bystander's write that was made; the bystander and the update waiting go round again, in order", async () => {
    const { world, again, bystander, offender, waiting, calls } = await failing((call) =>
      call.name === 'b.example.com' ? 'refused' : undefined,
    );
    expect(calls).toEqual([
      'list',
      'create a.example.com A 192.0.2.2',
      'create b.example.com A 192.0.2.3',
      'list',
      expect.stringMatching(/^delete e\d+$/),
      'list',
    ]);
    expect(world.zone.held()).toEqual(['kept.example.com A 192.0.2.1']);
    expect(offender.answers).toEqual([
      {
        rcode: RCODE_UPDATE.REFUSED,
        ede: EDE.PROHIBITED,
        why: expect.stringMatching(/^the provider refused a write \(.*\); the writes made before it were undone$/),
      },
    ]);
    expect([bystander.answers, waiting.answers]).toEqual([[], []]);
    expect(again).toEqual([bystander, waiting]);
    expect(world.journalResults()).toEqual(['not made', 'not made']);
  });

  it('tells the bystander to send again (SERVFAIL) when the provider failed rather than refused a value', async () => {
    const { again, bystander, offender, waiting } = await failing((call) =>
      call.name === 'b.example.com' ? 'failed' : undefined,
    );
    expect(offender.answers).toEqual([
      {
        rcode: RCODE_UPDATE.SERVFAIL,
        ede: EDE.NETWORK_ERROR,
        why: expect.stringContaining('the provider failed a write ('),
      },
    ]);
    expect(bystander.answers).toEqual([
      {
        rcode: RCODE_UPDATE.SERVFAIL,
        ede: EDE.NETWORK_ERROR,
        why: 'the provider failed a write of another update sent at the same time; the writes made before it were undone; send it again',
      },
    ]);
    expect(again).toEqual([waiting]);
  });

  it('says so when undoing failed too: journaled unknown, the bystander whose write remains told it failed', async () => {
    const { world, again, bystander, offender, waiting } = await failing((call) =>
      call.name === 'b.example.com' || call.call === 'delete' ? 'refused' : undefined,
    );
    expect(world.zone.held()).toContain('a.example.com A 192.0.2.2');
    expect(offender.answers).toEqual([
      {
        rcode: RCODE_UPDATE.SERVFAIL,
        ede: EDE.PROHIBITED,
        why: expect.stringContaining('; undoing the writes made before it failed too'),
      },
    ]);
    expect(bystander.answers).toEqual([
      {
        rcode: RCODE_UPDATE.SERVFAIL,
        ede: EDE.OTHER,
        why: expect.stringContaining('another update sent at the same time; undoing'),
      },
    ]);
    expect(again).toEqual([waiting]);
    expect(world.journalResults()).toEqual(['unknown', 'unknown']);
  });

  it('gives back what the budget set aside, whatever became of the batch', async () => {
    let released = 0;
    const world = await batchWorld({ records });
    world.deps.releaseCalls = () => void released++;
    world.zone.onWrite = () => 'refused';
    await applyBatch(
      ZONE,
      [pendingUpdate('alice', updateOf(addA('a.example.com', '192.0.2.2')))],
      world.deps,
      world.newId,
    );
    expect(released).toBe(1);
  });
});
