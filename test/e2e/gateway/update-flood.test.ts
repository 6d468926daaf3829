// The built gateway keeps answering queries while it is flooded with UPDATE messages of
// thousands of records that no key signed (or that a key it does not know signed): each is
// refused on its header and its signer, before any record is decoded. Count-based: every query
// sent during a bounded flood is answered, each within a wait far longer than an answer takes.
// (Decoding each such message, as the gateway once did, fell seconds behind at this rate.)
import dgram from 'node:dgram';
import { afterAll, expect, it } from 'vitest';
import type { TsigKey } from '../../../src/dns/wire/tsig.js';
import { queryPacket, udpExchange } from '../../helpers/dns-wire.js';
import { useGateway } from '../../helpers/use-gateway.js';
import { useSandbox } from '../../helpers/use-sandbox.js';
import { aData, CLASS, rr, signed, TYPE, updateMessage } from '../../helpers/update-wire.js';

/** Huge updates sent, one every FLOOD_GAP_MS (about 125 Mbit/s of 63 KB messages). */
const FLOOD = 400;
const FLOOD_GAP_MS = 4;
/** A query every QUERY_GAP_MS while the flood lasts, each given QUERY_WAIT_MS for its answer. */
const QUERY_GAP_MS = 20;
const QUERY_WAIT_MS = 1_500;

const sandbox = useSandbox({ per: 'file' });
const gw = useGateway(() => ({
  apiUrl: sandbox.url,
  keys: [{ name: 'admin', rules: ['grant "admin" zonesub;'] }],
}));
afterAll(async () => {
  expect(await gw.stop()).toBe(0);
});

/** 3,900 A adds at the apex, each owner a pointer to the zone's name: about 63 KB. */
function huge(): Buffer {
  const records = Array.from({ length: 3_900 }, (_, i) =>
    Buffer.concat([
      Buffer.from([0xc0, 12]),
      rr('.', TYPE.A, CLASS.IN, 60, aData(`192.0.${i >> 8}.${i & 255}`)).subarray(1),
    ]),
  );
  return updateMessage({ updates: records });
}

it('answers every query during a flood of unsigned and unknown-key updates of thousands of records', {
  timeout: 60_000,
}, async () => {
  const unsigned = huge();
  expect(unsigned.length).toBeGreaterThan(60_000);
  const stranger: TsigKey = { name: 'stranger', algorithm: 'hmac-sha256', secret: Buffer.alloc(32, 7) };
  const flooder = dgram.createSocket('udp4');
  const queries: Promise<boolean>[] = [];
  try {
    let sent = 0;
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        if (sent >= FLOOD) {
          clearInterval(timer);
          resolve();
          return;
        }
        flooder.send(sent % 2 ? signed(unsigned, stranger) : unsigned, gw.port, '127.0.0.1');
        if (sent % Math.round(QUERY_GAP_MS / FLOOD_GAP_MS) === 0) {
          const id = queries.length + 1;
          queries.push(
            udpExchange(gw.port, queryPacket({ id, name: 'example.com', type: TYPE.SOA }), QUERY_WAIT_MS).then(
              (a) => a.readUInt16BE(0) === id,
              () => false,
            ),
          );
        }
        sent++;
      }, FLOOD_GAP_MS);
    });
    const answered = (await Promise.all(queries)).filter(Boolean).length;
    expect(queries.length).toBeGreaterThanOrEqual(80);
    expect(answered).toBe(queries.length);
  } finally {
    flooder.close();
  }
});
