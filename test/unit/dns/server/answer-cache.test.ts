// The answers' cache in front of the sandbox's name server (src/dns/server/answer-cache.ts): a repeated
// question costs no zone lookup, yet every answer is the one the responder would give now: a
// change to the model is seen by the next question, the ID and the question's case are the
// asker's, and what depends on more than the question's bytes (cookies, TSIG, updates) is never
// taken from it. Over real UDP where the server is involved.
import { afterEach, describe, expect, it } from 'vitest';
import { AnswerCache, isCacheable } from '../../../../src/dns/server/answer-cache.js';
import { decodeMessage, encodeMessage } from '../../../../src/dns/wire/message.js';
import { atOrBelow } from '../../../../src/lib/names.js';
import { appendAdditional } from '../../../../src/dns/wire/edns.js';
import type { QueryContext } from '../../../../src/dns/server/responder.js';
import { demoModel } from '../../../../src/sandbox/model.js';
import { startNameServer, type NameServer } from '../../../../src/sandbox/dns/name-server.js';
import { queryPacket, udpExchange } from '../../../helpers/dns-wire.js';

const UDP: QueryContext = { transport: 'udp', address: '127.0.0.1' };
let server: NameServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A responder that counts its calls and answers with the question echoed and a counter in the ID's place. */
function countingResponder() {
  const calls = { n: 0 };
  const respond = (packet: Buffer) => {
    calls.n++;
    const answer = Buffer.from(packet);
    answer[2] = 0x84;
    return answer;
  };
  return { calls, respond };
}

describe('the answers cache', () => {
  it('answers a repeated question from the cache, with the asker ID', () => {
    const { calls, respond } = countingResponder();
    const cached = new AnswerCache(() => 0).wrap(respond);
    const first = cached(queryPacket({ id: 1, name: 'home.example.com', type: 1 }), UDP)!;
    const second = cached(queryPacket({ id: 0xbeef, name: 'home.example.com', type: 1 }), UDP)!;
    expect(calls.n).toBe(1);
    expect(second.readUInt16BE(0)).toBe(0xbeef);
    expect(second.subarray(2)).toEqual(first.subarray(2));
    // The cached bytes are not the ones handed out: changing an answer does not change the next.
    second[5] = 99;
    expect(cached(queryPacket({ id: 2, name: 'home.example.com', type: 1 }), UDP)![5]).not.toBe(99);
  });

  it('drops everything when the version moves', () => {
    const { calls, respond } = countingResponder();
    let version = 0;
    const cached = new AnswerCache(() => version).wrap(respond);
    cached(queryPacket({ name: 'home.example.com', type: 1 }), UDP);
    version++;
    cached(queryPacket({ name: 'home.example.com', type: 1 }), UDP);
    expect(calls.n).toBe(2);
  });

  it('keeps questions apart by case, type, transport and EDNS size', () => {
    const { calls, respond } = countingResponder();
    const cached = new AnswerCache(() => 0).wrap(respond);
    cached(queryPacket({ name: 'home.example.com', type: 1 }), UDP);
    cached(queryPacket({ name: 'HOME.example.com', type: 1 }), UDP);
    cached(queryPacket({ name: 'home.example.com', type: 28 }), UDP);
    cached(queryPacket({ name: 'home.example.com', type: 1 }), { transport: 'tcp', address: '127.0.0.1' });
    cached(queryPacket({ name: 'home.example.com', type: 1, edns: 1232 }), UDP);
    cached(queryPacket({ name: 'home.example.com', type: 1, edns: 4096 }), UDP);
    expect(calls.n).toBe(6);
  });

  it('holds at most 4,096 answers', () => {
    const { respond } = countingResponder();
    const cache = new AnswerCache(() => 0);
    const cached = cache.wrap(respond);
    for (let i = 0; i < 5000; i++) cached(queryPacket({ name: `h${i}.example.com`, type: 1 }), UDP);
    expect(cache.size).toBe(4096);
  });

  it('never caches what depends on more than the question: cookies, TSIG, updates, odd shapes', () => {
    const plain = queryPacket({ name: 'home.example.com', type: 1 });
    expect(isCacheable(plain)).toBe(true);
    expect(isCacheable(queryPacket({ name: 'home.example.com', type: 1, edns: 1232 }))).toBe(true);
    expect(
      isCacheable(queryPacket({ name: 'home.example.com', type: 1, edns: 1232, cookie: Buffer.alloc(8, 7) })),
    ).toBe(false);
    // A record after the question that is not an empty OPT (here: a TXT where a TSIG would be).
    const other = appendAdditional(
      plain,
      encodeMessage({ id: 0, questions: [], additional: [{ name: 'k', type: 'TXT', ttl: 0, value: ['x'] }] }).subarray(
        12,
      ),
    );
    expect(isCacheable(other)).toBe(false);
    const update = Buffer.from(plain);
    update[2] = 5 << 3;
    expect(isCacheable(update)).toBe(false);
    const response = Buffer.from(plain);
    response[2] = 0x80;
    expect(isCacheable(response)).toBe(false);
    expect(
      isCacheable(
        encodeMessage({
          id: 1,
          questions: [
            { name: 'a.example.com', type: 1, class: 1 },
            { name: 'b.example.com', type: 1, class: 1 },
          ],
        }),
      ),
    ).toBe(false);
    expect(isCacheable(Buffer.concat([plain, Buffer.from([0])]))).toBe(false);
    expect(isCacheable(plain.subarray(0, plain.length - 1))).toBe(false);
    // A compression pointer in the question.
    expect(isCacheable(Buffer.concat([plain.subarray(0, 12), Buffer.from([0xc0, 0x0c, 0, 1, 0, 1])]))).toBe(false);
  });

  it('does not keep an answer given with room reserved for a signature', () => {
    const { calls, respond } = countingResponder();
    const cached = new AnswerCache(() => 0).wrap(respond);
    for (let i = 0; i < 2; i++) cached(queryPacket({ name: 'home.example.com', type: 1 }), { ...UDP, reserve: 100 });
    expect(calls.n).toBe(2);
  });
});

describe('the sandbox name server with its answers cache', () => {
  it('answers a change to the model at the next question, and echoes the asker case', async () => {
    const model = demoModel();
    server = await startNameServer({ model, host: '127.0.0.1', port: 0 });
    const ask = async (name: string) => decodeMessage(await udpExchange(server!.port, queryPacket({ name, type: 1 })));
    expect((await ask('home.example.com')).answers[0]!.value).toBe('192.0.2.20');
    expect((await ask('home.example.com')).answers[0]!.value).toBe('192.0.2.20');
    model.services[0]!.dns.find((e) => e.name === 'home.example.com')!.value = '192.0.2.21';
    expect((await ask('home.example.com')).answers[0]!.value).toBe('192.0.2.21');
    const mixed = await ask('HoMe.ExAmPlE.cOm');
    expect(mixed.questions[0]!.name).toBe('HoMe.ExAmPlE.cOm');
    expect(mixed.answers[0]!.value).toBe('192.0.2.21');
    model.services[0]!.dns.push({
      ...model.services[0]!.dns[0]!,
      entityID: '77',
      name: 'new.example.com',
      value: '192.0.2.77',
    });
    expect((await ask('new.example.com')).answers[0]!.value).toBe('192.0.2.77');
  });

  it('does not answer for a name whose label holds a dot (x\\.example.com lies in com, not example.com)', async () => {
    server = await startNameServer({ model: demoModel(), host: '127.0.0.1', port: 0 });
    for (const name of ['x\\.example.com', '_acme-challenge.www\\.example.com']) {
      const answer = decodeMessage(await udpExchange(server.port, queryPacket({ name, type: 16 })));
      expect([name, answer.rcode, answer.authoritative]).toEqual([name, 5, false]);
    }
    // An escaped backslash before the dot leaves the dot a label's end: in the zone.
    expect(atOrBelow('a\\\\.example.com', 'example.com')).toBe(true);
    expect(atOrBelow('a\\.example.com', 'example.com')).toBe(false);
    expect(atOrBelow('www.example.com', 'example.com')).toBe(true);
    expect(atOrBelow('wwwexample.com', 'example.com')).toBe(false);
  });

  it('answers a cookie each time afresh (the server cookie names the client)', async () => {
    server = await startNameServer({ model: demoModel(), host: '127.0.0.1', port: 0 });
    const packet = queryPacket({ name: 'home.example.com', type: 1, edns: 1232, cookie: Buffer.alloc(8, 3) });
    const first = await udpExchange(server.port, packet);
    const second = await udpExchange(
      server.port,
      queryPacket({ name: 'home.example.com', type: 1, edns: 1232, cookie: Buffer.alloc(8, 4) }),
    );
    expect(first.subarray(first.length - 24)).not.toEqual(second.subarray(second.length - 24));
  });
});

describe('EDNS that breaks RFC 6891', () => {
  it('answers FORMERR to two OPT records, or one not at the root', async () => {
    server = await startNameServer({ model: demoModel(), host: '127.0.0.1', port: 0 });
    const opt = (owner: number[]) => Buffer.from([...owner, 0, 41, 4, 0xd0, 0, 0, 0, 0, 0, 0]);
    const withAdditional = (records: Buffer[]) => {
      const packet = Buffer.concat([queryPacket({ name: 'home.example.com', type: 1 }), ...records]);
      packet.writeUInt16BE(records.length, 10);
      return packet;
    };
    const rcode = async (packet: Buffer) => (await udpExchange(server!.port, packet)).readUInt16BE(2) & 0xf;
    expect(await rcode(withAdditional([opt([0])]))).toBe(0);
    expect(await rcode(withAdditional([opt([0]), opt([0])]))).toBe(1);
    expect(await rcode(withAdditional([opt([1, 0x61, 0])]))).toBe(1);
  });
});
