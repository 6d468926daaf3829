// One UPDATE from its bytes to its answer (handler.ts), in-process against an in-memory zone: the
// zone served (NOTAUTH), the signer, the record limit, the unfit owners and texts, a gateway that
// is stopping, a key with no grant in the zone or for a change, the costly prerequisites, then the
// batch; each refusal answered with its EDE when the client speaks EDNS (and without an OPT when it
// does not), logged with its reason, and made before anything is read.
import { describe, expect, it } from 'vitest';
import type { Signer } from '../../../../src/dns/server/tsig-server.js';
import { EDE } from '../../../../src/dns/wire/edns.js';
import { decodeMessage } from '../../../../src/dns/wire/message.js';
import { RefusalLog } from '../../../../src/gateway/limits/refusal-log.js';
import { handleUpdate, type UpdateDeps } from '../../../../src/gateway/update/handler.js';
import { MAX_UPDATE_RECORDS } from '../../../../src/gateway/update/limits.js';
import { RCODE_UPDATE } from '../../../../src/gateway/update/rules.js';
import { UpdateQueue } from '../../../../src/gateway/update/update-queue.js';
import { silentLogger } from '../../../../src/lib/log.js';
import { batchWorld, type WorldOptions } from '../../../helpers/update-batch.js';
import {
  aData,
  CLASS,
  outcome,
  rr,
  TYPE,
  txtData,
  updateMessage,
  type UpdateShape,
} from '../../../helpers/update-wire.js';

const signer = (name: string) => ({ key: { name } }) as Signer;
const addA = (name: string, ip: string) => rr(name, TYPE.A, CLASS.IN, 300, aData(ip));

async function gateway(options: WorldOptions = {}, more: Partial<UpdateDeps> = {}) {
  const world = await batchWorld(options);
  const refusals = new RefusalLog(silentLogger);
  const deps: UpdateDeps = { ...world.deps, updates: new UpdateQueue(world.deps), refusals, ...more };
  const before = world.zone.calls.length;
  const send = async (shape: UpdateShape, key: string | null = 'alice') =>
    outcome(
      await handleUpdate(updateMessage({ edns: 1232, ...shape }), key ? signer(key) : undefined, '192.0.2.9', deps),
    );
  return { world, deps, refusals, send, calls: () => world.zone.calls.slice(before) };
}

describe('an UPDATE answered before anything is read', () => {
  it.each([
    ['a zone the gateway does not serve', { zone: 'example.org' }, 'example.org is not a zone this gateway serves'],
    ['the root', { zone: '.' }, '. is not a zone this gateway serves'],
    ['a zone section of class CH', { zoneClass: CLASS.CH }, 'example.com is not a zone this gateway serves'],
    ['a zone section of type A', { zoneType: TYPE.A }, 'example.com is not a zone this gateway serves'],
  ])('%s: NOTAUTH (Not Authoritative), logged with its reason', async (_, shape: UpdateShape, why) => {
    const { send, refusals, calls } = await gateway();
    expect(await send({ ...shape, updates: [addA('a.example.com', '192.0.2.1')] })).toMatchObject({
      rcode: RCODE_UPDATE.NOTAUTH,
      ede: EDE.NOT_AUTHORITATIVE,
      edeText: why,
    });
    expect(refusals.recent).toEqual([expect.objectContaining({ rcode: 'NOTAUTH', why })]);
    expect(refusals.recent[0]?.what).toContain(shape.zone === '.' ? 'zone .' : 'zone example');
    expect(calls()).toEqual([]);
  });

  it('unsigned: NOTAUTH (Prohibited)', async () => {
    const { send, calls } = await gateway();
    expect(await send({ updates: [addA('a.example.com', '192.0.2.1')] }, null)).toMatchObject({
      rcode: RCODE_UPDATE.NOTAUTH,
      ede: EDE.PROHIBITED,
      edeText: 'updates must be signed with a TSIG key',
    });
    expect(calls()).toEqual([]);
  });

  it(`more than ${MAX_UPDATE_RECORDS} records, prerequisites and updates together: REFUSED`, async () => {
    const { send, calls } = await gateway();
    const updates = Array.from({ length: 600 }, (_, i) => addA(`h${i}.example.com`, '192.0.2.1'));
    const prerequisites = Array.from({ length: 401 }, (_, i) => rr(`h${i}.example.com`, TYPE.A, CLASS.NONE, 0));
    expect(await send({ updates, prerequisites })).toMatchObject({
      rcode: RCODE_UPDATE.REFUSED,
      ede: EDE.PROHIBITED,
      edeText: `an update may carry at most ${MAX_UPDATE_RECORDS} records (this one has 1001); split it`,
    });
    expect(calls()).toEqual([]);
    // At the limit it is taken.
    expect(await send({ updates, prerequisites: prerequisites.slice(1) })).toMatchObject({ rcode: 0 });
  });

  it('an owner that is no host name, or text that is not UTF-8: REFUSED (Invalid Data)', async () => {
    const { send, calls } = await gateway();
    expect(await send({ updates: [addA('x@y.example.com', '192.0.2.1')] })).toMatchObject({
      rcode: RCODE_UPDATE.REFUSED,
      ede: EDE.INVALID_DATA,
      edeText: expect.stringMatching(/^the update at x\\064y\.example\.com names no host name/),
    });
    const bytes = Buffer.from([3, 0x63, 0x61, 0xe9]);
    expect(await send({ updates: [rr('t.example.com', TYPE.TXT, CLASS.IN, 60, bytes)] })).toMatchObject({
      rcode: RCODE_UPDATE.REFUSED,
      ede: EDE.INVALID_DATA,
      edeText: expect.stringMatching(/^the update at t\.example\.com: /),
    });
    expect(calls()).toEqual([]);
  });

  it('while the gateway is stopping: REFUSED (Not Ready)', async () => {
    const { send, calls } = await gateway({}, { stopping: () => true });
    expect(await send({ updates: [addA('a.example.com', '192.0.2.1')] })).toMatchObject({
      rcode: RCODE_UPDATE.REFUSED,
      ede: EDE.NOT_READY,
      edeText: 'the gateway is stopping; send the update again',
    });
    expect(calls()).toEqual([]);
  });

  it('a key with no grant in the zone, or none for the change: REFUSED (Prohibited)', async () => {
    const { send, calls } = await gateway();
    expect(await send({ updates: [addA('a.example.com', '192.0.2.1')] }, 'mallory')).toMatchObject({
      rcode: RCODE_UPDATE.REFUSED,
      ede: EDE.PROHIBITED,
      edeText: 'the key mallory may change nothing in example.com',
    });
    expect(await send({ updates: [rr('t.example.com', TYPE.TXT, CLASS.IN, 60, txtData('x'))] })).toMatchObject({
      rcode: RCODE_UPDATE.REFUSED,
      ede: EDE.PROHIBITED,
      edeText: 'the key may not change TXT at t.example.com',
    });
    expect(calls()).toEqual([]);
  });

  it('prerequisites at names whose filtered reading would take more than 4 calls: REFUSED', async () => {
    const records = Array.from({ length: 5000 }, (_, i) => ({
      name: `h${i}.dyn.example.com`,
      type: 'A',
      ttl: 300,
      value: '192.0.2.1',
    }));
    const { send, deps, calls } = await gateway({ records });
    deps.views.filterFinds.set('example.com', true);
    expect(
      await send({
        prerequisites: [rr('dyn.example.com', TYPE.ANY, CLASS.NONE, 0)],
        updates: [addA('a.example.com', '192.0.2.1')],
      }),
    ).toMatchObject({
      rcode: RCODE_UPDATE.REFUSED,
      ede: EDE.PROHIBITED,
      edeText: expect.stringMatching(
        /^checking the prerequisites at names this update does not change \(dyn\.example\.com/,
      ),
    });
    expect(calls()).toEqual([]);
  });

  it('a message that cannot be read: FORMERR, with its ID', async () => {
    const { deps } = await gateway();
    const cut = updateMessage({ updates: [addA('a.example.com', '192.0.2.1')] }).subarray(0, 40);
    const answer = decodeMessage(await handleUpdate(cut, signer('alice'), '192.0.2.9', deps));
    expect(answer).toMatchObject({ id: 0x5151, rcode: RCODE_UPDATE.FORMERR, response: true });
  });
});

describe('an UPDATE taken', () => {
  it('is made by the batch and answered NOERROR without an EDE; the gateway waits for it while in flight', async () => {
    const inFlight = new Set<Promise<unknown>>();
    const { send, world, refusals } = await gateway({}, { inFlight });
    const answer = send({ updates: [addA('a.example.com', '192.0.2.1')] });
    expect(inFlight.size).toBe(1);
    expect(await answer).toEqual({ id: 0x5151, rcode: 0 });
    expect(inFlight.size).toBe(0);
    expect(world.zone.held()).toEqual(['a.example.com A 192.0.2.1']);
    expect(refusals.recent).toEqual([]);
  });

  it("answers the batch's refusal with its EDE and logs it under the key", async () => {
    const { send, refusals } = await gateway();
    const prerequisites = [rr('a.example.com', TYPE.A, CLASS.ANY, 0)];
    expect(await send({ prerequisites, updates: [addA('a.example.com', '192.0.2.1')] })).toMatchObject({
      rcode: RCODE_UPDATE.NXRRSET,
      ede: EDE.OTHER,
      edeText: 'prerequisite failed: a.example.com has no A records',
    });
    expect(refusals.recent).toEqual([
      expect.objectContaining({ rcode: 'NXRRSET', what: expect.stringContaining('alice') }),
    ]);
  });

  it('to a client without EDNS: the RCODE alone, no OPT record', async () => {
    const { deps } = await gateway();
    const packet = updateMessage({ zone: 'example.org', updates: [addA('a.example.org', '192.0.2.1')] });
    const answer = decodeMessage(await handleUpdate(packet, signer('alice'), '192.0.2.9', deps));
    expect(answer).toMatchObject({ id: 0x5151, rcode: RCODE_UPDATE.NOTAUTH, additional: [] });
    expect(answer.questions).toEqual([expect.objectContaining({ name: 'example.org' })]);
  });
});
