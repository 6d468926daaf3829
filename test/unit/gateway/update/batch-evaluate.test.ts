// A batch's evaluation (batch-evaluate.ts), against an in-memory zone read once: each update in
// order against the zone as the updates accepted before it leave it, and the limits that refuse
// one update alone (key quotas, the call budget, the key's share). Evaluating makes no provider call.
import { describe, expect, it } from 'vitest';
import { EDE } from '../../../../src/dns/wire/edns.js';
import { evaluateBatch, simulate, waitingOn } from '../../../../src/gateway/update/batch-evaluate.js';
import { readBatch } from '../../../../src/gateway/update/batch-read.js';
import { RCODE_UPDATE } from '../../../../src/gateway/update/rules.js';
import type { Change } from '../../../../src/zone/plan/plan.js';
import {
  addA,
  batchWorld,
  noA,
  pendingUpdate,
  updateOf,
  ZONE,
  type TrackedUpdate,
  type WorldOptions,
} from '../../../helpers/update-batch.js';

const records = [{ name: 'taken.example.com', type: 'A', ttl: 300, value: '192.0.2.1' }];

/** Reads and evaluates `batch` as a batch of its own; returns the evaluation and the calls made. */
async function evaluate(batch: TrackedUpdate[], options: WorldOptions = {}) {
  const world = await batchWorld({ records, ...options });
  const read = (await readBatch(ZONE, batch, world.zone, world.deps))!;
  const before = world.zone.calls.length;
  const evaluated = await evaluateBatch(ZONE, batch, read, world.deps, world.newId);
  return { world, evaluated, callsMade: world.zone.calls.slice(before) };
}

describe("a batch's evaluation", () => {
  it('judges each update against the zone as those accepted before it leave it; answers wait on the writes once one is accepted', async () => {
    const first = pendingUpdate('bob', updateOf(noA('taken.example.com'), addA('taken.example.com', '192.0.2.5')));
    const add = pendingUpdate('alice', updateOf(addA('new.example.com', '192.0.2.2')));
    const after = pendingUpdate('bob', updateOf(noA('new.example.com'), addA('new.example.com', '192.0.2.3')));
    const { evaluated, callsMade } = await evaluate([first, add, after]);
    // Decided before any update was accepted: answered at once.
    expect(first.answers).toEqual([{ rcode: RCODE_UPDATE.YXRRSET, ede: expect.any(Number), why: expect.any(String) }]);
    expect(evaluated.accepted.map((a) => a.pending)).toEqual([add]);
    // Its prerequisite fails only because of alice's add: its answer waits for that add to be made.
    expect(after.answers).toEqual([]);
    expect(waitingOn(evaluated)).toEqual([after]);
    expect(evaluated.contingent[0]!.outcome.rcode).toBe(RCODE_UPDATE.YXRRSET);
    expect(evaluated.wanted.map((r) => `${r.name} ${r.value}`)).toEqual([
      'taken.example.com 192.0.2.1',
      'new.example.com 192.0.2.2',
    ]);
    expect(callsMade).toEqual([]);
  });

  it('answers an update that changes nothing NOERROR at once, accepting nothing', async () => {
    const same = pendingUpdate('alice', updateOf(addA('taken.example.com', '192.0.2.1')));
    const { evaluated } = await evaluate([same]);
    expect(same.answers).toEqual([{ rcode: 0, ede: 0, why: '' }]);
    expect(evaluated.accepted).toEqual([]);
  });

  it("refuses the update that would take a key past its quota, alone; the quota counts the batch's earlier updates", async () => {
    const one = pendingUpdate('alice', updateOf(addA('one.example.com', '192.0.2.2')));
    const two = pendingUpdate('alice', updateOf(addA('two.example.com', '192.0.2.3')));
    const bobs = pendingUpdate('bob', updateOf(addA('three.example.com', '192.0.2.4')));
    const { evaluated } = await evaluate([one, two, bobs], { keysFile: 'quota "alice" records 1;\n' });
    expect(evaluated.accepted.map((a) => a.pending)).toEqual([one, bobs]);
    expect(evaluated.contingent).toEqual([
      {
        pending: two,
        outcome: {
          rcode: RCODE_UPDATE.REFUSED,
          ede: EDE.PROHIBITED,
          why: expect.stringMatching(
            /^the key alice may hold at most 1 records created at the provider in example\.com \(it holds 1\)/,
          ),
        },
      },
    ]);
  });

  it('fails the update whose writes no longer fit the call budget, alone (SERVFAIL), counting what the earlier ones take', async () => {
    // Two calls made (the view's reading and the batch's); then room for one write, its undoing and a reading again.
    const one = pendingUpdate('alice', updateOf(addA('one.example.com', '192.0.2.2')));
    const two = pendingUpdate('bob', updateOf(addA('two.example.com', '192.0.2.3')));
    const { evaluated, world } = await evaluate([one, two], { budget: 5 });
    expect(world.callsLeft()).toBe(3);
    expect(evaluated.accepted.map((a) => a.pending)).toEqual([one]);
    expect(evaluated.contingent).toEqual([
      { pending: two, outcome: { rcode: RCODE_UPDATE.SERVFAIL, ede: EDE.OTHER, why: '5 calls do not fit the 3 left' } },
    ]);
  });

  it("refuses the update whose writes and their undoing do not fit its key's share; the share is charged the writes accepted", async () => {
    const one = pendingUpdate('alice', updateOf(addA('one.example.com', '192.0.2.2')));
    const two = pendingUpdate('alice', updateOf(addA('two.example.com', '192.0.2.3')));
    const { evaluated, world } = await evaluate([one, two], {
      shares: true,
      budget: 100,
      keysFile: 'quota "alice" calls 4;\n',
    });
    expect(evaluated.accepted.map((a) => a.pending)).toEqual([one]);
    expect(evaluated.contingent[0]!.outcome).toMatchObject({ rcode: RCODE_UPDATE.REFUSED, ede: EDE.PROHIBITED });
    // Each update's part of the reading (1 each) and the one write accepted.
    expect(world.deps.keyCalls!.used('alice')).toBe(3);
  });
});

describe('the zone as changes will leave it (simulate)', () => {
  it('gives each record created an ID of its own, and keeps the IDs of those updated', () => {
    const live = [{ name: 'a.example.com', type: 'A', ttl: 300, value: '192.0.2.1', entityID: 'e1' }];
    const after = { name: 'a.example.com', type: 'A' as const, ttl: 300, value: '192.0.2.2' };
    const changes: Change[] = [
      { action: 'update', before: live[0]!, after, reason: '' } as unknown as Change,
      { action: 'create', after: { ...after, value: '192.0.2.3' }, reason: '' } as unknown as Change,
      { action: 'create', after: { ...after, value: '192.0.2.4' }, reason: '' } as unknown as Change,
    ];
    let n = 0;
    const ids = simulate(live, changes, () => `pending:${++n}`).map((r) => `${r.entityID} ${r.value}`);
    expect(ids).toEqual(['e1 192.0.2.2', 'pending:1 192.0.2.3', 'pending:2 192.0.2.4']);
  });
});
