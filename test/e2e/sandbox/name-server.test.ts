// The sandbox as the authoritative name server of its zones, asked with ddedge's own DNS client
// (dig's view is in sandbox-dig.test.ts): every type, negative answers as RFC 2308 gives them,
// truncation and the TCP retry, API changes visible at once, and hostile packets.
import dgram from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { findAuthoritativeServers, queryDns, type DnsAnswer, type DnsType } from '../../../src/dns/client/index.js';
import { decodeMessage, encodeMessage } from '../../../src/dns/wire/message.js';
import type { Registrar } from '../../../src/sdk/index.js';
import { sandboxRegistrar } from '../../helpers/sandbox-sdk.js';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server.js';
import { baseEnv, runDist } from '../../helpers/cli.js';
import { useSandbox } from '../../helpers/use-sandbox.js';
import { waitUntil } from '../../helpers/wait.js';

let sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.map((s) => s.close()));
  sandboxes = [];
});

const LONG_TXT = 'v=long;' + 'x'.repeat(593); // 600 bytes: three strings, more than 512 bytes over UDP

const zoned = useSandbox({ dnsPort: 0 });

/** The test's sandbox, with records of every type the name server answers added to example.com. */
async function sandboxWithZone(): Promise<{
  sandbox: Sandbox;
  api: Registrar;
  ask: (name: string, type: DnsType) => Promise<DnsAnswer>;
}> {
  const sandbox: Sandbox = zoned;
  const api = sandboxRegistrar(sandbox);
  const add = (name: string, type: string, value: string, priority?: number) =>
    api.service.dnsCreate({
      serviceName: 'example.com',
      name,
      type: type as 'A',
      value,
      ...(priority ? { priority } : {}),
    });
  await add('example.com', 'AAAA', '2001:db8::10');
  await add('_sip._tcp.example.com', 'SRV', '5 5060 sip.example.com', 20);
  await add('example.com', 'CAA', '0 issue "letsencrypt.org"');
  await add('long.example.com', 'TXT', LONG_TXT);
  await add('*.wild.example.com', 'A', '192.0.2.99');
  await add('deep.empty.example.com', 'A', '192.0.2.98');
  await add('away.example.com', 'CNAME', 'www.example.org');
  const ask = (name: string, type: DnsType) =>
    queryDns({ host: '127.0.0.1', port: sandbox.dnsPort! }, name, type, { timeoutMs: 3000, recursionDesired: false });
  return { sandbox, api, ask };
}

const values = (answer: DnsAnswer) => answer.answers.map((r) => [r.name, r.type, r.value]);

describe('the sandbox as a name server', () => {
  it('answers every type from what service/dnslist holds, with the AA bit', async () => {
    const { ask } = await sandboxWithZone();
    expect(await ask('example.com', 'A')).toMatchObject({
      rcode: 0,
      authoritative: true,
      answers: [{ name: 'example.com', type: 'A', ttl: 300, value: '192.0.2.10' }],
    });
    expect(values(await ask('example.com', 'AAAA'))).toEqual([['example.com', 'AAAA', '2001:db8::10']]);
    expect(values(await ask('www.example.com', 'CNAME'))).toEqual([['www.example.com', 'CNAME', 'example.com']]);
    expect(values(await ask('example.com', 'MX'))).toEqual([
      ['example.com', 'MX', { preference: 10, exchange: 'mail.example.com' }],
    ]);
    expect(values(await ask('example.com', 'TXT'))).toEqual([['example.com', 'TXT', ['v=spf1 mx -all']]]);
    expect(values(await ask('_sip._tcp.example.com', 'SRV'))).toEqual([
      ['_sip._tcp.example.com', 'SRV', { priority: 20, weight: 5, port: 5060, target: 'sip.example.com' }],
    ]);
    expect(values(await ask('example.com', 'CAA'))).toEqual([
      ['example.com', 'CAA', { flags: 0, tag: 'issue', value: 'letsencrypt.org' }],
    ]);
    const ns = await ask('example.com', 'NS');
    expect(values(ns)).toEqual([['example.com', 'NS', 'ns1.example.com']]);
    expect(ns.additional).toEqual([{ name: 'ns1.example.com', type: 'A', ttl: 300, value: '127.0.0.1' }]);
    const soa = await ask('example.com', 'SOA');
    expect(soa.answers).toMatchObject([
      {
        name: 'example.com',
        type: 'SOA',
        value: { mname: 'ns1.example.com', rname: 'hostmaster.example.com', minimum: 60 },
      },
    ]);
    // The question's case is echoed (resolvers using 0x20 randomisation check it).
    expect((await ask('Example.COM', 'A')).answers[0]!.name).toBe('Example.COM');
  });

  it('follows a CNAME inside the zone, and matches wildcards only where names do not exist', async () => {
    const { ask } = await sandboxWithZone();
    expect(values(await ask('www.example.com', 'A'))).toEqual([
      ['www.example.com', 'CNAME', 'example.com'],
      ['example.com', 'A', '192.0.2.10'],
    ]);
    expect(values(await ask('away.example.com', 'A'))).toEqual([['away.example.com', 'CNAME', 'www.example.org']]);
    expect(values(await ask('any.wild.example.com', 'A'))).toEqual([['any.wild.example.com', 'A', '192.0.2.99']]);
    expect((await ask('any.wild.example.com', 'TXT')).rcode).toBe(0);
    // `empty` exists (it has a child), so it is NODATA, not NXDOMAIN.
    expect(await ask('empty.example.com', 'A')).toMatchObject({ rcode: 0, answers: [], authority: [{ type: 'SOA' }] });
  });

  it('answers NXDOMAIN and NODATA with the SOA in the authority section, and REFUSED outside its zones', async () => {
    const { ask } = await sandboxWithZone();
    const nx = await ask('nope.example.com', 'A');
    expect(nx).toMatchObject({
      rcode: 3,
      authoritative: true,
      answers: [],
      authority: [{ name: 'example.com', type: 'SOA', ttl: 60 }],
    });
    const nodata = await ask('home.example.com', 'AAAA');
    expect(nodata).toMatchObject({
      rcode: 0,
      authoritative: true,
      answers: [],
      authority: [{ name: 'example.com', type: 'SOA' }],
    });
    expect(await ask('example.org', 'A')).toMatchObject({ rcode: 5, authoritative: false });
    expect(values(await ask('example.net', 'A'))).toEqual([['example.net', 'A', '192.0.2.30']]);
  });

  it('truncates a 600-byte TXT over UDP, and the client gets it whole over TCP', async () => {
    const { ask } = await sandboxWithZone();
    const answer = await ask('long.example.com', 'TXT');
    expect(answer).toMatchObject({ transport: 'tcp', truncated: false });
    expect(answer.answers[0]!.value).toEqual([LONG_TXT.slice(0, 255), LONG_TXT.slice(255, 510), LONG_TXT.slice(510)]);
  });

  it('shows changes made through the API at once, and moves the SOA serial', async () => {
    const { api, ask } = await sandboxWithZone();
    const serial = async () => ((await ask('example.com', 'SOA')).answers[0]!.value as { serial: number }).serial;
    const before = await serial();
    expect((await ask('_acme-challenge.example.com', 'TXT')).rcode).toBe(3);
    const created = await api.service.dnsCreate({
      serviceName: 'example.com',
      name: '_acme-challenge',
      type: 'TXT',
      value: 'token-1',
    });
    expect(values(await ask('_acme-challenge.example.com', 'TXT'))).toEqual([
      ['_acme-challenge.example.com', 'TXT', ['token-1']],
    ]);
    expect(await serial()).toBe(before + 1);
    await api.service.dnsUpdate({ serviceName: 'example.com', entityID: created.dns[0]!.entityID, value: 'token-2' });
    expect(values(await ask('_acme-challenge.example.com', 'TXT'))).toEqual([
      ['_acme-challenge.example.com', 'TXT', ['token-2']],
    ]);
    await api.service.dnsDelete({ serviceName: 'example.com', entityID: created.dns[0]!.entityID });
    expect((await ask('_acme-challenge.example.com', 'TXT')).rcode).toBe(3);
    await api.service.create({ serviceName: 'newsite.com', productkey: 'mini' });
    expect(values(await ask('newsite.com', 'A'))).toEqual([['newsite.com', 'A', '192.0.2.10']]);
  });

  it("is found as the zone's authoritative server through its own NS and glue", async () => {
    const { sandbox } = await sandboxWithZone();
    const resolver = { host: '127.0.0.1', port: sandbox.dnsPort! };
    expect(
      await findAuthoritativeServers('example.com', { resolvers: [resolver], timeoutMs: 3000, port: sandbox.dnsPort! }),
    ).toEqual([{ host: '127.0.0.1', port: sandbox.dnsPort!, name: 'ns1.example.com' }]);
  });

  it('answers hostile packets with FORMERR, NOTIMP or REFUSED, or not at all, and keeps serving', async () => {
    const { sandbox, ask } = await sandboxWithZone();
    const socket = dgram.createSocket('udp4');
    const replies: Buffer[] = [];
    socket.on('message', (m) => replies.push(m));
    await new Promise<void>((r) => socket.bind(0, '127.0.0.1', r));
    const send = (packet: Buffer) =>
      new Promise<void>((r) => socket.send(packet, sandbox.dnsPort!, '127.0.0.1', () => r()));
    const q = (name: string, type: number) => ({ name, type, class: 1 });
    const loop = Buffer.from([0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0xc0, 12, 0, 1, 0, 1]);
    await send(loop); // compression loop: FORMERR
    await send(encodeMessage({ id: 2, questions: [q('example.com', 1), q('example.net', 1)] })); // two questions: FORMERR
    await send(encodeMessage({ id: 3, questions: [q('example.com', 252)] })); // AXFR: REFUSED
    await send(encodeMessage({ id: 4, opcode: 2, questions: [q('example.com', 1)] })); // STATUS: NOTIMP
    await send(encodeMessage({ id: 5, response: true, questions: [q('example.com', 1)] })); // a response: silence
    await send(Buffer.from([1, 2, 3])); // too short: silence
    await send(Buffer.alloc(5000)); // too long: silence
    await send(encodeMessage({ id: 6, questions: [q('example.com', 1)] }));
    // The server takes datagrams in order: once the last one is answered, every one before it was read.
    await send(encodeMessage({ id: 7, questions: [q('example.com', 1)] }));
    await waitUntil(() => replies.some((r) => r.readUInt16BE(0) === 7), 'the answer to the last query');
    socket.close();
    const byId = new Map(replies.map((r) => [r.readUInt16BE(0), r]));
    expect([...byId.keys()].sort()).toEqual([1, 2, 3, 4, 6, 7]);
    expect(decodeMessage(byId.get(1)!).rcode).toBe(1);
    expect(decodeMessage(byId.get(2)!).rcode).toBe(1);
    expect(decodeMessage(byId.get(3)!).rcode).toBe(5);
    expect(decodeMessage(byId.get(4)!).rcode).toBe(4);
    expect(decodeMessage(byId.get(6)!).answers).toHaveLength(1);
    expect((await ask('example.com', 'A')).rcode).toBe(0);
  });

  it('refuses a bad --dns-port, and a port already taken, with exit 2', async () => {
    const bad = await runDist(['sandbox', '--port', '0', '--dns-port', '53x'], baseEnv());
    expect([bad.code, bad.stderr.trim()]).toEqual([2, expect.stringMatching(/--dns-port: "53x" is not a port number/)]);
    const taken = dgram.createSocket('udp4');
    await new Promise<void>((r) => taken.bind(0, '127.0.0.1', r));
    const port = taken.address().port;
    const busy = await runDist(['sandbox', '--port', '0', '--dns-port', String(port)], baseEnv());
    taken.close();
    expect(busy.code).toBe(2);
    expect(busy.stderr).toMatch(
      new RegExp(
        `--dns-port 127\\.0\\.0\\.1:${port}: the address is already in use \\(another program, or another ddedge, listens there\\); choose another port`,
      ),
    );
  });

  it('serves `ddedge ip` a dns: and a dns-txt: source (the built file, as a user runs it)', async () => {
    const { sandbox, api } = await sandboxWithZone();
    await api.service.dnsCreate({ serviceName: 'example.com', name: 'myip', type: 'A', value: '81.0.2.15' });
    await api.service.dnsCreate({
      serviceName: 'example.com',
      name: 'myip',
      type: 'TXT',
      value: 'your address is 81.0.2.15',
    });
    const server = `127.0.0.1:${sandbox.dnsPort}`;
    // One source per run: two sources at one server would not make a quorum.
    for (const source of [`dns:myip.example.com@${server}`, `dns-txt:myip.example.com@${server}`]) {
      const run = await runDist(['ip', '--json'], baseEnv({ DDEDGE_IP_SOURCES: source }));
      expect(run.code, run.stderr).toBe(0);
      const report = JSON.parse(run.stdout) as {
        addresses: { address: string; sources: { source: string; address?: string }[] }[];
      };
      expect(report.addresses[0]!.address, source).toBe('81.0.2.15');
      expect(report.addresses[0]!.sources).toMatchObject([{ source, address: '81.0.2.15' }]);
    }
    const missing = await runDist(['ip'], baseEnv({ DDEDGE_IP_SOURCES: `dns:nope.example.com@${server}` }));
    expect(missing.code).toBe(6);
    expect(missing.stderr).toMatch(/DNS query nope\.example\.com at 127\.0\.0\.1:\d+ failed: NXDOMAIN/);
  });

  it('listens on IPv6 too, and gives its own address as the glue (AAAA)', async (context) => {
    const probe = dgram.createSocket('udp6');
    const ipv6 = await new Promise<boolean>((resolve) => {
      probe.once('error', () => resolve(false));
      probe.bind(0, '::1', () => resolve(true));
    });
    probe.close();
    if (!ipv6) return context.skip();
    const sandbox = await startSandbox({ port: 0, host: '::1', dnsPort: 0 });
    sandboxes.push(sandbox);
    const resolver = { host: '::1', port: sandbox.dnsPort! };
    expect(values(await queryDns(resolver, 'example.com', 'A', { timeoutMs: 3000 }))).toEqual([
      ['example.com', 'A', '192.0.2.10'],
    ]);
    expect(
      await findAuthoritativeServers('example.com', { resolvers: [resolver], timeoutMs: 3000, port: sandbox.dnsPort! }),
    ).toEqual([{ host: '::1', port: sandbox.dnsPort!, name: 'ns1.example.com' }]);
  });
});
