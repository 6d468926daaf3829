// What one key may hold in a zone, through the built gateway: DHCID records in the store every
// key shares (a key once filled it with 50,000 and every other key's Kea add was REFUSED) and
// records it created at the provider (whose plan bounds a zone's entries for all keys at once).
// Past its quota a key's add is REFUSED with an EDE naming the quota; another key is not
// affected; deleting its own records makes room again.
// Updates go over TCP: a datagram of 500 records has no retry, and a loaded machine may take
// longer than any short deadline to apply it; the bound only stops a hang.
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_QUOTA } from '../../../src/gateway/limits/key-quotas.js';
import { HANG_BOUND_MS } from '../../helpers/cli.js';
import { tcpExchange } from '../../helpers/dns-wire.js';
import { useGateway, zoneLines } from '../../helpers/use-gateway.js';
import { useSandbox } from '../../helpers/use-sandbox.js';
import { aData, CLASS, outcome, rr, signed, TYPE, txtData, updateMessage } from '../../helpers/update-wire.js';

const REFUSED = 5;
const TYPE_DHCID = 49;
const dhcid = (i: number) =>
  Buffer.concat([
    Buffer.from([0, 1, 1]),
    Buffer.alloc(28, 0),
    Buffer.from([i >> 24, (i >> 16) & 255, (i >> 8) & 255, i & 255]),
  ]);
/** Records per message: half the gateway's limit of 1,000, and a message that fits UDP. */
const PER_UPDATE = 500;

const sandbox = useSandbox({ per: 'file' });
const gw = useGateway(() => ({
  apiUrl: sandbox.url,
  keys: [
    { name: 'bulk', rules: ['grant "bulk" subdomain leases.example.com DHCID;'] },
    { name: 'kea', rules: ['grant "kea" subdomain dhcp.example.com A DHCID;'] },
    { name: 'txt', rules: ['grant "txt" subdomain txt.example.com TXT;', 'quota "txt" records 3;'] },
    { name: 'admin', rules: ['grant "admin" zonesub;'] },
  ],
}));
afterAll(async () => {
  expect(await gw.stop()).toBe(0);
});

const send = async (key: string, shape: Parameters<typeof updateMessage>[0]) =>
  outcome((await tcpExchange(gw.port, [signed(updateMessage(shape), gw.keys.get(key)!)], 1, HANG_BOUND_MS))[0]!);

describe('quotas per key and zone', () => {
  it(`stops one key at ${DEFAULT_QUOTA.dhcid} DHCID records by default; another key's Kea add still goes through`, async () => {
    for (let first = 0; first < DEFAULT_QUOTA.dhcid; first += PER_UPDATE) {
      const updates = Array.from({ length: PER_UPDATE }, (_, j) =>
        rr(`l${first + j}.leases.example.com`, TYPE_DHCID, CLASS.IN, 300, dhcid(first + j)),
      );
      expect((await send('bulk', { updates })).rcode).toBe(0);
    }
    const past = await send('bulk', {
      updates: [rr('one-more.leases.example.com', TYPE_DHCID, CLASS.IN, 300, dhcid(0))],
      edns: 1232,
    });
    expect(past.rcode).toBe(REFUSED);
    expect(past.edeText).toMatch(new RegExp(`the key bulk may hold at most ${DEFAULT_QUOTA.dhcid} DHCID records`));
    expect(gw.stderr()).toMatch(/key bulk, .*REFUSED: the key bulk may hold at most/);
    // Kea's add under another key: name not in use, add A and DHCID.
    const owner = 'laptop.dhcp.example.com';
    const kea = await send('kea', {
      prerequisites: [rr(owner, TYPE.ANY, CLASS.NONE, 0)],
      updates: [rr(owner, TYPE.A, CLASS.IN, 300, aData('192.0.2.50')), rr(owner, TYPE_DHCID, CLASS.IN, 300, dhcid(1))],
      edns: 1232,
    });
    expect(kea.rcode).toBe(0);
    // A key at its bound may still delete, and then add again.
    expect((await send('bulk', { updates: [rr('l0.leases.example.com', TYPE_DHCID, CLASS.ANY, 0)] })).rcode).toBe(0);
    expect(
      (await send('bulk', { id: 2, updates: [rr('one-more.leases.example.com', TYPE_DHCID, CLASS.IN, 300, dhcid(0))] }))
        .rcode,
    ).toBe(0);
  });

  it('stops a key at the records quota the keys file gives it; the provider keeps only what it was allowed; deleting makes room', async () => {
    for (const i of [1, 2, 3])
      expect(
        (await send('txt', { updates: [rr(`t${i}.txt.example.com`, TYPE.TXT, CLASS.IN, 60, txtData(`v${i}`))] })).rcode,
      ).toBe(0);
    const fourth = await send('txt', {
      updates: [rr('t4.txt.example.com', TYPE.TXT, CLASS.IN, 60, txtData('v4'))],
      edns: 1232,
    });
    expect(fourth.rcode).toBe(REFUSED);
    expect(fourth.edeText).toMatch(/the key txt may hold at most 3 records created at the provider in example\.com/);
    expect(zoneLines(sandbox, '.txt.example.com')).toEqual([
      't1.txt.example.com TXT v1',
      't2.txt.example.com TXT v2',
      't3.txt.example.com TXT v3',
    ]);
    // Another key is not held by txt's quota.
    expect(
      (await send('admin', { updates: [rr('t5.txt.example.com', TYPE.TXT, CLASS.IN, 60, txtData('v5'))] })).rcode,
    ).toBe(0);
    // Deleting another key's record makes no room; deleting its own does.
    expect((await send('txt', { updates: [rr('t5.txt.example.com', TYPE.TXT, CLASS.ANY, 0)] })).rcode).toBe(0);
    expect(
      (await send('txt', { id: 3, updates: [rr('t4.txt.example.com', TYPE.TXT, CLASS.IN, 60, txtData('v4'))] })).rcode,
    ).toBe(REFUSED);
    expect((await send('txt', { updates: [rr('t1.txt.example.com', TYPE.TXT, CLASS.ANY, 0)] })).rcode).toBe(0);
    // Another ID: the same bytes signed in the same second would be a replay, answered as the first.
    expect(
      (await send('txt', { id: 4, updates: [rr('t4.txt.example.com', TYPE.TXT, CLASS.IN, 60, txtData('v4'))] })).rcode,
    ).toBe(0);
    expect(zoneLines(sandbox, '.txt.example.com')).toEqual([
      't2.txt.example.com TXT v2',
      't3.txt.example.com TXT v3',
      't4.txt.example.com TXT v4',
    ]);
  });
});
