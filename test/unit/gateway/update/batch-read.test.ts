// A batch's reading (batch-read.ts), against an in-memory zone: what it reads, what it charges,
// and the updates it answers before anything is read.
import { describe, expect, it } from 'vitest';
import { EDE } from '../../../../src/dns/wire/edns.js';
import { readBatch, refuseSpentShares } from '../../../../src/gateway/update/batch-read.js';
import { RCODE_UPDATE } from '../../../../src/gateway/update/rules.js';
import { LIST_PAGE_LENGTH } from '../../../../src/zone/provider/zone-listing.js';
import { addA, batchWorld, pendingUpdate, updateOf, ZONE } from '../../../helpers/update-batch.js';

const records = [
  { name: 'a.example.com', type: 'A', ttl: 300, value: '192.0.2.1' },
  { name: 'other.example.com', type: 'A', ttl: 300, value: '192.0.2.7' },
];

describe("a batch's reading", () => {
  it("reads the whole zone while the provider's filter is not known to find names, and returns the records at the batch's names", async () => {
    const world = await batchWorld({ records });
    const batch = [pendingUpdate('alice', updateOf(addA('a.example.com', '192.0.2.2')))];
    const read = await readBatch(ZONE, batch, world.zone, world.deps);
    expect(world.zone.calls).toEqual(['list', 'list']);
    expect(read?.live.map((r) => r.value)).toEqual(['192.0.2.1']);
    expect([...read!.names]).toEqual(['a.example.com']);
    expect(batch[0]!.answers).toEqual([]);
  });

  it('reads only the names the updates concern once the filter is known to find them and that takes fewer calls', async () => {
    // Three pages of the whole zone; the two names take one filtered page each.
    const many = Array.from({ length: 2 * LIST_PAGE_LENGTH + 1 }, (_, i) => ({
      name: `h${i}.example.com`,
      type: 'A',
      ttl: 300,
      value: '192.0.2.9',
    }));
    const world = await batchWorld({ records: [...records, ...many] });
    world.views.filterFinds.set(ZONE, true);
    const batch = [
      pendingUpdate('alice', updateOf(addA('a.example.com', '192.0.2.2'))),
      pendingUpdate('bob', updateOf(addA('b.example.com', '192.0.2.3'))),
    ];
    const read = await readBatch(ZONE, batch, world.zone, world.deps);
    expect(world.zone.calls.slice(1)).toEqual(['listNames a.example.com,b.example.com']);
    expect(read?.live.map((r) => r.name)).toEqual(['a.example.com']);
  });

  it('reads nothing and answers every update SERVFAIL when the budget cannot pay for the reading', async () => {
    const world = await batchWorld({ records, budget: 1 });
    const batch = [
      pendingUpdate('alice', updateOf(addA('a.example.com', '192.0.2.2'))),
      pendingUpdate('bob', updateOf(addA('b.example.com', '192.0.2.3'))),
    ];
    expect(world.callsLeft()).toBe(0);
    expect(await readBatch(ZONE, batch, world.zone, world.deps)).toBeUndefined();
    expect(world.zone.calls).toEqual(['list']);
    for (const p of batch)
      expect(p.answers).toEqual([
        { rcode: RCODE_UPDATE.SERVFAIL, ede: EDE.OTHER, why: '1 calls do not fit the 0 left' },
      ]);
  });

  it('answers every update SERVFAIL (network error) when the provider cannot be read', async () => {
    const world = await batchWorld({ records });
    world.zone.onRead = () => new Error('connection refused');
    const batch = [pendingUpdate('alice', updateOf(addA('a.example.com', '192.0.2.2')))];
    expect(await readBatch(ZONE, batch, world.zone, world.deps)).toBeUndefined();
    expect(batch[0]!.answers).toEqual([
      {
        rcode: RCODE_UPDATE.SERVFAIL,
        ede: EDE.NETWORK_ERROR,
        why: 'cannot read the zone from the provider: connection refused',
      },
    ]);
  });

  it("charges each update's key its part of the reading", async () => {
    const world = await batchWorld({ records, shares: true, budget: 100 });
    const batch = [
      pendingUpdate('alice', updateOf(addA('a.example.com', '192.0.2.2'))),
      pendingUpdate('bob', updateOf(addA('b.example.com', '192.0.2.3'))),
    ];
    await readBatch(ZONE, batch, world.zone, world.deps);
    expect([world.deps.keyCalls!.used('alice'), world.deps.keyCalls!.used('bob')]).toEqual([1, 1]);
  });
});

describe('updates of keys that spent their share', () => {
  it('are refused before anything is read; the others stay, in order', async () => {
    const world = await batchWorld({ records, shares: true, budget: 10 });
    world.deps.keyCalls!.charge('alice', 5);
    const batch = ['bob', 'alice', 'bob'].map((key) =>
      pendingUpdate(key, updateOf(addA(`${key}.example.com`, '192.0.2.2'))),
    );
    expect(refuseSpentShares(batch, world.deps.keyCalls)).toEqual([batch[0], batch[2]]);
    expect(batch[1]!.answers).toEqual([
      { rcode: RCODE_UPDATE.REFUSED, ede: EDE.PROHIBITED, why: expect.stringContaining('alice') },
    ]);
    expect(batch[0]!.answers).toEqual([]);
    expect(world.zone.calls).toEqual(['list']);
  });

  it('are all kept when there are no shares', () => {
    const batch = [pendingUpdate('alice', updateOf(addA('a.example.com', '192.0.2.2')))];
    expect(refuseSpentShares(batch, undefined)).toBe(batch);
  });
});
