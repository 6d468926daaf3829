// Taking back a failed batch's own writes (batch-undo.ts), against an in-memory zone: a record
// it created is deleted (its own, not one the zone held before with the same value), one it
// updated set back while it still holds what the batch wrote, one it deleted made again unless
// someone made it again meanwhile; what is gone or changed since is left as it is now.
import { describe, expect, it } from 'vitest';
import { undoWrites } from '../../../../src/gateway/update/batch-undo.js';
import type { Logger } from '../../../../src/lib/log.js';
import type { Step } from '../../../../src/zone/plan/steps.js';
import type { LiveRecord, ZoneRecord } from '../../../../src/zone/record.js';
import { MemoryZone } from '../../../helpers/memory-zone.js';

const ZONE = 'example.com';
const a = (name: string, value: string, ttl = 300): ZoneRecord => ({ name, type: 'A', ttl, value });

const create = (record: ZoneRecord): Step => ({ call: 'create', record, change: { action: 'create', after: record } });
const update = (before: LiveRecord, after: ZoneRecord): Step => ({
  call: 'update',
  record: after,
  entityID: before.entityID,
  change: { action: 'update', before, after },
});
const remove = (before: LiveRecord): Step => ({
  call: 'delete',
  record: before,
  entityID: before.entityID,
  change: { action: 'delete', before },
});

/** A zone holding `records` (as read before the batch), and a logger that keeps its lines. */
function world(records: ZoneRecord[]) {
  const zone = new MemoryZone(records);
  const log: string[] = [];
  const logger: Logger = {
    error: (m) => void log.push(`error: ${m}`),
    warn: (m) => void log.push(`warn: ${m}`),
    info: () => undefined,
    debug: () => undefined,
  };
  const before = zone.live;
  const undo = async (steps: Step[]) => {
    const from = zone.calls.length;
    const ok = await undoWrites(zone, ZONE, zone.live, before, steps, logger);
    return { ok, calls: zone.calls.slice(from) };
  };
  return { zone, log, before, undo };
}

describe("undoing a failed batch's writes", () => {
  it('deletes the record the batch created, not the one with the same value the zone held before', async () => {
    const { zone, log, before, undo } = world([a('x.example.com', '192.0.2.1')]);
    await zone.create(a('x.example.com', '192.0.2.1'));
    const { ok, calls } = await undo([create(a('x.example.com', '192.0.2.1'))]);
    expect(ok).toBe(true);
    expect(calls).toEqual(['delete e2']);
    expect(zone.live.map((r) => r.entityID)).toEqual([before[0]!.entityID]);
    expect(log).toEqual(['warn: gateway: undoing 1 write of a failed batch of example.com: delete x.example.com A']);
  });

  it("leaves another's record created meanwhile, even when it comes first", async () => {
    const { zone, undo } = world([]);
    await zone.create(a('other.example.com', '192.0.2.7'));
    await zone.create(a('x.example.com', '192.0.2.1'));
    const { calls } = await undo([create(a('x.example.com', '192.0.2.1'))]);
    expect(calls).toEqual(['delete e2']);
    expect(zone.held()).toEqual(['other.example.com A 192.0.2.7']);
  });

  it('does nothing, and says nothing, when what the batch made is gone already', async () => {
    const { zone, log, before, undo } = world([a('y.example.com', '192.0.2.5')]);
    const { ok, calls } = await undo([
      create(a('x.example.com', '192.0.2.1')),
      update(before[0]!, a('y.example.com', '192.0.2.6')),
    ]);
    expect(ok).toBe(true);
    expect(calls).toEqual([]);
    expect(log).toEqual([]);
    expect(zone.held()).toEqual(['y.example.com A 192.0.2.5']);
  });

  it('sets back a record it updated, and lists each write it takes back in the warning', async () => {
    const { zone, log, before, undo } = world([a('y.example.com', '192.0.2.5'), a('z.example.com', '192.0.2.8')]);
    const y = before[0]!;
    await zone.update(y.entityID, a('y.example.com', '192.0.2.6'));
    await zone.create(a('x.example.com', '192.0.2.1'));
    const { ok } = await undo([update(y, a('y.example.com', '192.0.2.6')), create(a('x.example.com', '192.0.2.1'))]);
    expect(ok).toBe(true);
    expect(zone.held()).toEqual(['y.example.com A 192.0.2.5', 'z.example.com A 192.0.2.8']);
    expect(log).toEqual([
      expect.stringMatching(
        /^warn: gateway: undoing 2 writes of a failed batch of example\.com: (update y\.example\.com A, delete x\.example\.com A|delete x\.example\.com A, update y\.example\.com A)$/,
      ),
    ]);
  });

  it('leaves a record it updated that someone changed again since', async () => {
    const { zone, before, undo } = world([a('y.example.com', '192.0.2.5'), a('z.example.com', '192.0.2.8')]);
    const y = before[0]!;
    await zone.update(y.entityID, a('y.example.com', '192.0.2.7'));
    const { ok, calls } = await undo([update(y, a('y.example.com', '192.0.2.6'))]);
    expect(ok).toBe(true);
    expect(calls).toEqual([]);
    expect(zone.held()).toEqual(['y.example.com A 192.0.2.7', 'z.example.com A 192.0.2.8']);
  });

  it('makes again a record it deleted, unless someone made it again meanwhile', async () => {
    const first = world([a('y.example.com', '192.0.2.5'), a('z.example.com', '192.0.2.8')]);
    await first.zone.delete(first.before[0]!.entityID);
    expect((await first.undo([remove(first.before[0]!)])).calls).toEqual(['create y.example.com A 192.0.2.5']);
    expect(first.zone.held()).toEqual(['y.example.com A 192.0.2.5', 'z.example.com A 192.0.2.8']);

    const second = world([a('y.example.com', '192.0.2.5'), a('z.example.com', '192.0.2.8')]);
    await second.zone.delete(second.before[0]!.entityID);
    await second.zone.create(a('y.example.com', '192.0.2.5'));
    expect((await second.undo([remove(second.before[0]!)])).calls).toEqual([]);
    expect(second.zone.held()).toEqual(['y.example.com A 192.0.2.5', 'z.example.com A 192.0.2.8']);
  });

  it('is false when a write that takes back fails', async () => {
    const { zone, undo } = world([]);
    await zone.create(a('x.example.com', '192.0.2.1'));
    zone.onWrite = () => 'refused';
    expect((await undo([create(a('x.example.com', '192.0.2.1'))])).ok).toBe(false);
  });
});
