// The gateway on the largest DHCID file it lets a key granted DHCID make (an attack once grew
// the file past what a restart reads, and the gateway did not start): it starts on it, answers a
// DHCID query at a name of the bound (8 records of the longest data at the longest owner) over
// TCP, and with TC over UDP, and refuses one more record with REFUSED and an Extended DNS Error.
import dgram from 'node:dgram';
import { statSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeMessage, encodeMessage } from '../../../../src/dns/wire/message.js';
import { signMessage } from '../../../../src/dns/wire/tsig.js';
import {
  DhcidStore,
  dhcidStorePath,
  MAX_DHCID_PER_NAME,
  MAX_FILE_BYTES,
  MAX_RECORD_BYTES,
  recordBytes,
  type DhcidRecord,
} from '../../../../src/gateway/dhcid/store.js';
import { tempDir } from '../../../helpers/cli.js';
import { useGateway } from '../../../helpers/use-gateway.js';
import { useSandbox } from '../../../helpers/use-sandbox.js';

const ZONE = 'example.com';
const bigData = (i: number) => `0002${i.toString(16).padStart(8, '0')}${'ab'.repeat(255 - 6)}`;
/** An owner of 252 wire bytes, every byte one a name writes as \DDD. */
const longOwner = (i: number) =>
  `${String(i).padStart(6, '0')}${'\\001'.repeat(35)}.${'\\001'.repeat(63)}.${'\\001'.repeat(63)}.${'\\001'.repeat(63)}.dhcp.example.com`;
const record = (owner: number, i: number): DhcidRecord => ({ name: longOwner(owner), ttl: 300, data: bigData(i) });
/** A host name, as every name an update brings must be. */
const plainOwner = (i: number) => `p${String(i).padStart(7, '0')}.dhcp.example.com`;
const plainRecord = (i: number): DhcidRecord => ({ name: plainOwner(i), ttl: 300, data: bigData(i) });

const sandbox = useSandbox({ per: 'file' });
const dir = tempDir();

/** Fills the store as far as it goes: every owner at the bound, then single records until the bytes are spent. */
function fillStore(stateDir: string): number {
  const store = DhcidStore.open(stateDir);
  const each = recordBytes(record(0, 0));
  const total = Math.floor(MAX_RECORD_BYTES / each);
  const byName = new Map<string, DhcidRecord[]>();
  for (let n = 0; n < total; n++) {
    const owner = Math.floor(n / MAX_DHCID_PER_NAME);
    byName.set(longOwner(owner), [...(byName.get(longOwner(owner)) ?? []), record(owner, n % MAX_DHCID_PER_NAME)]);
  }
  // The room left filled with records at host names, the only names an update may now bring.
  let left = MAX_RECORD_BYTES - total * each;
  for (let i = 0; left >= recordBytes(plainRecord(i)); i++) {
    byName.set(plainOwner(i), [plainRecord(i)]);
    left -= recordBytes(plainRecord(i));
  }
  store.replace(ZONE, byName);
  // The largest: one record more is refused.
  const more = new Map(byName).set(longOwner(total), [record(total, 0)]);
  expect(() => store.replace(ZONE, more)).toThrow(/bytes of DHCID records/);
  return total;
}

const gateway = useGateway(() => {
  const stateDir = join(dir, 'state');
  const total = fillStore(stateDir);
  expect(total).toBeGreaterThan(7000);
  expect(statSync(dhcidStorePath(stateDir)).size).toBeGreaterThan(MAX_FILE_BYTES * 0.7);
  expect(statSync(dhcidStorePath(stateDir)).size).toBeLessThanOrEqual(MAX_FILE_BYTES);
  return {
    apiUrl: sandbox.url,
    zone: ZONE,
    primaryName: null,
    stateDir,
    keys: [{ name: 'dhcp', rules: ['grant "dhcp" subdomain dhcp.example.com A AAAA DHCID;'] }],
  };
});
afterAll(async () => {
  expect(await gateway.stop()).toBe(0);
});

function udp(message: Buffer): Promise<Buffer> {
  const socket = dgram.createSocket('udp4');
  return new Promise<Buffer>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no UDP answer within 20s')), 20_000);
    socket.on('message', (m) => {
      clearTimeout(timer);
      socket.close();
      resolve(m);
    });
    socket.send(message, gateway.port, '127.0.0.1');
  });
}

function tcp(message: Buffer): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const socket = net.connect(gateway.port, '127.0.0.1');
    let got = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no TCP answer within 20s'));
    }, 20_000);
    socket.on('data', (d) => {
      got = Buffer.concat([got, d]);
      if (got.length >= 2 && got.length >= 2 + got.readUInt16BE(0)) {
        clearTimeout(timer);
        socket.end();
        resolve(got.subarray(2, 2 + got.readUInt16BE(0)));
      }
    });
    socket.on('error', reject);
    const length = Buffer.alloc(2);
    length.writeUInt16BE(message.length);
    socket.write(Buffer.concat([length, message]));
  });
}

describe('the gateway on the largest DHCID file it allows', () => {
  it('started on it, and answers a DHCID query at a full name over TCP, and with TC over UDP', async () => {
    const query = encodeMessage({ id: 7, questions: [{ name: longOwner(0), type: 49, class: 1 }] });
    const overTcp = decodeMessage(await tcp(query));
    expect(overTcp.rcode).toBe(0);
    expect(overTcp.answers).toHaveLength(MAX_DHCID_PER_NAME);
    const overUdp = decodeMessage(await udp(query));
    expect(overUdp.rcode).toBe(0);
    expect(overUdp.truncated).toBe(true);
  });

  it('refuses one more record with REFUSED and an EDE saying the room is spent', async () => {
    // A host name the gateway takes (names with other bytes are refused at the door, before any room is looked at).
    const owner = plainOwner(9_999_999);
    const update = encodeMessage({
      id: 9,
      opcode: 5,
      questions: [{ name: ZONE, type: 6, class: 1 }],
      authority: [{ name: owner, type: 'TYPE49', ttl: 300, value: bigData(0) }],
      ednsUdpSize: 1232,
    });
    const answer = await tcp(
      signMessage(update, gateway.keys.get('dhcp')!, undefined, { timeSigned: Math.floor(Date.now() / 1000) }).message,
    );
    expect(answer.readUInt16BE(2) & 0xf).toBe(5);
    expect(answer.toString('latin1')).toMatch(/no room for these DHCID records/);
  });
});
