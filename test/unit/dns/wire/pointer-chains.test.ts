// A name may follow only as many compression pointers as a name can have labels: a chain of
// thousands of backward pointers is a malformed message (FORMERR), not one to walk for each of
// the records that point at its end (the cost was pointers × records per parse).
import { describe, expect, it } from 'vitest';
import { DnsError } from '../../../../src/dns/wire/errors.js';
import { decodeMessage } from '../../../../src/dns/wire/message.js';
import { readName } from '../../../../src/dns/wire/names.js';
import { readUpdate } from '../../../../src/gateway/update/message.js';

/** `count` pointers from `at`: the first points at a root label at `at`, each next one at the one before. */
function pointerChain(at: number, count: number): Buffer {
  const chain = Buffer.alloc(1 + 2 * count);
  for (let k = 0; k < count; k++) chain.writeUInt16BE(0xc000 | (k === 0 ? at : at + 1 + 2 * (k - 1)), 1 + 2 * k);
  return chain;
}

/** An UPDATE whose first record's opaque data is a chain of `hops` pointers and whose `records` further records are named by its end. */
function chainedUpdate(hops: number, records: number): Buffer {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(0x4242, 0);
  header.writeUInt16BE(5 << 11, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(records + 1, 8);
  const zone = Buffer.from([0, 0, 6, 0, 1]);
  const head = Buffer.alloc(11);
  head.writeUInt16BE(65280, 1);
  head.writeUInt16BE(1, 3);
  head.writeUInt16BE(1 + 2 * hops, 9);
  const start = 12 + zone.length + head.length;
  const chain = pointerChain(start, hops);
  const end = start + 1 + 2 * (hops - 1);
  const record = Buffer.alloc(12);
  record.writeUInt16BE(0xc000 | end, 0);
  record.writeUInt16BE(65280, 2);
  record.writeUInt16BE(1, 4);
  return Buffer.concat([header, zone, head, chain, ...Array.from({ length: records }, () => record)]);
}

const refusedAsMalformed = (read: () => unknown) => {
  let thrown: unknown;
  try {
    read();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(DnsError);
  expect((thrown as DnsError).kind).toBe('malformed');
  expect((thrown as Error).message).toMatch(/more than 128 compression pointers/);
};

describe('compression pointer chains', () => {
  it('refuses a name reached through a chain of 16,000 pointers', () => {
    const packet = chainedUpdate(16000, 1);
    refusedAsMalformed(() => readName(packet, packet.length - 12));
    refusedAsMalformed(() => readUpdate(packet));
  });

  it('refuses the attack message (16,000 pointers, 2,700 records named by them) as a malformed UPDATE', () => {
    refusedAsMalformed(() => readUpdate(chainedUpdate(16000, 2700)));
  });

  it('refuses a chain one pointer longer than 128 and reads one of 128', () => {
    const at = 12;
    const tooLong = Buffer.concat([Buffer.alloc(12), pointerChain(at, 129)]);
    refusedAsMalformed(() => readName(tooLong, tooLong.length - 2));
    const longest = Buffer.concat([Buffer.alloc(12), pointerChain(at, 128)]);
    expect(readName(longest, longest.length - 2)).toEqual({ name: '', next: longest.length });
  });

  it('still reads a name of 127 labels, each and its root label reached through a pointer of its own (128)', () => {
    // Labels written from the last to the first, each followed by a pointer to the one written before it.
    const parts: Buffer[] = [Buffer.alloc(12), Buffer.from([0])];
    let previous = 12;
    let at = 13;
    for (let i = 0; i < 127; i++) {
      const label = Buffer.from([1, 0x61, 0xc0 | (previous >> 8), previous & 0xff]);
      parts.push(label);
      previous = at;
      at += label.length;
    }
    const packet = Buffer.concat([...parts, Buffer.from([0xc0 | (previous >> 8), previous & 0xff])]);
    expect(readName(packet, packet.length - 2).name).toBe(Array(127).fill('a').join('.'));
  });

  it('refuses the same chain in a message read as a query (the sandbox name server shares the reader)', () => {
    refusedAsMalformed(() => decodeMessage(chainedUpdate(500, 1)));
  });
});
