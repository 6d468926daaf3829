// An UPDATE's head (head.ts) and its records (message.ts), read from bytes: the counts, the zone
// section, whether an OPT record is in the additional section (and only there), each record's
// class, TTL and data kept; and every framing that cannot be read refused (FORMERR) with its reason.
import { describe, expect, it } from 'vitest';
import { DnsWireError } from '../../../../src/dns/wire/errors.js';
import { readUpdateHead } from '../../../../src/gateway/update/head.js';
import { readUpdate } from '../../../../src/gateway/update/message.js';
import { aData, CLASS, question, rr, TYPE, txtData, updateMessage } from '../../../helpers/update-wire.js';

const add = rr('a.example.com', TYPE.A, CLASS.IN, 300, aData('192.0.2.1'));
const prerequisite = rr('a.example.com', TYPE.A, CLASS.NONE, 0);

describe("an UPDATE's head", () => {
  it('holds its ID, zone, counts, and whether the additional section carries an OPT', () => {
    const packet = updateMessage({ id: 7, zone: 'Example.COM', prerequisites: [prerequisite], updates: [add, add] });
    expect(readUpdateHead(packet)).toEqual({
      id: 7,
      zone: { name: 'example.com', type: TYPE.SOA, class: CLASS.IN },
      prerequisites: 1,
      updates: 2,
      edns: false,
    });
    expect(readUpdateHead(updateMessage({ updates: [add], edns: 1232 })).edns).toBe(true);
    // An OPT among the prerequisites or updates is not the client's EDNS.
    const optAsUpdate = rr('', TYPE.OPT, 1232, 0);
    expect(readUpdateHead(updateMessage({ updates: [add, optAsUpdate] })).edns).toBe(false);
    expect(readUpdateHead(updateMessage({ prerequisites: [optAsUpdate] })).edns).toBe(false);
    // After other additional records.
    const extra = rr('x.example.com', TYPE.TXT, CLASS.IN, 0, txtData('x'));
    expect(readUpdateHead(updateMessage({ updates: [add], additional: [extra], edns: 512 })).edns).toBe(true);
  });

  it.each([
    ['shorter than a header', Buffer.alloc(11), 'a 11-byte message is shorter than a DNS header'],
    [
      'of two zones',
      updateMessage({ zones: [question('example.com', 6, 1), question('example.org', 6, 1)] }),
      'an UPDATE names exactly one zone, not 2',
    ],
    ['of no zone', updateMessage({ zones: [] }), 'an UPDATE names exactly one zone, not 0'],
    ['with its zone section cut off', updateMessage({}).subarray(0, 12 + 13 + 3), 'the zone section is cut off'],
    ['with a record cut off', updateMessage({ updates: [add] }).subarray(0, 12 + 17 + 15 + 9), 'a record is cut off'],
    [
      'with data past the end',
      updateMessage({ updates: [add] }).subarray(0, 12 + 17 + 15 + 13),
      'a record runs past the end of the message',
    ],
    ['with more records counted than sent', updateMessage({ updates: [add], counts: [1, 0, 2, 0] }), /./],
  ])('is refused %s', (_, packet, why) => {
    expect(() => readUpdateHead(packet)).toThrow(DnsWireError);
    expect(() => readUpdateHead(packet)).toThrow(why);
  });

  it('is read exactly at its end', () => {
    const packet = updateMessage({ updates: [add] });
    expect(readUpdateHead(packet).updates).toBe(1);
    expect(() => readUpdateHead(packet.subarray(0, packet.length - 1))).toThrow(DnsWireError);
  });
});

describe("an UPDATE's records", () => {
  it("keep each record's class and TTL, with the data when there is any", () => {
    const message = readUpdate(
      updateMessage({
        id: 9,
        prerequisites: [prerequisite],
        updates: [add, rr('b.example.com', TYPE.ANY, CLASS.ANY, 0)],
        edns: 1232,
      }),
    );
    expect(message).toEqual({
      id: 9,
      zone: { name: 'example.com', type: TYPE.SOA, class: CLASS.IN },
      prerequisites: [{ name: 'a.example.com', type: TYPE.A, class: CLASS.NONE, ttl: 0 }],
      updates: [
        {
          name: 'a.example.com',
          type: TYPE.A,
          class: CLASS.IN,
          ttl: 300,
          data: { name: 'a.example.com', type: 'A', ttl: 300, value: '192.0.2.1' },
        },
        { name: 'b.example.com', type: TYPE.ANY, class: CLASS.ANY, ttl: 0 },
      ],
      edns: true,
    });
    expect(readUpdate(updateMessage({ updates: [add] })).edns).toBe(false);
  });

  it('mark text that is not UTF-8, and only such text', () => {
    const bytes = readUpdate(
      updateMessage({ updates: [rr('t.example.com', TYPE.TXT, CLASS.IN, 60, Buffer.from([2, 0x61, 0xe9]))] }),
    );
    expect(bytes.updates[0]?.notUtf8).toEqual(expect.any(String));
    const text = readUpdate(updateMessage({ updates: [rr('t.example.com', TYPE.TXT, CLASS.IN, 60, txtData('ok'))] }));
    expect(text.updates[0]).not.toHaveProperty('notUtf8');
  });
});
