// Two built gateways on one state directory, each serving its own zone (as docs/gateway.md allows): Kea's
// adds (name not in use; add A and DHCID) through both, interleaved, and every DHCID record of
// both zones stays in <state>/gateway/dhcid.json and is answered, after a restart too. (Each
// gateway once rewrote the file from its own memory, dropping the other's records, so the
// other's DHCP clients were refused at their next renewal.)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { decodeMessage, encodeMessage } from '../../../../src/dns/wire/message.js';
import type { TsigKey } from '../../../../src/dns/wire/tsig.js';
import { dhcidStorePath } from '../../../../src/gateway/dhcid/store.js';
import { tempDir } from '../../../helpers/cli.js';
import { udpExchange } from '../../../helpers/dns-wire.js';
import { startGatewayProcess, writeKeysFile, type GatewayProcess } from '../../../helpers/use-gateway.js';
import { aData, CLASS, outcome, rr, signed, TYPE, updateMessage } from '../../../helpers/update-wire.js';
import { useSandbox } from '../../../helpers/use-sandbox.js';

const TYPE_DHCID = 49;
const dhcidData = (i: number) => Buffer.concat([Buffer.from([0, 1, 1]), Buffer.alloc(32, i)]);

const sandbox = useSandbox({ per: 'file' });
const running: GatewayProcess[] = [];
afterAll(async () => {
  for (const gw of running) await gw.stop();
});

/** Kea's add: the name is not in use; add its A and its DHCID. */
function keaAdd(zone: string, host: string, i: number, key: TsigKey): Buffer {
  const owner = `${host}.${zone}`;
  return signed(
    updateMessage({
      zone,
      prerequisites: [rr(owner, TYPE.ANY, CLASS.NONE, 0)],
      updates: [
        rr(owner, TYPE.A, CLASS.IN, 300, aData(`192.0.2.${i}`)),
        rr(owner, TYPE_DHCID, CLASS.IN, 300, dhcidData(i)),
      ],
    }),
    key,
  );
}

async function dhcidAt(port: number, owner: string): Promise<number> {
  return decodeMessage(
    await udpExchange(port, encodeMessage({ id: 5, questions: [{ name: owner, type: TYPE_DHCID, class: 1 }] })),
  ).answers.length;
}

it('keeps the DHCID records of both zones when two gateways share a state directory', {
  timeout: 120_000,
}, async () => {
  const stateDir = join(tempDir('ddedge-shared-'), 'state');
  const { file, keys } = writeKeysFile([{ name: 'kea', rules: ['grant "kea" zonesub A AAAA DHCID;'] }]);
  const kea = keys.get('kea')!;
  const start = (zone: string) =>
    startGatewayProcess({ apiUrl: sandbox.url, zone, keysFile: file, stateDir }).then((gw) => {
      running.push(gw);
      return gw;
    });
  const com = await start('example.com');
  const net = await start('example.net');
  const hosts = ['alpha', 'bravo', 'charlie'];
  for (const [i, host] of hosts.entries()) {
    expect(outcome(await udpExchange(com.port, keaAdd('example.com', host, i + 1, kea))).rcode).toBe(0);
    expect(outcome(await udpExchange(net.port, keaAdd('example.net', host, i + 1, kea))).rcode).toBe(0);
  }
  const file_ = JSON.parse(readFileSync(dhcidStorePath(stateDir), 'utf8')) as {
    zones: Record<string, { name: string }[]>;
  };
  expect(
    Object.fromEntries(Object.entries(file_.zones).map(([zone, list]) => [zone, list.map((r) => r.name).sort()])),
  ).toEqual({
    'example.com': hosts.map((h) => `${h}.example.com`),
    'example.net': hosts.map((h) => `${h}.example.net`),
  });
  // Both still answer their own, and so does each after a restart (from the file).
  for (const host of hosts) {
    expect(await dhcidAt(com.port, `${host}.example.com`)).toBe(1);
    expect(await dhcidAt(net.port, `${host}.example.net`)).toBe(1);
  }
  for (const gw of running.splice(0)) expect(await gw.stop()).toBe(0);
  const comAgain = await start('example.com');
  const netAgain = await start('example.net');
  for (const host of hosts) {
    expect(await dhcidAt(comAgain.port, `${host}.example.com`)).toBe(1);
    expect(await dhcidAt(netAgain.port, `${host}.example.net`)).toBe(1);
  }
  // A client of either zone renewing with its own DHCID is still recognised (the replace's prerequisite holds).
  const renew = signed(
    updateMessage({
      zone: 'example.net',
      prerequisites: [rr('alpha.example.net', TYPE_DHCID, CLASS.IN, 0, dhcidData(1))],
      updates: [
        rr('alpha.example.net', TYPE.A, CLASS.ANY, 0),
        rr('alpha.example.net', TYPE.A, CLASS.IN, 300, aData('192.0.2.99')),
      ],
    }),
    kea,
  );
  expect(outcome(await udpExchange(netAgain.port, renew)).rcode).toBe(0);
});
