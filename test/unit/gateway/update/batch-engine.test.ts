// The batch engine's other paths, against an in-memory zone: a zone locked by another change;
// a failed batch that had updated and deleted records (each put back as read, and only the
// batch's own writes); the provider's refusal of a request (bad request, no such entry) told
// as a refusal; undoing that cannot read the zone; a lost answer whose zone cannot be read again
// after the undo; the records other changes keep (the agent's host); and what is logged.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../src/api/errors.js';
import { EDE } from '../../../../src/dns/wire/edns.js';
import { applyBatch } from '../../../../src/gateway/update/batch.js';
import { CLASS, TYPE_ANY } from '../../../../src/gateway/update/message.js';
import { RCODE_UPDATE } from '../../../../src/gateway/update/rules.js';
import { acquireZoneLock } from '../../../../src/state/zone-lock.js';
import type { ZoneProvider } from '../../../../src/zone/provider/provider-zone.js';
import type { ZoneRecord } from '../../../../src/zone/record.js';
import type { WriteFault } from '../../../helpers/memory-zone.js';
import {
  addA,
  batchWorld,
  noA,
  pendingUpdate,
  updateOf,
  ZONE,
  type BatchWorld,
  type TrackedUpdate,
  type WorldOptions,
} from '../../../helpers/update-batch.js';

const records = [
  { name: 'x.example.com', type: 'A', ttl: 300, value: '192.0.2.1' },
  { name: 'y.example.com', type: 'A', ttl: 300, value: '192.0.2.5' },
  { name: 'kept.example.com', type: 'A', ttl: 300, value: '192.0.2.9' },
];
const original = ['kept.example.com A 192.0.2.9', 'x.example.com A 192.0.2.1', 'y.example.com A 192.0.2.5'];
const deleteA = (name: string) => ({ name, type: 1, class: CLASS.ANY, ttl: 0 });
const deleteAll = (name: string) => ({ name, type: TYPE_ANY, class: CLASS.ANY, ttl: 0 });

async function batch(updates: TrackedUpdate[], options: WorldOptions = {}, prepare?: (w: BatchWorld) => void) {
  const world = await batchWorld({ records, ...options });
  prepare?.(world);
  const before = world.zone.calls.length;
  const again = await applyBatch(ZONE, updates, world.deps, world.newId);
  return { world, again, calls: world.zone.calls.slice(before) };
}

/** alice changes x's address and deletes y; bob adds b. */
const changes = () => [
  pendingUpdate('alice', updateOf(deleteA('x.example.com'), addA('x.example.com', '192.0.2.2'))),
  pendingUpdate('alice', updateOf(deleteAll('y.example.com'))),
  pendingUpdate('bob', updateOf(addA('b.example.com', '192.0.2.3'))),
];

/** A provider whose write after the first `good` fails with `error` (nothing made); the others are made. */
function failingAfter(world: BatchWorld, good: number, error: () => Error): ZoneProvider {
  let writes = 0;
  const guard = async <T>(write: () => Promise<T>) => {
    if (++writes === good + 1) {
      world.zone.calls.push('failed write');
      throw error();
    }
    return write();
  };
  const zone = world.zone;
  return {
    listing: () => zone.listing(),
    list: () => zone.list(),
    listNames: (names: Iterable<string>) => zone.listNames(names),
    create: (r: ZoneRecord) => guard(() => zone.create(r)),
    update: (id: string, r: ZoneRecord) => guard(() => zone.update(id, r)),
    delete: (id: string) => guard(() => zone.delete(id)),
    setZone: (r) => zone.setZone(r),
  };
}

describe('a batch of a zone another change holds', () => {
  it('is answered SERVFAIL (Not Ready), naming the lock, and nothing is read', async () => {
    const updates = [pendingUpdate('alice', updateOf(addA('a.example.com', '192.0.2.2')))];
    let released = 0;
    const { calls, again } = await batch(updates, {}, (w) => {
      acquireZoneLock(w.stateDir, ZONE);
      w.deps.releaseCalls = () => void released++;
    });
    expect(calls).toEqual([]);
    expect(again).toEqual([]);
    expect(updates[0]!.answers).toEqual([
      {
        rcode: RCODE_UPDATE.SERVFAIL,
        ede: EDE.NOT_READY,
        why: expect.stringMatching(/^the zone is locked by another change \(.+\)$/),
      },
    ]);
    expect(released).toBe(0);
  });
});

describe('a failed batch that had updated and deleted records', () => {
  it('puts back what it changed and deleted, and deletes what it created, whichever write failed', async () => {
    for (const good of [1, 2]) {
      const updates = changes();
      const { world, again } = await batch(updates, {}, (w) => {
        w.deps.providerOf = () =>
          failingAfter(w, good, () => new ApiError(2100, 'invalid value', [], 'service/dnsadd'));
      });
      expect(world.zone.held()).toEqual(original);
      expect(world.journalResults()).toEqual(['not made', 'not made', 'not made']);
      const answered = updates.filter((u) => u.answers.length);
      expect(answered).toHaveLength(1);
      expect(answered[0]!.answers).toEqual([
        {
          rcode: RCODE_UPDATE.REFUSED,
          ede: EDE.PROHIBITED,
          why: expect.stringMatching(/; the writes made before it were undone$/),
        },
      ]);
      expect(again).toEqual(updates.filter((u) => !u.answers.length));
      expect(world.log.filter((l) => l.startsWith('warn: gateway: undoing'))).toEqual([
        expect.stringMatching(
          new RegExp(
            `^warn: gateway: undoing ${good === 1 ? '1 write' : `${good} writes`} of a failed batch of example\\.com: `,
          ),
        ),
      ]);
    }
  });

  it("leaves what others changed meanwhile: only the batch's own writes are taken back", async () => {
    const updates = changes();
    const { world } = await batch(updates, {}, (w) => {
      const provider = failingAfter(w, 3, () => new ApiError(2100, 'invalid value', [], 'service/dnsadd'));
      let listed = 0;
      w.deps.providerOf = () => ({
        ...provider,
        // Before the undo's reading, someone else sets kept's address and adds a record of their own.
        list: async () => {
          if (++listed === 2) {
            const kept = w.zone.live.find((r) => r.name === 'kept.example.com')!;
            await w.zone.update(kept.entityID, { name: kept.name, type: 'A', ttl: 300, value: '192.0.2.10' });
            await w.zone.create({ name: 'other.example.com', type: 'A', ttl: 300, value: '192.0.2.11' });
          }
          return w.zone.list();
        },
      });
      w.zone.onWrite = (call) => (call.name === 'b.example.com' ? 'refused' : undefined);
    });
    expect(world.zone.held()).toEqual([
      'kept.example.com A 192.0.2.10',
      'other.example.com A 192.0.2.11',
      'x.example.com A 192.0.2.1',
      'y.example.com A 192.0.2.5',
    ]);
  });
});

describe("the provider's refusal of a request", () => {
  it.each([
    ['a bad request', 2001],
    ['no such entry', 4001],
  ])(
    '%s is a refusal: the update REFUSED once the zone is back as read, the others go round again',
    async (_, code) => {
      const updates = changes();
      const { world, again } = await batch(updates, {}, (w) => {
        w.deps.providerOf = () => failingAfter(w, 0, () => new ApiError(code, 'no', [], 'service/dnsadd'));
      });
      expect(world.zone.held()).toEqual(original);
      const answered = updates.filter((u) => u.answers.length);
      expect(answered.map((u) => u.answers)).toEqual([
        [
          {
            rcode: RCODE_UPDATE.REFUSED,
            ede: EDE.PROHIBITED,
            why: expect.stringMatching(/^the provider refused a write \(/),
          },
        ],
      ]);
      expect(again).toHaveLength(2);
    },
  );

  it('another failure (the provider down) is SERVFAIL, and the others are told to send again', async () => {
    const updates = changes();
    const { again } = await batch(updates, {}, (w) => {
      w.deps.providerOf = () => failingAfter(w, 0, () => new ApiError(2003, 'down', [], 'service/dnsadd'));
    });
    expect(updates.map((u) => u.answers[0]?.rcode)).toEqual([2, 2, 2]);
    expect(updates.map((u) => u.answers[0]?.ede)).toEqual([23, 23, 23]);
    expect(again).toEqual([]);
  });
});

describe('undoing a failed batch when the zone cannot be read', () => {
  it('is a failure too: journaled unknown, every update told it failed', async () => {
    const updates = [
      pendingUpdate('alice', updateOf(addA('a.example.com', '192.0.2.2'))),
      pendingUpdate('bob', updateOf(addA('b.example.com', '192.0.2.3'))),
    ];
    const { world, again } = await batch(updates, {}, (w) => {
      w.zone.onWrite = (call) => {
        if (call.name !== 'b.example.com') return undefined;
        w.zone.onRead = () => new Error('connection refused');
        return 'refused';
      };
    });
    expect(world.zone.held()).toContain('a.example.com A 192.0.2.2');
    expect(world.journalResults()).toEqual(['unknown', 'unknown']);
    expect(updates.map((u) => u.answers)).toEqual([
      [
        {
          rcode: RCODE_UPDATE.SERVFAIL,
          ede: EDE.OTHER,
          why: expect.stringContaining('undoing the writes made before it failed too'),
        },
      ],
      [
        {
          rcode: RCODE_UPDATE.SERVFAIL,
          ede: EDE.PROHIBITED,
          why: expect.stringContaining('undoing the writes made before it failed too'),
        },
      ],
    ]);
    expect(again).toEqual([]);
  });
});

describe('a lost answer', () => {
  it('whose undo leaves the zone unreadable: unknown, with the reason, and logged as may hold', async () => {
    const updates = [
      pendingUpdate('alice', updateOf(addA('a.example.com', '192.0.2.2'))),
      pendingUpdate('bob', updateOf(addA('b.example.com', '192.0.2.3'))),
    ];
    const { world } = await batch(updates, {}, (w) => {
      w.zone.onWrite = (call) => {
        if (call.call === 'delete') {
          w.zone.onRead = () => new Error('gone away');
          return undefined;
        }
        return call.name === 'a.example.com' ? 'answer lost' : 'not sent';
      };
    });
    expect(world.journalResults()).toEqual(['unknown', 'unknown']);
    for (const u of updates)
      expect(u.answers).toEqual([
        {
          rcode: RCODE_UPDATE.SERVFAIL,
          ede: EDE.NETWORK_ERROR,
          why:
            "the provider's answer to a write was lost and the zone could not be read again (gone away): whether it " +
            'was made is not known; send it again (the gateway reads the zone first)',
        },
      ]);
    expect(world.log).toContain(
      'warn: gateway: the DHCID records of the failed batch of example.com are kept: the provider may hold some of its writes',
    );
    expect(world.log).toContain(
      "warn: gateway: an answer of the provider to a write of example.com was lost; read again, the zone holds 1 of the batch's 2 writes",
    );
  });

  it('whose writes stay after the undo: partly made, logged as an error naming them', async () => {
    const updates = [
      pendingUpdate('alice', updateOf(addA('a.example.com', '192.0.2.2'))),
      pendingUpdate('bob', updateOf(addA('b.example.com', '192.0.2.3'))),
    ];
    const { world } = await batch(updates, {}, (w) => {
      w.zone.onWrite = (call) =>
        call.call === 'delete' ? 'refused' : call.name === 'a.example.com' ? 'answer lost' : 'not sent';
    });
    expect(world.log).toContain(
      'error: gateway: example.com still holds 1 write of a batch that failed (create a.example.com 300 A 192.0.2.2); ' +
        'the journal says so',
    );
    expect(world.log).toContain(
      'warn: gateway: the DHCID records of the failed batch of example.com are kept: the provider holds some of its writes',
    );
  });
});

describe('a lost answer after other writes were made', () => {
  it('names each write that stays after a failed undo', async () => {
    const updates = [
      pendingUpdate('alice', updateOf(addA('a.example.com', '192.0.2.2'))),
      pendingUpdate('bob', updateOf(addA('c.example.com', '192.0.2.4'))),
      pendingUpdate('bob', updateOf(addA('z.example.com', '192.0.2.5'))),
    ];
    const { world } = await batch(updates, {}, (w) => {
      const faults: Record<string, WriteFault> = { 'c.example.com': 'answer lost', 'z.example.com': 'not sent' };
      w.zone.onWrite = (call) => (call.call === 'delete' ? 'refused' : faults[call.name]);
    });
    expect(world.log).toContain(
      'error: gateway: example.com still holds 2 writes of a batch that failed (create a.example.com 300 A ' +
        '192.0.2.2, create c.example.com 300 A 192.0.2.4); the journal says so',
    );
  });
});

describe('the records others keep', () => {
  it("refuses the update that would change the agent's host, alone", async () => {
    const updates = [
      pendingUpdate('alice', updateOf(addA('kept.example.com', '192.0.2.20'))),
      pendingUpdate('bob', updateOf(addA('b.example.com', '192.0.2.3'))),
    ];
    const { world } = await batch(updates, {}, (w) => {
      w.deps.hosts = ['kept.example.com'];
    });
    expect(updates[0]!.answers).toEqual([
      { rcode: RCODE_UPDATE.REFUSED, ede: EDE.PROHIBITED, why: expect.stringContaining('kept.example.com') },
    ]);
    expect(updates[1]!.answers).toEqual([{ rcode: 0, ede: 0, why: '', changed: true }]);
    expect(world.zone.held()).toEqual(
      [...original.slice(0, 1), 'b.example.com A 192.0.2.3', ...original.slice(1)].sort(),
    );
  });
});

describe('a batch that writes nothing', () => {
  it('whose reading the budget does not allow: every update answered, none sent round again, nothing read', async () => {
    const updates = [pendingUpdate('alice', updateOf(addA('a.example.com', '192.0.2.2')))];
    const { calls, again } = await batch(updates, { budget: 0 });
    expect(calls).toEqual([]);
    expect(again).toEqual([]);
    expect(updates[0]!.answers).toHaveLength(1);
  });

  it('whose updates were all refused: read once, nothing written or journaled', async () => {
    const updates = [pendingUpdate('alice', updateOf(noA('x.example.com'), addA('x.example.com', '192.0.2.2')))];
    const { world, calls, again } = await batch(updates);
    expect(calls).toEqual(['list']);
    expect(again).toEqual([]);
    expect(updates[0]!.answers.map((a) => a.rcode)).toEqual([RCODE_UPDATE.YXRRSET]);
    expect(world.journalResults()).toEqual([]);
  });
});

describe("the zone's view after a batch", () => {
  it("shows the batch's writes without another read once made, and the zone as read again once rolled back", async () => {
    const made = await batch([pendingUpdate('alice', updateOf(addA('a.example.com', '192.0.2.2')))]);
    expect(made.calls).toEqual(['list', 'create a.example.com A 192.0.2.2']);
    expect(made.world.views.filterMatches(ZONE, 'a.example.com')).toBe(1);
    expect(made.world.views.size(ZONE)).toBe(records.length + 1);

    const refused = await batch([pendingUpdate('alice', updateOf(addA('a.example.com', '192.0.2.2')))], {}, (w) => {
      w.zone.onWrite = () => 'refused';
    });
    expect(refused.world.views.filterMatches(ZONE, 'a.example.com')).toBe(0);
  });
});

describe('an update of DHCID records only', () => {
  const dhcid = (name: string) => ({
    name,
    type: 49,
    class: CLASS.IN,
    ttl: 300,
    data: { name, type: 'TYPE49' as const, ttl: 300, value: `000201${'11'.repeat(32)}` },
  });
  it('makes no provider call and needs none of the budget', async () => {
    const update = pendingUpdate('alice', updateOf(dhcid('h.example.com')));
    let asked = 0;
    const { calls } = await batch([update], { keysFile: 'grant "alice" zonesub DHCID;\n' }, (w) => {
      w.deps.setAsideCalls = () => {
        asked++;
        return 'the budget is spent';
      };
    });
    expect(calls).toEqual(['list']);
    expect(asked).toBe(0);
    expect(update.answers).toEqual([{ rcode: 0, ede: 0, why: '', changed: true }]);
  });
});
