// The queue of updates (update-queue.ts), against an in-memory zone: updates that arrive while a
// batch is made wait for the next, which takes all of them with one reading; a key's updates
// waiting are bounded; updates sent round again are made in the next batch; a batch that throws
// answers its updates and the next goes on. Each queue is an object of its own: two share nothing.
import { describe, expect, it } from 'vitest';
import { EDE } from '../../../../src/dns/wire/edns.js';
import type { Outcome } from '../../../../src/gateway/update/batch-deps.js';
import { MAX_BATCH_RECORDS, MAX_KEY_RECORDS } from '../../../../src/gateway/update/limits.js';
import { RCODE_UPDATE } from '../../../../src/gateway/update/rules.js';
import { UpdateQueue } from '../../../../src/gateway/update/update-queue.js';
import { keygenText } from '../../../../src/gateway/keys/keygen.js';
import { CLASS, type UpdateRecord } from '../../../../src/gateway/update/message.js';
import { TYPE_CODES } from '../../../../src/dns/wire/types.js';
import { addA, batchWorld, noA, updateOf, ZONE } from '../../../helpers/update-batch.js';

const made: Outcome = { rcode: 0, ede: 0, why: '', changed: true };

/** Reads wait until `release` is called. */
function heldReads() {
  let release!: () => void;
  const hold = new Promise<void>((resolve) => (release = resolve));
  return { hold, release };
}

describe('the queue of updates', () => {
  it('makes the updates that arrive during a batch in the next one, with one reading for all of them', async () => {
    const world = await batchWorld();
    const queue = new UpdateQueue(world.deps);
    const reads = heldReads();
    world.zone.hold = reads.hold;
    const first = queue.enqueue(ZONE, {
      key: 'alice',
      client: '192.0.2.9',
      message: updateOf(addA('a.example.com', '192.0.2.1')),
    });
    const later = [2, 3, 4].map((i) =>
      queue.enqueue(ZONE, {
        key: 'bob',
        client: '192.0.2.9',
        message: updateOf(addA(`h${i}.example.com`, `192.0.2.${i}`)),
      }),
    );
    reads.release();
    expect(await Promise.all([first, ...later])).toEqual([made, made, made, made]);
    expect(world.zone.calls.filter((c) => c === 'list')).toHaveLength(3);
    expect(world.zone.writes()).toEqual([
      'create a.example.com A 192.0.2.1',
      'create h2.example.com A 192.0.2.2',
      'create h3.example.com A 192.0.2.3',
      'create h4.example.com A 192.0.2.4',
    ]);
  });

  it(`takes into one batch the updates whose records fit ${MAX_BATCH_RECORDS}, and always one`, async () => {
    const world = await batchWorld({
      keysFile: `${keygenText('carol')}${keygenText('dave')}grant "carol" zonesub A;\ngrant "dave" zonesub A;\n`,
    });
    const queue = new UpdateQueue(world.deps);
    const reads = heldReads();
    world.zone.hold = reads.hold;
    /** An add at `name` with prerequisites (none of them failing) to make `records` records. */
    const sized = (key: string, name: string, records: number) =>
      queue.enqueue(ZONE, {
        key,
        client: '192.0.2.9',
        message: updateOf(
          ...Array.from({ length: records - 1 }, (_, i) => noA(`n${i}.example.com`)),
          addA(name, '192.0.2.1'),
        ),
      });
    const half = MAX_BATCH_RECORDS / 2;
    const answers = [
      sized('alice', 'a.example.com', 1),
      sized('alice', 'b.example.com', half),
      sized('bob', 'c.example.com', half),
      sized('carol', 'd.example.com', 1),
      sized('dave', 'e.example.com', MAX_BATCH_RECORDS + 1),
      sized('bob', 'f.example.com', 1),
    ];
    reads.release();
    expect(await Promise.all(answers)).toEqual(answers.map(() => made));
    // Batches of a, of b and c (exactly the bound), of d, of e (alone past it), of f.
    const batches = world.zone.calls
      .slice(1)
      .join(' ')
      .split('list')
      .filter(Boolean)
      .map((b) => b.trim().replace(/create (\w)\.example\.com A 192\.0\.2\.1/g, '$1'));
    expect(batches).toEqual(['a', 'b c', 'd', 'e', 'f']);
  });

  it("refuses a key's update while its updates waiting would pass the records it may have waiting; another key's goes on", async () => {
    const world = await batchWorld({ keysFile: `quota "alice" records ${MAX_KEY_RECORDS + 1};\n` });
    const queue = new UpdateQueue(world.deps);
    const reads = heldReads();
    world.zone.hold = reads.hold;
    const many = Array.from({ length: MAX_KEY_RECORDS }, (_, i) => addA(`h${i}.example.com`, '192.0.2.1'));
    const big = queue.enqueue(ZONE, { key: 'alice', client: '192.0.2.9', message: updateOf(...many) });
    const refused = await queue.enqueue(ZONE, {
      key: 'alice',
      client: '192.0.2.9',
      message: updateOf(addA('x.example.com', '192.0.2.2')),
    });
    expect(refused).toEqual({
      rcode: RCODE_UPDATE.REFUSED,
      ede: EDE.NOT_READY,
      why: expect.stringContaining(`the key alice has updates of ${MAX_KEY_RECORDS} records waiting`),
    });
    const bobs = queue.enqueue(ZONE, {
      key: 'bob',
      client: '192.0.2.9',
      message: updateOf(addA('y.example.com', '192.0.2.3')),
    });
    // A queue of its own (another gateway's) knows nothing of the first's waiting updates.
    const other = new UpdateQueue((await batchWorld()).deps);
    const elsewhere = other.enqueue(ZONE, {
      key: 'alice',
      client: '192.0.2.9',
      message: updateOf(addA('z.example.com', '192.0.2.4')),
    });
    reads.release();
    expect(await big).toEqual(made);
    expect(await bobs).toEqual(made);
    expect(await elsewhere).toEqual(made);
    // Answered, alice may send again.
    expect(
      await queue.enqueue(ZONE, {
        key: 'alice',
        client: '192.0.2.9',
        message: updateOf(addA('x.example.com', '192.0.2.2')),
      }),
    ).toEqual(made);
  });

  it('makes a bystander of a refused batch in the next batch, after a fresh reading', async () => {
    const world = await batchWorld();
    world.zone.onWrite = (call) => (call.name === 'b.example.com' ? 'refused' : undefined);
    const queue = new UpdateQueue(world.deps);
    const reads = heldReads();
    world.zone.hold = reads.hold;
    const first = queue.enqueue(ZONE, {
      key: 'bob',
      client: '192.0.2.9',
      message: updateOf(addA('first.example.com', '192.0.2.1')),
    });
    const bystander = queue.enqueue(ZONE, {
      key: 'alice',
      client: '192.0.2.9',
      message: updateOf(addA('a.example.com', '192.0.2.2')),
    });
    const offender = queue.enqueue(ZONE, {
      key: 'bob',
      client: '192.0.2.9',
      message: updateOf(addA('b.example.com', '192.0.2.3')),
    });
    reads.release();
    expect(await first).toEqual(made);
    expect((await offender).rcode).toBe(RCODE_UPDATE.REFUSED);
    expect(await bystander).toEqual(made);
    expect(world.zone.held()).toEqual(['a.example.com A 192.0.2.2', 'first.example.com A 192.0.2.1']);
    expect(world.zone.writes()).toEqual([
      'create first.example.com A 192.0.2.1',
      'create a.example.com A 192.0.2.2',
      'create b.example.com A 192.0.2.3',
      expect.stringMatching(/^delete e\d+$/),
      'create a.example.com A 192.0.2.2',
    ]);
  });

  it('answers every update of a batch that throws (SERVFAIL), and makes the next batch', async () => {
    const world = await batchWorld();
    let throws = true;
    const providerOf = () => {
      if (!throws) return world.zone;
      throws = false;
      throw new TypeError('a bug');
    };
    const queue = new UpdateQueue({ ...world.deps, providerOf });
    const reads = heldReads();
    world.zone.hold = reads.hold;
    const first = queue.enqueue(ZONE, {
      key: 'alice',
      client: '192.0.2.9',
      message: updateOf(addA('a.example.com', '192.0.2.1')),
    });
    const next = queue.enqueue(ZONE, {
      key: 'alice',
      client: '192.0.2.9',
      message: updateOf(addA('b.example.com', '192.0.2.2')),
    });
    expect(await first).toEqual({
      rcode: RCODE_UPDATE.SERVFAIL,
      ede: EDE.OTHER,
      why: 'internal error; see the gateway log',
    });
    reads.release();
    expect(await next).toEqual(made);
    const logged = world.log.find((l) =>
      l.startsWith('error: gateway: updates of example.com failed: TypeError: a bug'),
    );
    // The stack, not only the message: where the bug is.
    expect(logged).toMatch(/\n\s+at /);
  });

  it("keeps counting a key's updates still waiting once one of them is answered, up to the bound exactly", async () => {
    const world = await batchWorld();
    const reads = heldReads();
    // The first batch is read at once; the reads after it wait.
    const releaseCalls = () => {
      world.zone.hold = reads.hold;
    };
    const queue = new UpdateQueue({ ...world.deps, releaseCalls });
    const sized = (key: string, name: string, records: number) =>
      queue.enqueue(ZONE, {
        key,
        client: '192.0.2.9',
        message: updateOf(
          ...Array.from({ length: records - 1 }, (_, i) => noA(`n${i}.example.com`)),
          addA(name, '192.0.2.1'),
        ),
      });
    const first = sized('alice', 'a.example.com', 1);
    // Exactly the bound with the first: taken.
    const second = sized('alice', 'b.example.com', MAX_KEY_RECORDS - 1);
    expect(await first).toEqual(made);
    // The first answered, the second still waits with its records.
    expect(await sized('alice', 'c.example.com', 2)).toEqual({
      rcode: RCODE_UPDATE.REFUSED,
      ede: EDE.NOT_READY,
      why:
        `the key alice has updates of ${MAX_KEY_RECORDS - 1} records waiting to be made (at most ` +
        `${MAX_KEY_RECORDS} at once); send this one again once they are answered`,
    });
    reads.release();
    expect(await second).toEqual(made);
    expect(world.zone.held()).toEqual(['a.example.com A 192.0.2.1', 'b.example.com A 192.0.2.1']);
  });

  it('sends a bystander round again ahead of an update that arrived during its batch, and makes both', async () => {
    const world = await batchWorld();
    const queue = new UpdateQueue(world.deps);
    const add = (key: string, name: string, address: string) =>
      queue.enqueue(ZONE, { key, client: '192.0.2.9', message: updateOf(addA(name, address)) });
    let late: Promise<Outcome> | undefined;
    world.zone.onWrite = (call) => {
      if (call.name !== 'b.example.com') return undefined;
      late ??= add('alice', 'late.example.com', '192.0.2.4');
      return 'refused';
    };
    const first = add('bob', 'first.example.com', '192.0.2.1');
    const bystander = add('alice', 'a.example.com', '192.0.2.2');
    const offender = add('bob', 'b.example.com', '192.0.2.3');
    expect(await first).toEqual(made);
    expect((await offender).rcode).toBe(RCODE_UPDATE.REFUSED);
    expect(await bystander).toEqual(made);
    expect(await late).toEqual(made);
    expect(
      world.zone
        .writes()
        .filter((w) => w.startsWith('create'))
        .slice(-2),
    ).toEqual(['create a.example.com A 192.0.2.2', 'create late.example.com A 192.0.2.4']);
  });

  it('tells apart the records that the updates of one batch create, for a later update of the batch to change', async () => {
    const world = await batchWorld();
    const queue = new UpdateQueue(world.deps);
    const reads = heldReads();
    world.zone.hold = reads.hold;
    const send = (key: string, ...records: UpdateRecord[]) =>
      queue.enqueue(ZONE, { key, client: '192.0.2.9', message: updateOf(...records) });
    const first = send('bob', addA('first.example.com', '192.0.2.1'));
    // One batch: alice creates a and b, then deletes a's A records.
    const creates = send('alice', addA('a.example.com', '192.0.2.2'), addA('b.example.com', '192.0.2.3'));
    const deletes = send('alice', { name: 'a.example.com', type: TYPE_CODES.A, class: CLASS.ANY, ttl: 0 });
    reads.release();
    expect(await Promise.all([first, creates, deletes])).toEqual([made, made, made]);
    expect(world.zone.held()).toEqual(['b.example.com A 192.0.2.3', 'first.example.com A 192.0.2.1']);
  });

  it('starts a batch again for an update that arrives once the queue ran dry', async () => {
    const world = await batchWorld();
    const queue = new UpdateQueue(world.deps);
    const add = (name: string) =>
      queue.enqueue(ZONE, { key: 'alice', client: '192.0.2.9', message: updateOf(addA(name, '192.0.2.1')) });
    expect(await add('a.example.com')).toEqual(made);
    // Every batch's work done (a turn of the event loop after the answer).
    await new Promise((resolve) => setImmediate(resolve));
    expect(await add('b.example.com')).toEqual(made);
  });
});
