// A batch whose writes failed half-way (batch-rollback.ts), against an in-memory zone: its own
// writes taken back, the update that held the failing write told which, the others (bystanders)
// rolled back with it and sent round again or told to send again, and the journal told.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EDE } from '../../../../src/dns/wire/edns.js';
import { journalPath } from '../../../../src/gateway/journal/journal.js';
import { CLASS } from '../../../../src/gateway/update/message.js';
import { TransportError } from '../../../../src/http/errors.js';
import type { ZoneProvider } from '../../../../src/zone/provider/provider-zone.js';
import type { ZoneRecord } from '../../../../src/zone/record.js';
import { applyBatch } from '../../../../src/gateway/update/batch.js';
import { RCODE_UPDATE } from '../../../../src/gateway/update/rules.js';
import {
  addA,
  batchWorld,
  noA,
  pendingUpdate,
  updateOf,
  ZONE,
  type BatchWorld,
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

describe('a batch with two bystanders, one update waiting and the refused write last', () => {
  /** alice's adds at a and c (made), bob's add at a that waits on alice's, bob's add at z (the write that fails). */
  async function four(onWrite: (call: WriteCall) => WriteFault | undefined) {
    const world = await batchWorld({ records });
    world.zone.onWrite = onWrite;
    const first = pendingUpdate('alice', updateOf(addA('a.example.com', '192.0.2.2')));
    const waiting = pendingUpdate('bob', updateOf(noA('a.example.com'), addA('a.example.com', '192.0.2.9')));
    const offender = pendingUpdate('bob', updateOf(addA('z.example.com', '192.0.2.3')));
    const second = pendingUpdate('alice', updateOf(addA('c.example.com', '192.0.2.4')));
    const again = await applyBatch(ZONE, [first, waiting, offender, second], world.deps, world.newId);
    return { world, again, first, waiting, offender, second };
  }

  it('sends the bystanders and the update waiting round again in the order they came', async () => {
    const { world, again, first, waiting, second } = await four((call) =>
      call.name === 'z.example.com' ? 'refused' : undefined,
    );
    expect(world.zone.held()).toEqual(['kept.example.com A 192.0.2.1']);
    expect(again).toEqual([first, waiting, second]);
  });

  it('tells each bystander whose write remains that it failed when undoing failed too', async () => {
    const { world, again, first, waiting, second } = await four((call) =>
      call.name === 'z.example.com' || call.call === 'delete' ? 'refused' : undefined,
    );
    expect(world.zone.held()).toEqual([
      'a.example.com A 192.0.2.2',
      'c.example.com A 192.0.2.4',
      'kept.example.com A 192.0.2.1',
    ]);
    for (const bystander of [first, second])
      expect(bystander.answers).toEqual([
        {
          rcode: RCODE_UPDATE.SERVFAIL,
          ede: EDE.OTHER,
          why: expect.stringContaining('another update sent at the same time; undoing'),
        },
      ]);
    expect(again).toEqual([waiting]);
  });

  it("ends the refused write's reason with the error when nothing was written before it", async () => {
    const refusedOne = (await four(() => 'refused')).first;
    expect(refusedOne.answers).toEqual([
      {
        rcode: RCODE_UPDATE.REFUSED,
        ede: EDE.PROHIBITED,
        why: 'the provider refused a write (service/dnsadd failed with error 2100: invalid value)',
      },
    ]);
  });
});

/** The journal's result lines, each with its key, outcome and what it says the provider holds. */
const journalMarks = (stateDir: string) =>
  readFileSync(journalPath(stateDir), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { key: string; outcome?: string; holds?: unknown })
    .filter((l) => l.outcome)
    .map(({ key, outcome, holds }) => ({ key, outcome, holds }));

/** A provider that times out on the writes `lost` decides, without making them. */
function losingAnswers(world: BatchWorld, lost: (r: ZoneRecord) => boolean): ZoneProvider {
  const zone = world.zone;
  const timeout = () => new TransportError('timeout', 'no answer within the timeout', 'https://provider.invalid/');
  return {
    listing: () => zone.listing(),
    list: () => zone.list(),
    listNames: (names: Iterable<string>) => zone.listNames(names),
    create: async (r: ZoneRecord) => {
      if (!lost(r)) return zone.create(r);
      zone.calls.push(`lost create ${r.name}`);
      throw timeout();
    },
    update: (id: string, r: ZoneRecord) => zone.update(id, r),
    delete: (id: string) => zone.delete(id),
    setZone: (r) => zone.setZone(r),
  };
}

describe('a batch whose answer was lost', () => {
  it('that the zone read again shows not made: read once, nothing undone, journaled not made', async () => {
    const world = await batchWorld({ records });
    world.deps.providerOf = () => losingAnswers(world, (r) => r.name === 'a.example.com');
    const update = pendingUpdate('alice', updateOf(addA('a.example.com', '192.0.2.2')));
    const before = world.zone.calls.length;
    expect(await applyBatch(ZONE, [update], world.deps, world.newId)).toEqual([]);
    expect(world.zone.calls.slice(before)).toEqual(['list', 'lost create a.example.com', 'list']);
    expect(update.answers).toEqual([
      {
        rcode: RCODE_UPDATE.SERVFAIL,
        ede: EDE.NETWORK_ERROR,
        why:
          'the provider failed a write (no answer within the timeout); the zone read again holds none of the ' +
          "batch's writes: nothing was changed",
      },
    ]);
    expect(world.journalResults()).toEqual(['not made']);
  });

  it('whose writes held were undone: journaled not made, and no error logged', async () => {
    const world = await batchWorld({ records });
    world.zone.onWrite = (call) =>
      call.call === 'delete' ? undefined : call.name === 'a.example.com' ? 'answer lost' : 'not sent';
    const updates = [
      pendingUpdate('alice', updateOf(addA('a.example.com', '192.0.2.2'))),
      pendingUpdate('bob', updateOf(addA('b.example.com', '192.0.2.3'))),
    ];
    await applyBatch(ZONE, updates, world.deps, world.newId);
    expect(world.zone.held()).toEqual(['kept.example.com A 192.0.2.1']);
    expect(world.journalResults()).toEqual(['not made', 'not made']);
    expect(updates.flatMap((u) => u.answers.map((a) => a.why))).toContain(
      "the provider failed a write (no answer within the timeout); the zone read again held 1 of the batch's " +
        'writes, which were undone: nothing was changed',
    );
    expect(world.log.filter((l) => l.startsWith('error: gateway'))).toEqual([]);
  });

  it("that stays partly made: the journal says what the provider holds, the batch's DHCID records too", async () => {
    const world = await batchWorld({ records, keysFile: 'grant "alice" zonesub DHCID;\n' });
    world.zone.onWrite = (call) =>
      call.call === 'delete' ? 'refused' : call.name === 'h.example.com' ? 'answer lost' : 'not sent';
    const dhcid = `000201${'11'.repeat(32)}`;
    const updates = [
      pendingUpdate(
        'alice',
        updateOf({
          name: 'd.example.com',
          type: 49,
          class: CLASS.IN,
          ttl: 300,
          data: { name: 'd.example.com', type: 'TYPE49', ttl: 300, value: dhcid },
        }),
      ),
      pendingUpdate('alice', updateOf(addA('h.example.com', '192.0.2.2'))),
      pendingUpdate('bob', updateOf(addA('b.example.com', '192.0.2.3'))),
    ];
    await applyBatch(ZONE, updates, world.deps, world.newId);
    const holds = [
      { name: 'd.example.com', type: 'DHCID', values: [`300 ${Buffer.from(dhcid, 'hex').toString('base64')}`] },
      { name: 'h.example.com', type: 'A', values: ['300 192.0.2.2'] },
      { name: 'b.example.com', type: 'A', values: [] },
    ];
    expect(journalMarks(world.stateDir)).toEqual(
      ['alice', 'alice', 'bob'].map((key) => ({ key, outcome: 'partly made', holds })),
    );
    expect(updates[1]!.answers).toEqual([
      {
        rcode: RCODE_UPDATE.SERVFAIL,
        ede: EDE.NETWORK_ERROR,
        why:
          "the provider's answer to a write was lost; read again, the zone held part of the batch and undoing it " +
          "failed: part of it is made (the gateway's journal says what the provider holds)",
      },
    ]);
  });
});
