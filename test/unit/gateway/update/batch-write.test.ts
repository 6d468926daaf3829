// A batch's writes (batch-write.ts), against an in-memory zone: the plan made and answered, the
// budget that stops it before any write, and writes whose answer was lost, judged by what the
// zone holds once read again.
import { describe, expect, it } from 'vitest';
import { EDE } from '../../../../src/dns/wire/edns.js';
import { evaluateBatch } from '../../../../src/gateway/update/batch-evaluate.js';
import { readBatch } from '../../../../src/gateway/update/batch-read.js';
import { writeBatch } from '../../../../src/gateway/update/batch-write.js';
import { RCODE_UPDATE } from '../../../../src/gateway/update/rules.js';
import {
  addA,
  batchWorld,
  noA,
  pendingUpdate,
  updateOf,
  ZONE,
  type BatchWorld,
  type TrackedUpdate,
} from '../../../helpers/update-batch.js';

const records = [{ name: 'kept.example.com', type: 'A', ttl: 300, value: '192.0.2.1' }];

/** Reads and evaluates `batch`, then writes it; the updates that go round again, and the calls of the writing. */
async function write(batch: TrackedUpdate[], prepare: (world: BatchWorld) => void = () => undefined) {
  const world = await batchWorld({ records });
  prepare(world);
  const read = (await readBatch(ZONE, batch, world.zone, world.deps))!;
  const evaluated = await evaluateBatch(ZONE, batch, read, world.deps, world.newId);
  const before = world.zone.calls.length;
  const again = await writeBatch(ZONE, batch, world.zone, read, evaluated, world.deps);
  return { world, again, calls: world.zone.calls.slice(before) };
}

const alice = () => pendingUpdate('alice', updateOf(addA('a.example.com', '192.0.2.2')));
const bob = () => pendingUpdate('bob', updateOf(addA('b.example.com', '192.0.2.3')));
const made = { rcode: 0, ede: 0, why: '', changed: true };

describe("a batch's writes", () => {
  it('makes the accepted updates as one plan, answers them, then those whose answers waited on them', async () => {
    const [a, b] = [alice(), bob()];
    const waited = pendingUpdate('bob', updateOf(noA('a.example.com'), addA('a.example.com', '192.0.2.9')));
    const { world, again, calls } = await write([a, b, waited]);
    expect(calls).toEqual(['create a.example.com A 192.0.2.2', 'create b.example.com A 192.0.2.3']);
    expect(world.zone.held()).toEqual([
      'a.example.com A 192.0.2.2',
      'b.example.com A 192.0.2.3',
      'kept.example.com A 192.0.2.1',
    ]);
    expect([a.answers, b.answers]).toEqual([[made], [made]]);
    expect(waited.answers).toEqual([expect.objectContaining({ rcode: RCODE_UPDATE.YXRRSET })]);
    expect(again).toEqual([]);
    expect(world.journalResults()).toEqual(['made', 'made']);
    expect(world.log).toContain('info: gateway: key alice changed example.com: create a.example.com A');
  });

  it('sends nothing when the budget cannot hold all the writes; the updates waiting on them go round again', async () => {
    const [a, b] = [alice(), bob()];
    const waited = pendingUpdate('bob', updateOf(noA('a.example.com'), addA('a.example.com', '192.0.2.9')));
    const { world, again, calls } = await write(
      [a, b, waited],
      (w) => (w.deps.setAsideCalls = () => 'the budget is spent'),
    );
    expect(calls).toEqual([]);
    expect([a.answers, b.answers]).toEqual([
      [{ rcode: RCODE_UPDATE.SERVFAIL, ede: EDE.OTHER, why: 'the budget is spent' }],
      [{ rcode: RCODE_UPDATE.SERVFAIL, ede: EDE.OTHER, why: 'the budget is spent' }],
    ]);
    expect(waited.answers).toEqual([]);
    expect(again).toEqual([waited]);
    expect(world.journalResults()).toEqual([]);
  });
});

describe('a write whose answer was lost', () => {
  it('is judged made when the zone read again holds all of the batch', async () => {
    const a = alice();
    const { world, calls } = await write([a], (w) => (w.zone.onWrite = () => 'answer lost'));
    expect(calls).toEqual(['create a.example.com A 192.0.2.2', 'list']);
    expect(a.answers).toEqual([made]);
    expect(world.journalResults()).toEqual(['made']);
  });

  it('held in part: what was made is undone, the zone read once more, and nothing was changed', async () => {
    const [a, b] = [alice(), bob()];
    const { world, calls } = await write(
      [a, b],
      (w) => (w.zone.onWrite = (call) => (call.name === 'a.example.com' ? 'answer lost' : 'not sent')),
    );
    expect(calls).toEqual([
      'create a.example.com A 192.0.2.2',
      'create b.example.com A 192.0.2.3',
      'list',
      expect.stringMatching(/^delete e\d+$/),
      'list',
    ]);
    expect(world.zone.held()).toEqual(['kept.example.com A 192.0.2.1']);
    const undone = "; the zone read again held 1 of the batch's writes, which were undone: nothing was changed";
    expect(a.answers).toEqual([
      {
        rcode: RCODE_UPDATE.SERVFAIL,
        ede: EDE.NETWORK_ERROR,
        why: `the provider failed a write (no answer within the timeout)${undone}`,
      },
    ]);
    expect(b.answers).toEqual([
      {
        rcode: RCODE_UPDATE.SERVFAIL,
        ede: EDE.NETWORK_ERROR,
        why: `the provider failed a write of another update sent at the same time${undone}; send it again`,
      },
    ]);
    expect(world.journalResults()).toEqual(['not made', 'not made']);
  });

  it('held in part and not undone: partly made, said to every update and in the journal with what the zone holds', async () => {
    const [a, b] = [alice(), bob()];
    const { world } = await write([a, b], (w) => {
      w.zone.onWrite = (call) =>
        call.call === 'delete' ? 'refused' : call.name === 'a.example.com' ? 'answer lost' : 'not sent';
    });
    expect(world.zone.held()).toContain('a.example.com A 192.0.2.2');
    for (const p of [a, b])
      expect(p.answers).toEqual([
        { rcode: RCODE_UPDATE.SERVFAIL, ede: EDE.NETWORK_ERROR, why: expect.stringContaining('part of it is made') },
      ]);
    expect(world.journalResults()).toEqual(['partly made', 'partly made']);
  });

  it('with the zone unreadable afterwards: unknown, and the updates are told to send again', async () => {
    const a = alice();
    const { world } = await write([a], (w) => {
      w.zone.onWrite = () => {
        w.zone.onRead = () => new Error('connection refused');
        return 'answer lost';
      };
    });
    expect(a.answers).toEqual([
      {
        rcode: RCODE_UPDATE.SERVFAIL,
        ede: EDE.NETWORK_ERROR,
        why: expect.stringMatching(/could not be read again \(connection refused\): whether it was made is not known/),
      },
    ]);
    expect(world.journalResults()).toEqual(['unknown']);
  });
});
