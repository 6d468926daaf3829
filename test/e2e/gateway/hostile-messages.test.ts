// The gateway (the built file, in front of the sandbox) against hostile and broken messages,
// as a port open to a network gets them: each gets a clear answer code, an Extended DNS Error when the request spoke EDNS,
// nothing changes in the provider's zone, and the gateway answers another client right after.
// Messages are built byte by byte (test/helpers/update-wire.ts) because no well-behaved client
// sends them.
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { appendAdditional, optRecord } from '../../../src/dns/wire/edns.js';
import { signMessage, TSIG_ERROR } from '../../../src/dns/wire/tsig.js';
import { queryPacket, readAnswer, tcpExchange, udpExchange } from '../../helpers/dns-wire.js';
import { useGateway, zoneLines } from '../../helpers/use-gateway.js';
import { useSandbox } from '../../helpers/use-sandbox.js';
import {
  aData,
  CLASS,
  outcome,
  question,
  rr,
  signed,
  TYPE,
  txtData,
  updateMessage,
  withMac,
} from '../../helpers/update-wire.js';

const FORMERR = 1;
const NOTAUTH = 9;
const REFUSED = 5;
const EDE_PROHIBITED = 18;
const EDE_NOT_SUPPORTED = 21;

const sandbox = useSandbox({ per: 'file' });
const gw = useGateway(() => ({
  apiUrl: sandbox.url,
  keys: [
    { name: 'admin', rules: ['grant "admin" zonesub;'] },
    { name: 'xfr', algorithm: 'hmac-sha384', rules: ['transfer "xfr";'] },
  ],
}));
afterAll(async () => {
  expect(await gw.stop()).toBe(0);
});
const admin = () => gw.keys.get('admin')!;

/** The gateway still answers another client: an SOA query over UDP and over TCP. */
async function stillAnswers(): Promise<void> {
  const overUdp = readAnswer(await udpExchange(gw.port, queryPacket({ id: 77, name: 'example.com', type: TYPE.SOA })));
  expect(overUdp.answers[0]?.type).toBe('SOA');
  const [overTcp] = await tcpExchange(gw.port, [queryPacket({ id: 78, name: 'example.com', type: TYPE.SOA })]);
  expect(readAnswer(overTcp!).answers[0]?.type).toBe('SOA');
}

/** An add of one A record, the update every case below tries to sneak in. */
const addA = (name: string, ip = '192.0.2.99') => rr(name, TYPE.A, CLASS.IN, 60, aData(ip));

describe('TSIG that cannot be trusted', () => {
  it('refuses an update whose TSIG is not the last record (an OPT after it): FORMERR with an EDE', async () => {
    const before = zoneLines(sandbox);
    const bytes = appendAdditional(
      signed(updateMessage({ updates: [addA('notlast.example.com')] }), admin()),
      optRecord({ udpSize: 1232 }),
    );
    for (const answer of [await udpExchange(gw.port, bytes), (await tcpExchange(gw.port, [bytes]))[0]!]) {
      const o = outcome(answer);
      expect(o.rcode).toBe(FORMERR);
      expect(o.ede).toBeDefined();
    }
    expect(zoneLines(sandbox)).toEqual(before);
    await stillAnswers();
  });

  it('answers a truncated MAC by RFC 8945 5.2.2.1 and 5.2.4: too short FORMERR, longer than the hash FORMERR, allowed but not full BADTRUNC (signed), forged BADSIG', async () => {
    const before = zoneLines(sandbox);
    const whole = signed(updateMessage({ updates: [addA('trunc.example.com')], edns: 1232 }), admin());
    const mac = (await import('../../../src/dns/wire/tsig.js')).findTsig(whole)!.mac;
    expect(mac.length).toBe(32);
    const tooShort = outcome(await udpExchange(gw.port, withMac(whole, mac.subarray(0, 8))));
    expect(tooShort.rcode).toBe(FORMERR);
    expect(tooShort.ede).toBeDefined();
    const tooLong = outcome(await udpExchange(gw.port, withMac(whole, Buffer.concat([mac, Buffer.alloc(4)]))));
    expect(tooLong.rcode).toBe(FORMERR);
    const half = outcome(await udpExchange(gw.port, withMac(whole, mac.subarray(0, 16))));
    expect(half).toMatchObject({ rcode: NOTAUTH, tsigError: TSIG_ERROR.BADTRUNC, ede: EDE_PROHIBITED });
    // Signed, as RFC 8945 5.3.2 asks for a MAC too short for the local policy.
    expect(half.macBytes).toBe(32);
    const forged = Buffer.from(mac.subarray(0, 16));
    forged[0]! ^= 1;
    expect(outcome(await udpExchange(gw.port, withMac(whole, forged)))).toMatchObject({
      rcode: NOTAUTH,
      tsigError: TSIG_ERROR.BADSIG,
      macBytes: 0,
    });
    expect(zoneLines(sandbox)).toEqual(before);
    await stillAnswers();
  });

  it("answers BADKEY to an update signed with a key's secret under another algorithm than the keys file says", async () => {
    const before = zoneLines(sandbox);
    const wrong = { ...admin(), algorithm: 'hmac-sha512' as const };
    const bytes = signMessage(updateMessage({ updates: [addA('alg.example.com')], edns: 1232 }), wrong, undefined, {
      timeSigned: Math.floor(Date.now() / 1000),
    }).message;
    for (const answer of [await udpExchange(gw.port, bytes), (await tcpExchange(gw.port, [bytes]))[0]!]) {
      expect(outcome(answer)).toMatchObject({
        rcode: NOTAUTH,
        tsigError: TSIG_ERROR.BADKEY,
        ede: EDE_PROHIBITED,
        macBytes: 0,
      });
    }
    expect(zoneLines(sandbox)).toEqual(before);
    await stillAnswers();
  });

  it('applies a signed update once: the same bytes sent again (UDP or TCP, within the fudge) get the first answer and change nothing', async () => {
    const add = signed(updateMessage({ id: 4001, updates: [addA('replay.example.com', '192.0.2.41')] }), admin());
    const first = await udpExchange(gw.port, add, 10_000);
    expect(outcome(first).rcode).toBe(0);
    expect(zoneLines(sandbox, 'replay.example.com')).toEqual(['replay.example.com A 192.0.2.41']);
    // The owner removes it; a replay of the add must not bring it back.
    const remove = signed(
      updateMessage({ id: 4002, updates: [rr('replay.example.com', TYPE.A, CLASS.ANY, 0)] }),
      admin(),
    );
    expect(outcome(await udpExchange(gw.port, remove, 10_000)).rcode).toBe(0);
    expect(zoneLines(sandbox, 'replay.example.com')).toEqual([]);
    const creates = sandbox.calls.get('service/dnscreate') ?? 0;
    const again = outcome(await udpExchange(gw.port, add, 10_000));
    const overTcp = outcome((await tcpExchange(gw.port, [add], 1, 10_000))[0]!);
    // A retransmission (its answer was lost) learns what happened to the original.
    for (const o of [again, overTcp]) expect(o).toMatchObject({ id: 4001, rcode: 0 });
    expect(zoneLines(sandbox, 'replay.example.com')).toEqual([]);
    expect(sandbox.calls.get('service/dnscreate') ?? 0).toBe(creates);
    await stillAnswers();
  });
});

describe('UPDATE messages that are not well formed (RFC 2136 section 3): FORMERR, with an EDE when the request has EDNS', () => {
  const loopAt = (head: Buffer) => {
    const pointer = Buffer.alloc(2);
    pointer.writeUInt16BE(0xc000 | head.length);
    return pointer;
  };
  // [title, message, answer code, whether its OPT can be reached (then the answer has an EDE)]
  const cases: [string, () => Buffer, number, boolean?][] = [
    [
      'a message cut off inside its TSIG (the counts say more than there is)',
      () => {
        const whole = signed(updateMessage({ updates: [addA('lie.example.com')], edns: 1232 }), admin());
        return whole.subarray(0, whole.length - 10);
      },
      FORMERR,
    ],
    [
      'an update count that lies (says 3, carries 1)',
      () => signed(updateMessage({ updates: [addA('lie.example.com')], edns: 1232, counts: [1, 0, 3, 1] }), admin()),
      FORMERR,
    ],
    [
      "a compression loop in an update's owner (nothing after it can be read: no EDE)",
      () => {
        const head = updateMessage({ updates: [] });
        const packet = Buffer.concat([
          head,
          loopAt(head),
          Buffer.from([0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 192, 0, 2, 1]),
          optRecord({ udpSize: 1232 }),
        ]);
        packet.writeUInt16BE(1, 8);
        packet.writeUInt16BE(1, 10);
        return packet;
      },
      FORMERR,
      false,
    ],
    [
      "a compression loop in a CNAME's data",
      () => {
        const head = updateMessage({ updates: [] });
        const owner = Buffer.concat([Buffer.from([3]), Buffer.from('www'), Buffer.from([0xc0, 12])]);
        const fixed = Buffer.from([0, TYPE.CNAME, 0, 1, 0, 0, 0, 60, 0, 2]);
        const dataAt = head.length + owner.length + fixed.length;
        const data = Buffer.alloc(2);
        data.writeUInt16BE(0xc000 | dataAt);
        const packet = Buffer.concat([head, owner, fixed, data, optRecord({ udpSize: 1232 })]);
        packet.writeUInt16BE(1, 8);
        packet.writeUInt16BE(1, 10);
        return signed(packet, admin());
      },
      FORMERR,
    ],
    [
      'two zones in the zone section',
      () =>
        signed(
          updateMessage({
            zones: [question('example.com', TYPE.SOA, CLASS.IN), question('example.com', TYPE.SOA, CLASS.IN)],
            updates: [addA('two.example.com')],
            edns: 1232,
          }),
          admin(),
        ),
      FORMERR,
    ],
    [
      'no zone at all',
      () => signed(updateMessage({ zones: [], updates: [addA('none.example.com')], edns: 1232 }), admin()),
      FORMERR,
    ],
    [
      'a zone of type A, not SOA',
      () => signed(updateMessage({ zoneType: TYPE.A, updates: [addA('ztype.example.com')], edns: 1232 }), admin()),
      FORMERR,
    ],
    [
      'an update of class ANY with data',
      () =>
        signed(
          updateMessage({ updates: [rr('anydata.example.com', TYPE.A, CLASS.ANY, 0, aData('192.0.2.1'))], edns: 1232 }),
          admin(),
        ),
      FORMERR,
    ],
    [
      'a prerequisite of class NONE with a TTL',
      () =>
        signed(
          updateMessage({
            prerequisites: [rr('pre.example.com', TYPE.A, CLASS.NONE, 300)],
            updates: [addA('pre.example.com')],
            edns: 1232,
          }),
          admin(),
        ),
      FORMERR,
    ],
    [
      'a TXT update whose string runs past its data',
      () =>
        signed(
          updateMessage({
            updates: [
              rr('txt.example.com', TYPE.TXT, CLASS.IN, 60, Buffer.concat([txtData('ok'), Buffer.from([9, 65])])),
            ],
            edns: 1232,
          }),
          admin(),
        ),
      FORMERR,
    ],
    // RFC 2136 3.1.1: a zone this server is not authoritative for, in any class, is NOTAUTH.
    [
      'a zone of class CH (NOTAUTH: not a zone served here)',
      () =>
        signed(
          updateMessage({
            zoneClass: CLASS.CH,
            updates: [rr('ch.example.com', TYPE.A, CLASS.CH, 60, aData('192.0.2.1'))],
            edns: 1232,
          }),
          admin(),
        ),
      NOTAUTH,
    ],
  ];
  for (const [title, build, rcode, withEde = true] of cases) {
    it(title, async () => {
      const before = zoneLines(sandbox);
      const bytes = build();
      for (const answer of [
        await udpExchange(gw.port, bytes, 10_000),
        (await tcpExchange(gw.port, [bytes], 1, 10_000))[0]!,
      ]) {
        const o = outcome(answer);
        expect(o.rcode).toBe(rcode);
        expect(o.id).toBe(bytes.readUInt16BE(0));
        if (withEde) expect(o.ede, `an EDE in ${title}`).toBeDefined();
      }
      expect(zoneLines(sandbox)).toEqual(before);
      await stillAnswers();
    });
  }
});

describe('zone transfers', () => {
  const axfr = (edns = true) => {
    const query = queryPacket({ id: 90, name: 'example.com', type: TYPE.AXFR, ...(edns ? { edns: 1232 } : {}) });
    return query;
  };
  const now = () => Math.floor(Date.now() / 1000);

  it('refuses AXFR over TCP without a key allowed to transfer (unsigned, or signed by an update key), with an EDE', async () => {
    const unsigned = outcome((await tcpExchange(gw.port, [axfr()]))[0]!);
    expect(unsigned).toMatchObject({ rcode: REFUSED, ede: EDE_PROHIBITED });
    const byAdmin = outcome(
      (await tcpExchange(gw.port, [signMessage(axfr(), admin(), undefined, { timeSigned: now() }).message]))[0]!,
    );
    expect(byAdmin).toMatchObject({ rcode: REFUSED, ede: EDE_PROHIBITED, tsigError: 0 });
    await stillAnswers();
  });

  it('refuses AXFR over UDP even to the transfer key, with an EDE, and sends no records', async () => {
    const answer = await udpExchange(
      gw.port,
      signMessage(axfr(), gw.keys.get('xfr')!, undefined, { timeSigned: now() }).message,
    );
    expect(outcome(answer)).toMatchObject({ rcode: REFUSED, ede: EDE_NOT_SUPPORTED });
    expect(readAnswer(answer).answers).toEqual([]);
    // Over TCP the same key gets the zone.
    const [first] = await tcpExchange(gw.port, [
      signMessage(axfr(), gw.keys.get('xfr')!, undefined, { timeSigned: now() }).message,
    ]);
    expect(readAnswer(first!).answers[0]?.type).toBe('SOA');
    await stillAnswers();
  });
});

describe('a TCP peer sending one byte a second', () => {
  it('does not keep updates (UDP and TCP) or queries of other clients waiting', async () => {
    const drips: net.Socket[] = [];
    const timers: NodeJS.Timeout[] = [];
    const connected: Promise<void>[] = [];
    for (let i = 0; i < 20; i++) {
      const s = net.connect(gw.port, '127.0.0.1');
      s.on('error', () => undefined);
      // A message that announces 200 bytes and brings one a second.
      connected.push(
        new Promise((resolve) => s.on('connect', () => s.write(Buffer.from([0, 200, 0x01]), () => resolve()))),
      );
      timers.push(setInterval(() => s.writable && s.write(Buffer.from([0x01])), 1000));
      drips.push(s);
    }
    try {
      // Every drip has begun its message before the others are sent.
      await Promise.all(connected);
      for (let i = 0; i < 3; i++) {
        const viaTcp = signed(
          updateMessage({ id: 500 + i, updates: [addA(`drip${i}.example.com`, `192.0.2.${10 + i}`)] }),
          admin(),
        );
        expect(outcome((await tcpExchange(gw.port, [viaTcp], 1, 10_000))[0]!).rcode).toBe(0);
        const viaUdp = signed(
          updateMessage({ id: 600 + i, updates: [addA(`dripu${i}.example.com`, `192.0.2.${20 + i}`)] }),
          admin(),
        );
        expect(outcome(await udpExchange(gw.port, viaUdp, 10_000)).rcode).toBe(0);
        await stillAnswers();
      }
      expect(zoneLines(sandbox, '.example.com').filter((l) => l.startsWith('drip'))).toHaveLength(6);
    } finally {
      timers.forEach(clearInterval);
      for (const s of drips) s.destroy();
    }
  });
});
