// The messages of three RFC 2136 clients that cannot run here (Go programs on miekg/dns),
// built byte for byte as they build them and replayed over UDP and TCP against the built
// gateway in front of the sandbox; the provider's zone is read back afterwards.
//
// What all three share comes from miekg/dns (defaults.go, update.go):
// - SetUpdate(zone): a random ID, opcode UPDATE, RD clear, the zone as one question (zone, SOA,
//   IN), names never compressed ("BIND9 cannot handle compression");
// - Insert(rr): the record in the update section with class IN and its own TTL;
// - Remove(rr): the record with its data, class NONE, TTL 0;
// - RemoveRRset(rr): owner and type only, class ANY, TTL 0, no data;
// - SetTsig(key, alg, fudge, now): a TSIG last in the additional section, fudge as given (all
//   three give 300), no other data; no OPT record: none of them calls SetEdns0.
// - SetAxfr(zone): a random ID, the question (zone, AXFR, IN); dns.Transfer sends it over TCP.
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeMessage } from '../../../src/dns/wire/message.js';
import type { TsigKey } from '../../../src/dns/wire/tsig.js';
import type { DnsRecord } from '../../../src/dns/wire/types.js';
import { tcpExchange, udpExchange } from '../../helpers/dns-wire.js';
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
} from '../../helpers/update-wire.js';

const sandbox = useSandbox({ per: 'file' });
const gw = useGateway(() => ({
  apiUrl: sandbox.url,
  keys: [
    // external-dns uses one key (--rfc2136-tsig-keyname) to transfer and to update.
    { name: 'external-dns', rules: ['grant "external-dns" zonesub A AAAA CNAME TXT;', 'transfer "external-dns";'] },
    // cert-manager's default algorithm is HMACMD5 (rfc2136.go: `tsigAlgorithm = dns.HmacMD5`).
    { name: 'cert-manager', algorithm: 'hmac-md5', rules: ['grant "cert-manager" wildcard *.example.com TXT;'] },
    { name: 'caddy', rules: ['grant "caddy" wildcard *.example.com TXT;', 'transfer "caddy";'] },
  ],
}));
afterAll(async () => {
  expect(await gw.stop()).toBe(0);
});

type Transport = 'udp' | 'tcp';

const randomId = () => Math.floor(Math.random() * 0x10000);

/** miekg/dns SetUpdate + the update section as given + SetTsig(key, alg, 300, now). */
function miekgUpdate(key: TsigKey, updates: Buffer[]): Buffer {
  return signed(
    updateMessage({ id: randomId(), zones: [question('example.com.', TYPE.SOA, CLASS.IN)], updates }),
    key,
    Math.floor(Date.now() / 1000),
    300,
  );
}

const insertA = (name: string, ttl: number, ip: string) => rr(name, TYPE.A, CLASS.IN, ttl, aData(ip));
const insertTxt = (name: string, ttl: number, ...strings: string[]) =>
  rr(name, TYPE.TXT, CLASS.IN, ttl, txtData(...strings));
const removeA = (name: string, ip: string) => rr(name, TYPE.A, CLASS.NONE, 0, aData(ip));
const removeTxt = (name: string, ...strings: string[]) => rr(name, TYPE.TXT, CLASS.NONE, 0, txtData(...strings));
const removeRRset = (name: string, type: number) => rr(name, type, CLASS.ANY, 0);

async function send(bytes: Buffer, transport: Transport): Promise<ReturnType<typeof outcome> & { hasOpt: boolean }> {
  const answer =
    transport === 'udp'
      ? await udpExchange(gw.port, bytes, 15_000)
      : (await tcpExchange(gw.port, [bytes], 1, 15_000))[0]!;
  return { ...outcome(answer), hasOpt: decodeMessage(answer).additional.some((r) => r.type === 'OPT') };
}

/** dns.Transfer.In over TCP: every record of every message until the closing SOA. */
function axfr(key: TsigKey): Promise<DnsRecord[]> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(gw.port, '127.0.0.1');
    const records: DnsRecord[] = [];
    let pending = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`AXFR: ${records.length} records, no closing SOA`));
    }, 15_000);
    socket.on('error', reject);
    socket.on('connect', () => {
      const header = Buffer.alloc(12);
      header.writeUInt16BE(randomId(), 0);
      header.writeUInt16BE(1, 4);
      const message = signed(Buffer.concat([header, question('example.com.', TYPE.AXFR, CLASS.IN)]), key);
      const prefix = Buffer.alloc(2);
      prefix.writeUInt16BE(message.length);
      socket.write(Buffer.concat([prefix, message]));
    });
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 2 && pending.length >= 2 + pending.readUInt16BE(0)) {
        const message = decodeMessage(pending.subarray(2, 2 + pending.readUInt16BE(0)));
        pending = pending.subarray(2 + pending.readUInt16BE(0));
        if (message.rcode !== 0) {
          clearTimeout(timer);
          socket.destroy();
          reject(new Error(`AXFR: rcode ${message.rcode}`));
          return;
        }
        records.push(...message.answers);
        if (records.length > 1 && records.at(-1)!.type === 'SOA') {
          clearTimeout(timer);
          socket.end();
          return resolve(records);
        }
      }
    });
  });
}

describe('external-dns rfc2136 provider (kubernetes-sigs/external-dns provider/rfc2136/rfc2136.go)', () => {
  const key = () => gw.keys.get('external-dns')!;
  const owner = (name: string) =>
    `heritage=external-dns,external-dns/owner=default,external-dns/resource=ingress/default/${name.split('.')[0]}`;

  it('lists the zone by AXFR over TCP with TSIG (List(): SetAxfr, SetTsig(key, alg, clockSkew=300, now))', async () => {
    const records = await axfr(key());
    expect(records[0]!.type).toBe('SOA');
    expect(records.at(-1)!.type).toBe('SOA');
    // Records() keeps CNAME, A, AAAA, TXT and NS of class IN.
    expect(records.some((r) => r.name === 'www.example.com' && r.type === 'CNAME')).toBe(true);
  });

  for (const transport of ['udp', 'tcp'] as Transport[]) {
    it(`creates, updates and deletes endpoints with their TXT registry records in batches (${transport})`, async () => {
      const hosts = [1, 2, 3, 4].map((i) => `ext${i}-${transport}.example.com`);
      // ApplyChanges: one message per batch of creates (batchChangeSize 50). AddRecord takes
      // ttl = minTTL (0 by default) unless the endpoint's TTL is configured; the TXT registry
      // writes its record at the name and, since 0.12, at "a-<name>" too, same TTL.
      const create = miekgUpdate(
        key(),
        hosts.flatMap((h, i) => [
          insertA(h, 0, `192.0.2.${10 + i}`),
          insertTxt(h, 0, owner(h)),
          insertTxt(`a-${h}`, 0, owner(h)),
        ]),
      );
      // SendMessage: `if msg.Len() > udpMaxMsgSize { c.Net = "tcp" }`: this batch goes over TCP.
      expect(create.length).toBeGreaterThan(512);
      expect(await send(create, transport)).toMatchObject({ rcode: 0, hasOpt: false });
      for (const [i, h] of hosts.entries()) {
        expect(zoneLines(sandbox, h).filter((l) => l.startsWith(h))).toEqual([
          `${h} A 192.0.2.${10 + i}`,
          `${h} TXT ${owner(h)}`,
        ]);
        expect(zoneLines(sandbox, `a-${h}`)).toEqual([`a-${h} TXT ${owner(h)}`]);
      }
      // UpdateRecord(m, old, new): RemoveRecord(old) then AddRecord(new), in one message per batch.
      const update = miekgUpdate(key(), [
        ...hosts
          .slice(0, 2)
          .flatMap((h, i) => [removeA(h, `192.0.2.${10 + i}`), insertA(h, 300, `198.51.100.${10 + i}`)]),
      ]);
      expect(await send(update, transport)).toMatchObject({ rcode: 0 });
      expect(zoneLines(sandbox, hosts[0]!).filter((l) => l.includes(' A '))).toEqual([`${hosts[0]} A 198.51.100.10`]);
      expect(zoneLines(sandbox, hosts[1]!).filter((l) => l.includes(' A '))).toEqual([`${hosts[1]} A 198.51.100.11`]);
      // Deletes: RemoveRecord of each target, the registry records with them.
      const remove = miekgUpdate(
        key(),
        hosts.flatMap((h, i) => [
          removeA(h, i < 2 ? `198.51.100.${10 + i}` : `192.0.2.${10 + i}`),
          removeTxt(h, owner(h)),
          removeTxt(`a-${h}`, owner(h)),
        ]),
      );
      expect(await send(remove, transport)).toMatchObject({ rcode: 0 });
      for (const h of hosts)
        expect(zoneLines(sandbox, h).filter((l) => l.startsWith(h) || l.startsWith(`a-${h}`))).toEqual([]);
    });
  }
});

describe("cert-manager's rfc2136 solver (cert-manager/cert-manager pkg/issuer/acme/dns/rfc2136/rfc2136.go)", () => {
  const key = () => gw.keys.get('cert-manager')!;
  // Present: changeRecord("INSERT", fqdn, zone, value, 60); CleanUp: changeRecord("REMOVE", ...).
  // One TXT string per record; no SOA discovery (the zone comes from cert-manager's own lookup).
  for (const transport of ['udp', 'tcp'] as Transport[]) {
    it(`presents two challenge values at one name and cleans up one (${transport}; UDP unless protocol: TCP)`, async () => {
      const name = `_acme-challenge.cm-${transport}.example.com.`;
      const owner = name.replace(/\.$/, '');
      for (const value of [
        'token-one-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
        'token-two-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb',
      ]) {
        expect(await send(miekgUpdate(key(), [insertTxt(name, 60, value)]), transport)).toMatchObject({
          rcode: 0,
          hasOpt: false,
        });
      }
      expect(zoneLines(sandbox, owner)).toEqual([
        `${owner} TXT token-one-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa`,
        `${owner} TXT token-two-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb`,
      ]);
      expect(
        await send(
          miekgUpdate(key(), [removeTxt(name, 'token-one-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa')]),
          transport,
        ),
      ).toMatchObject({ rcode: 0 });
      expect(zoneLines(sandbox, owner)).toEqual([`${owner} TXT token-two-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb`]);
    });
  }
});

describe("Caddy's DNS provider libdns/rfc2136 (libdns/rfc2136 provider.go, conversion.go)", () => {
  const key = () => gw.keys.get('caddy')!;
  // client(): Net "tcp" always. setTsig: SetTsig(fqdn(KeyName), fqdn(KeyAlg), 300, now).
  // recordToRR: "$ORIGIN zone\n<name> <ttl> IN TXT <value in 255-character quoted chunks>";
  // certmagic's DNS-01 solver leaves the TTL at 0 unless configured.
  const transport: Transport = 'tcp';

  it('lists by AXFR, appends, sets (RemoveRRset + Insert in one message), deletes one value', async () => {
    expect((await axfr(key())).length).toBeGreaterThan(2);
    const name = '_acme-challenge.caddy.example.com.';
    const owner = name.replace(/\.$/, '');
    // AppendRecords: one Insert per record; a value over 255 characters goes as two strings.
    const long = 'k'.repeat(300);
    expect(
      await send(
        miekgUpdate(key(), [insertTxt(name, 0, 'first'), insertTxt(name, 0, long.slice(0, 255), long.slice(255))]),
        transport,
      ),
    ).toMatchObject({ rcode: 0, hasOpt: false });
    expect(zoneLines(sandbox, owner)).toEqual([`${owner} TXT first`, `${owner} TXT ${long}`]);
    // SetRecords: RemoveRRset(rrs) then Insert(rrs).
    expect(
      await send(miekgUpdate(key(), [removeRRset(name, TYPE.TXT), insertTxt(name, 0, 'only')]), transport),
    ).toMatchObject({ rcode: 0 });
    expect(zoneLines(sandbox, owner)).toEqual([`${owner} TXT only`]);
    // DeleteRecords: Remove each.
    expect(await send(miekgUpdate(key(), [removeTxt(name, 'only')]), transport)).toMatchObject({ rcode: 0 });
    expect(zoneLines(sandbox, owner)).toEqual([]);
  });

  it('gets REFUSED for a name outside its grant, and no OPT (it sends none, so exchange() finds no EDE: RFC 6891 7)', async () => {
    const before = zoneLines(sandbox);
    const answer = await send(miekgUpdate(key(), [insertTxt('example.com.', 0, 'apex is not granted')]), transport);
    expect(answer).toMatchObject({ rcode: 5, hasOpt: false });
    expect(zoneLines(sandbox)).toEqual(before);
  });
});
