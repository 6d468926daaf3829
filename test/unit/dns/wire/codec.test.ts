import { describe, expect, it } from 'vitest';
import { DnsError } from '../../../../src/dns/wire/errors.js';
import { decodeMessage, encodeMessage } from '../../../../src/dns/wire/message.js';
import { splitTxt } from '../../../../src/dns/wire/txt-strings.js';
import { nameKey, nameToLabels, readName } from '../../../../src/dns/wire/names.js';
import type { DnsRecord } from '../../../../src/dns/wire/types.js';

const RECORDS: DnsRecord[] = [
  { name: 'example.com', type: 'A', ttl: 300, value: '192.0.2.10' },
  { name: 'example.com', type: 'AAAA', ttl: 300, value: '2001:db8::1' },
  { name: 'www.example.com', type: 'CNAME', ttl: 60, value: 'example.com' },
  { name: 'example.com', type: 'NS', ttl: 3600, value: 'ns1.example.com' },
  {
    name: 'example.com',
    type: 'SOA',
    ttl: 3600,
    value: {
      mname: 'ns1.example.com',
      rname: 'hostmaster.example.com',
      serial: 2026112201,
      refresh: 7200,
      retry: 900,
      expire: 1209600,
      minimum: 60,
    },
  },
  { name: 'example.com', type: 'MX', ttl: 300, value: { preference: 10, exchange: 'mail.example.com' } },
  { name: '_acme-challenge.example.com', type: 'TXT', ttl: 60, value: ['v=spf1 mx -all', '', 'año ✓'] },
  {
    name: '_sip._tcp.example.com',
    type: 'SRV',
    ttl: 300,
    value: { priority: 10, weight: 5, port: 5060, target: 'sip.example.com' },
  },
  { name: 'example.com', type: 'CAA', ttl: 300, value: { flags: 0, tag: 'issue', value: 'letsencrypt.org' } },
  { name: '1.2.0.192.in-addr.arpa', type: 'PTR', ttl: 300, value: 'host.example.com' },
  { name: 'example.com', type: 'TYPE65', ttl: 300, value: '0001000001' },
];

const question = { name: 'example.com', type: 255, class: 1 };

/** A header with the given counts and then `body`. */
function packet(counts: [number, number, number, number], body: number[], id = 0x1234, flags = 0x8400): Buffer {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(id, 0);
  header.writeUInt16BE(flags, 2);
  counts.forEach((c, i) => {
    header.writeUInt16BE(c, 4 + i * 2);
  });
  return Buffer.concat([header, Buffer.from(body)]);
}
const malformed = (bytes: Buffer, pattern: RegExp) => {
  let thrown: unknown;
  try {
    decodeMessage(bytes);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(DnsError);
  expect((thrown as DnsError).kind).toBe('malformed');
  expect((thrown as DnsError).exitCode).toBe(4);
  expect((thrown as Error).message).toMatch(pattern);
};

describe('DNS wire codec', () => {
  it('round-trips every record type, header bit and section', () => {
    const bytes = encodeMessage({
      id: 0xbeef,
      response: true,
      authoritative: true,
      recursionDesired: true,
      rcode: 3,
      questions: [question],
      answers: RECORDS.slice(0, 6),
      authority: RECORDS.slice(6, 9),
      additional: RECORDS.slice(9),
      ednsUdpSize: 1232,
    });
    const message = decodeMessage(bytes);
    expect(message).toMatchObject({
      id: 0xbeef,
      response: true,
      authoritative: true,
      truncated: false,
      recursionDesired: true,
      recursionAvailable: false,
      rcode: 3,
      opcode: 0,
      ednsUdpSize: 1232,
    });
    expect(message.questions).toEqual([question]);
    expect(message.answers).toEqual(RECORDS.slice(0, 6));
    expect(message.authority).toEqual(RECORDS.slice(6, 9));
    expect(message.additional.slice(0, 2)).toEqual(RECORDS.slice(9));
    expect(message.additional[2]).toMatchObject({ name: '', type: 'OPT' });
  });

  it('compresses repeated names and reads the pointers back', () => {
    const records: DnsRecord[] = Array.from({ length: 10 }, (_, i) => ({
      name: `host${i}.example.com`,
      type: 'CNAME',
      ttl: 1,
      value: 'target.example.com',
    }));
    const bytes = encodeMessage({
      id: 1,
      response: true,
      questions: [{ name: 'example.com', type: 5, class: 1 }],
      answers: records,
    });
    // Each owner after the first is `hostN` + a 2-byte pointer; each target a 2-byte pointer after the first.
    expect(bytes.length).toBeLessThan(12 + 17 + 10 * (7 + 2 + 10) + 10 * 2 + 10);
    expect(decodeMessage(bytes).answers).toEqual(records);
  });

  it('writes and reads names with escaped characters, and compares names without case', () => {
    const name = 'we\\.ird\\032label.Example.COM';
    const bytes = encodeMessage({ id: 7, questions: [{ name, type: 1, class: 1 }] });
    expect(decodeMessage(bytes).questions[0]!.name).toBe(name);
    expect(nameToLabels(name)[0]!.toString('latin1')).toBe('we.ird label');
    expect(nameKey('WWW.Example.com.')).toBe('www.example.com');
    expect(() => nameToLabels(`${'a'.repeat(64)}.com`)).toThrow(/longer than 63/);
    expect(() => nameToLabels('a..com')).toThrow(/empty label/);
    expect(() => nameToLabels(Array(130).fill('ab').join('.'))).toThrow(/longer than 255/);
  });

  it('splits a long text at 255 bytes without cutting a character', () => {
    expect(splitTxt('x'.repeat(600)).map((s) => s.length)).toEqual([255, 255, 90]);
    const accents = 'é'.repeat(200); // 2 bytes each
    const parts = splitTxt(accents);
    expect(parts.map((p) => Buffer.byteLength(p))).toEqual([254, 146]);
    expect(parts.join('')).toBe(accents);
    expect(splitTxt('')).toEqual(['']);
  });

  it('refuses a message shorter than a header', () => {
    malformed(Buffer.from([0x12, 0x34, 0x84]), /shorter than a DNS header/);
  });

  it('refuses section counts larger than the packet', () => {
    malformed(packet([1, 5000, 0, 0], [0, 0, 1, 0, 1]), /section counts \(1\/5000\/0\/0\) are larger/);
  });

  it('refuses a compression loop and a forward pointer', () => {
    // The question's name is a pointer to itself (offset 12).
    malformed(packet([1, 0, 0, 0], [0xc0, 12, 0, 1, 0, 1]), /does not point backwards/);
    // Two pointers pointing at each other: the second points forward again.
    malformed(packet([1, 0, 0, 0], [1, 0x61, 0xc0, 16, 0, 1, 0, 1, 0xc0, 12]), /does not point backwards/);
    expect(() => readName(Buffer.from([0xc0, 0]), 0)).toThrow(/does not point backwards/);
  });

  it('refuses names, records and record data that run past the message', () => {
    malformed(packet([1, 0, 0, 0], [7, 0x65, 0x78, 0x61, 0x6d, 0x70]), /runs past the end/);
    malformed(packet([1, 0, 0, 0], [1, 0x61, 0, 0, 1]), /question is cut off/);
    const good = encodeMessage({ id: 1, response: true, questions: [question], answers: [RECORDS[0]!] });
    for (const cut of [1, 3, 8]) malformed(good.subarray(0, good.length - cut), /cut off|runs past|larger than/);
    // An A record claiming 5 bytes of data.
    const wrongLength = Buffer.from(good);
    wrongLength.writeUInt16BE(5, good.length - 6);
    malformed(Buffer.concat([wrongLength, Buffer.from([0])]), /4|bytes of data/);
    // A TXT string longer than its record.
    malformed(packet([0, 1, 0, 0], [0, 0, 16, 0, 1, 0, 0, 0, 1, 0, 3, 5, 0x61, 0x62]), /TXT string runs past/);
    // An unknown label type (0x40).
    malformed(packet([1, 0, 0, 0], [0x41, 0, 0, 1, 0, 1]), /unknown label type/);
  });
});
