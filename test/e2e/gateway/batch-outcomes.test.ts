// Updates that arrive while another is being written go together in one batch, each evaluated
// against the zone as the ones before it would leave it. An attack found the flaw in that: an
// update made a no-op by an earlier one in the batch was answered NOERROR at once, and when the
// earlier one's write failed, the change was never made. Now such an answer waits for the batch,
// and a failed batch sends it round again against a fresh read. Also: a key with no grant for
// what it sends is refused before the zone is read, so it cannot spend the provider call budget.
import dgram from 'node:dgram';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendAdditional, optRecord } from '../../../src/dns/wire/edns.js';
import { decodeMessage, encodeMessage } from '../../../src/dns/wire/message.js';
import { signMessage } from '../../../src/dns/wire/tsig.js';
import type { DnsRecord } from '../../../src/dns/wire/types.js';
import { parseFault } from '../../../src/sandbox/faults.js';
import { HANG_BOUND_MS, tempDir } from '../../helpers/cli.js';
import { queryPacket, udpExchange } from '../../helpers/dns-wire.js';
import { startHoldingProxy, type HoldingProxy } from '../../helpers/holding-proxy.js';
import { startGatewayProcess, useGateway, writeKeysFile } from '../../helpers/use-gateway.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox({ port: 0, per: 'file' });
/** Between the gateway and the sandbox: holds a chosen provider call until the test lets it go. */
let proxy: HoldingProxy;
beforeAll(async () => {
  proxy = await startHoldingProxy(sandbox.url);
});
const gateway = useGateway(() => ({
  apiUrl: proxy.url,
  primaryName: null,
  args: ['--refresh', '1h'],
  keys: [
    { name: 'admin', rules: ['grant "admin" zonesub;'] },
    { name: 'xfr', rules: ['transfer "xfr";'] },
  ],
}));
let socket: dgram.Socket;
const answers = new Map<number, (b: Buffer) => void>();

/** Sends a signed UPDATE of example.com over UDP; resolves with the answer's code. */
function update(
  keyName: string,
  records: DnsRecord[],
  deletes: { name: string; type: number }[] = [],
): Promise<number> {
  const id = Math.floor(Math.random() * 65536);
  let message = encodeMessage({
    id,
    opcode: 5,
    questions: [{ name: 'example.com', type: 6, class: 1 }],
    authority: records,
  });
  // Deletes of an RRset (class ANY, TTL 0, no data) appended by hand: the codec writes class IN records only.
  for (const d of deletes) {
    const name = Buffer.concat([
      ...d.name.split('.').map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l)])),
      Buffer.from([0]),
    ]);
    const fixed = Buffer.alloc(10);
    fixed.writeUInt16BE(d.type, 0);
    fixed.writeUInt16BE(255, 2);
    message = Buffer.concat([message, name, fixed]);
    message.writeUInt16BE(message.readUInt16BE(8) + 1, 8);
  }
  const signed = signMessage(message, gateway.keys.get(keyName)!, undefined, {
    timeSigned: Math.floor(Date.now() / 1000),
  }).message;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer to update ${id}`)), 60_000);
    answers.set(id, (b) => {
      clearTimeout(timer);
      resolve(b.readUInt16BE(2) & 0xf);
    });
    socket.send(signed, gateway.port, '127.0.0.1');
  });
}
/**
 * Resolves once the gateway has taken in every datagram sent to it before: it reads them in
 * order and answers a plain query in the turn it reads it, after queueing the updates before it.
 */
function takenIn(): Promise<void> {
  const id = Math.floor(Math.random() * 65536);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no answer to the barrier query')), HANG_BOUND_MS);
    answers.set(id, () => {
      clearTimeout(timer);
      resolve();
    });
    // From the socket the updates left by, so it arrives after them.
    socket.send(queryPacket({ name: 'barrier.example.com', type: 1, id }), gateway.port, '127.0.0.1');
  });
}

/**
 * Sends `first`, holds its batch's read of the zone at the provider, sends `then` while it is
 * held (so they queue behind it and go together in the next batch), and lets the read go once
 * the gateway has taken them in. The answers, in order.
 */
async function batchedBehind(first: () => Promise<number>, then: (() => Promise<number>)[]): Promise<number[]> {
  const read = proxy.hold('service/dnslist');
  const head = first();
  await read.arrived;
  const rest = then.map((send) => send());
  await takenIn();
  read.release();
  return Promise.all([head, ...rest]);
}
/** The provider's own records (the sandbox's model), not the gateway's view of them. */
const txtAt = (name: string) =>
  sandbox.model.services.find((s) => s.name === 'example.com')!.dns.filter((e) => e.name === name && e.type === 'TXT');
const callCount = () => [...sandbox.calls.values()].reduce((n, c) => n + c, 0);

afterAll(async () => {
  socket?.close();
  await gateway.stop();
  await proxy?.close();
});
beforeAll(async () => {
  socket = dgram.createSocket('udp4');
  socket.on('message', (m) => answers.get(m.readUInt16BE(0))?.(m));
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', () => r()));
});

describe('answers that depend on the updates before them in a batch', () => {
  it('an update made a no-op by one whose write fails is not answered NOERROR until its change is made', async () => {
    expect(await update('admin', [{ name: 'keep.example.com', type: 'A', ttl: 60, value: '192.0.2.1' }])).toBe(0);
    // The next batch's read is held, so that the two adds below queue behind it and go together;
    // the first create after it fails (a 500), as a provider refusing one update's write would.
    sandbox.faults.push(parseFault('service/dnscreate=500x1'));
    const add = { name: 'contingent.example.com', type: 'TXT' as const, ttl: 60, value: ['v'] } as DnsRecord;
    const [u0, u1, u2] = await batchedBehind(
      () => update('admin', [], [{ name: 'keep.example.com', type: 1 }]),
      [() => update('admin', [add]), () => update('admin', [add])],
    );
    expect(u0).toBe(0);
    // u1's create failed; u2, the same change, was evaluated again and made.
    expect(u1).toBe(2);
    expect(u2).toBe(0);
    expect(txtAt('contingent.example.com')).toHaveLength(1);
  });

  it('an update batched with one whose value the provider refuses is made in the next round, not failed with it', async () => {
    expect(await update('admin', [{ name: 'gone.example.com', type: 'A', ttl: 60, value: '192.0.2.1' }])).toBe(0);
    // The delete's batch read is held, so the two adds below go together in the next batch,
    // where the provider refuses the first create it is sent (as it refuses a value it does not take).
    sandbox.faults.push(parseFault('service/dnscreate=refusex1'));
    const [u0, a, b] = await batchedBehind(
      () => update('admin', [], [{ name: 'gone.example.com', type: 1 }]),
      [
        () => update('admin', [{ name: 'round-a.example.com', type: 'A', ttl: 60, value: '192.0.2.5' }]),
        () => update('admin', [{ name: 'round-b.example.com', type: 'A', ttl: 60, value: '192.0.2.6' }]),
      ],
    );
    expect(u0).toBe(0);
    // One was refused (its own write); the other was not failed for it, but written in a round of its own.
    expect([a, b].sort()).toEqual([0, 5]);
    const made = a === 0 ? 'round-a.example.com' : 'round-b.example.com';
    const refused = a === 0 ? 'round-b.example.com' : 'round-a.example.com';
    const zone = sandbox.model.services.find((s) => s.name === 'example.com')!.dns;
    expect(zone.filter((e) => e.name === made)).toHaveLength(1);
    expect(zone.filter((e) => e.name === refused)).toEqual([]);
  });

  it('an update none of whose writes was made goes round again when the provider refuses a write and then its undoing (a full plan), not SERVFAIL', async () => {
    const txt = (name: string, value: string) => ({ name, type: 'TXT' as const, ttl: 60, value: [value] }) as DnsRecord;
    expect(await update('admin', [txt('blocker.example.com', 'b')])).toBe(0);
    expect(await update('admin', [txt('bystander.example.com', 'x')])).toBe(0);
    // The blocker's (a no-op) read is held, so the three below go together. Their plan: two creates
    // side by side, the first slow and made, the second refused; then undoing the one made is
    // refused too (as a plan at its entity limit refuses). The delete, last in the plan, was never sent.
    sandbox.faults.push(
      parseFault('service/dnscreate=slow:300x1'),
      parseFault('service/dnscreate=refusex1'),
      parseFault('service/dnsdelete=refusex1'),
    );
    const [u0, p, q, bystander] = await batchedBehind(
      () => update('admin', [txt('blocker.example.com', 'b')]),
      [
        () => update('admin', [txt('full-p.example.com', 'p')]),
        () => update('admin', [txt('full-q.example.com', 'q')]),
        () => update('admin', [], [{ name: 'bystander.example.com', type: 16 }]),
      ],
    );
    expect(u0).toBe(0);
    // The refused one and the one whose write stayed are told SERVFAIL (what holds is not what was asked).
    expect([p, q]).toEqual([2, 2]);
    expect(bystander).toBe(0);
    expect(txtAt('bystander.example.com')).toEqual([]);
  });

  it('undoes only its own writes when the provider refuses one: what others changed meanwhile stays', async () => {
    const home = () =>
      sandbox.model.services
        .find((s) => s.name === 'example.com')!
        .dns.find((e) => e.name === 'home.example.com' && e.type === 'A')!;
    const before = home().value;
    // The first create is held, another refused (the provider's answer at a plan's entity limit, say).
    const firstCreate = proxy.hold('service/dnscreate');
    sandbox.faults.push(parseFault('service/dnscreate=refusex1'));
    const txt = (name: string) => ({ name, type: 'TXT' as const, ttl: 60, value: ['x'] }) as DnsRecord;
    const answer = update('admin', [txt('undo-1.example.com'), txt('undo-2.example.com'), txt('undo-3.example.com')]);
    // While the batch's writes run, the agent moves its address (through dynamic DNS, say).
    await firstCreate.arrived;
    home().value = '203.0.113.55';
    firstCreate.release();
    expect(await answer).toBe(5);
    expect(home().value).toBe('203.0.113.55');
    expect(before).not.toBe('203.0.113.55');
    expect(
      sandbox.model.services.find((s) => s.name === 'example.com')!.dns.filter((e) => e.name.startsWith('undo-')),
    ).toEqual([]);
  });

  it('a key that fills its replay memory blocks only itself, not the other keys', async () => {
    // The bound itself (4,096 open windows a key) is proven in test/unit/gateway/replay-memory.test.ts;
    // here, that the gateway keeps one part a key: the transfer key's part filled, its next update
    // is refused for it, and another key's update is still made.
    const PART = 4_096;
    const signedXfr = (id: number, edns = false) => {
      const bare = encodeMessage({
        id,
        opcode: 5,
        questions: [{ name: 'example.com', type: 6, class: 1 }],
        authority: [],
      });
      const message = edns ? appendAdditional(bare, optRecord({ udpSize: 1232 })) : bare;
      return signMessage(message, gateway.keys.get('xfr')!, undefined, { timeSigned: Math.floor(Date.now() / 1000) })
        .message;
    };
    const flood = dgram.createSocket('udp4');
    await new Promise<void>((r) => flood.bind(0, '127.0.0.1', () => r()));
    let answered = 0;
    flood.on('message', () => answered++);
    // In rounds, each answered before the next is sent: the gateway's receive buffer never overflows.
    for (let i = 0; i < PART; i += 256) {
      for (let j = i; j < i + 256; j++) flood.send(signedXfr(j), gateway.port, '127.0.0.1');
      const deadline = Date.now() + HANG_BOUND_MS;
      while (answered < i + 256 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(answered).toBe(i + 256);
    }
    flood.close();
    const full = await udpExchange(gateway.port, signedXfr(PART, true), HANG_BOUND_MS);
    expect(full.readUInt16BE(2) & 0xf).toBe(5);
    expect(full.toString('latin1')).toContain('too many signed updates within their time windows');
    expect(await update('admin', [{ name: 'after-flood.example.com', type: 'A', ttl: 60, value: '192.0.2.44' }])).toBe(
      0,
    );
  });

  it('answers the same question from its cache until an update changes the zone', async () => {
    const ask = async () =>
      decodeMessage(await udpExchange(gateway.port, queryPacket({ name: 'cached.example.com', type: 1 }))).answers.map(
        (a) => a.value,
      );
    expect(await ask()).toEqual([]);
    expect(await ask()).toEqual([]);
    expect(await update('admin', [{ name: 'cached.example.com', type: 'A', ttl: 60, value: '192.0.2.61' }])).toBe(0);
    expect(await ask()).toEqual(['192.0.2.61']);
    expect(await update('admin', [], [{ name: 'cached.example.com', type: 1 }])).toBe(0);
    expect(await ask()).toEqual([]);
  });

  it('a key that may change nothing is refused before the zone is read: no provider call', async () => {
    const before = callCount();
    for (let i = 0; i < 5; i++)
      expect(await update('xfr', [{ name: 'www.example.com', type: 'A', ttl: 60, value: '192.0.2.9' }])).toBe(5);
    // Nor by an update that changes nothing (an attack spent the budget with them): empty, or an SOA the gateway leaves to the provider.
    expect(await update('xfr', [])).toBe(5);
    expect(
      await update('xfr', [
        {
          name: 'example.com',
          type: 'SOA',
          ttl: 60,
          value: {
            mname: 'a.example.com',
            rname: 'b.example.com',
            serial: 1,
            refresh: 1,
            retry: 1,
            expire: 1,
            minimum: 1,
          },
        } as DnsRecord,
      ]),
    ).toBe(5);
    expect(callCount()).toBe(before);
  });
});

describe('replays across a restart', () => {
  it('a signed update captured and sent again after the gateway restarted is refused, not made again', async () => {
    const dir = tempDir();
    const { file, keys } = writeKeysFile([{ name: 'admin', rules: ['grant "admin" zonesub;'] }]);
    const admin = keys.get('admin')!;
    const start = () =>
      startGatewayProcess({
        apiUrl: sandbox.url,
        zone: 'example.com',
        keysFile: file,
        stateDir: join(dir, 'state'),
        primaryName: null,
        args: ['--refresh', '1h'],
      });
    const send = (to: number, bytes: Buffer) => udpExchange(to, bytes, 30_000).then((b) => b.readUInt16BE(2) & 0xf);
    const signed = (records: DnsRecord[], deletes: boolean) => {
      const id = Math.floor(Math.random() * 65536);
      let message = encodeMessage({
        id,
        opcode: 5,
        questions: [{ name: 'example.com', type: 6, class: 1 }],
        authority: records,
      });
      if (deletes) {
        // Delete the RRset replayed.example.com A (class ANY, TTL 0, no data), appended by hand.
        const name = Buffer.from([
          8,
          ...Buffer.from('replayed'),
          7,
          ...Buffer.from('example'),
          3,
          ...Buffer.from('com'),
          0,
        ]);
        message = Buffer.concat([message, name, Buffer.from([0, 1, 0, 255, 0, 0, 0, 0, 0, 0])]);
        message.writeUInt16BE(message.readUInt16BE(8) + 1, 8);
      }
      return signMessage(message, admin, undefined, { timeSigned: Math.floor(Date.now() / 1000) }).message;
    };
    const replayed = () =>
      sandbox.model.services
        .find((s) => s.name === 'example.com')!
        .dns.filter((e) => e.name === 'replayed.example.com');
    const first = await start();
    const add = signed([{ name: 'replayed.example.com', type: 'A', ttl: 60, value: '192.0.2.77' }], false);
    expect(await send(first.port, add)).toBe(0);
    expect(await send(first.port, signed([], true))).toBe(0);
    expect(replayed()).toEqual([]);
    expect(await first.stop()).toBe(0);
    const again = await start();
    try {
      expect(await send(again.port, add)).toBe(5);
      expect(replayed()).toEqual([]);
      expect(readFileSync(join(dir, 'state', 'gateway', 'replay.json'), 'utf8')).not.toContain(
        admin.secret.toString('base64'),
      );
    } finally {
      await again.stop();
    }
  });
});
