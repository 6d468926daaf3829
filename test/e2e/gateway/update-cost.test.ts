// What one dynamic update costs the gateway must follow the update, not the zone: on a zone of
// 50,000 records a one-name nsupdate add read the whole zone first (51 service/dnslist pages,
// about 2 s each). Now an update reads afresh only the names its prerequisites and changes
// concern (service/dnslist's `filter`), so it costs at most 3 provider calls at any zone size,
// and is still checked against the zone as the provider holds it: a record added behind the
// gateway's back at that name counts, and a name that merely contains another (the filter is a
// substring match) does not. Calls are counted by the sandbox, not by the gateway.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DnsEntry } from '../../../src/api/endpoints/service.js';
import { HANG_BOUND_MS, tempDir } from '../../helpers/cli.js';
import { queryPacket, readAnswer, udpClient, udpExchange } from '../../helpers/dns-wire.js';
import { startHoldingProxy, type HoldingProxy } from '../../helpers/holding-proxy.js';
import { requireTool } from '../../helpers/programs.js';
import { CLASS, outcome, rr, signed, TYPE, txtData, updateMessage } from '../../helpers/update-wire.js';
import { startGatewayProcess, useGateway, writeKeysFile } from '../../helpers/use-gateway.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const TOOLS = requireTool('nsupdate', 'bind9-dnsutils');
const ZONE_SIZE = 50_000;
/** Names below dyn.example.com: its filter (and yn.example.com's, n.example.com's) lists 20 pages of them. */
const DYN_HOSTS = 20_000;

const sandbox = useSandbox({ per: 'file' });

const zoneEntries = (): DnsEntry[] => sandbox.model.services.find((s) => s.name === 'example.com')!.dns;
const providerCalls = () => [...sandbox.calls.values()].reduce((n, c) => n + c, 0);

function nsupdate(lines: string[], key = gateway.nsupdateKey('admin')): Promise<{ code: number; out: string }> {
  const script = [`server 127.0.0.1 ${gateway.port}`, 'zone example.com', ...lines, 'send', ''].join('\n');
  return new Promise((resolve) => {
    // Over TCP, one exchange waited for up to the hang bound: over UDP nsupdate gives up after three 3 s tries, which a
    // busy machine reading a zone of many pages outlasts.
    const child = execFile(
      'nsupdate',
      ['-v', '-t', '110', '-y', key],
      { timeout: HANG_BOUND_MS },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
    );
    child.stdin!.end(script);
  });
}

/** What one nsupdate run costs in provider calls (the sandbox counts each request it serves). */
async function cost(
  lines: string[],
  key = gateway.nsupdateKey('admin'),
): Promise<{ code: number; out: string; calls: number }> {
  const before = providerCalls();
  const result = await nsupdate(lines, key);
  return { ...result, calls: providerCalls() - before };
}

let proxy: HoldingProxy | undefined;
afterAll(async () => {
  await proxy?.close();
});

/** admin may change the zone; narrow only TXT records below acme.example.com. The gateway reaches the sandbox through a proxy that can hold a read. */
const gateway = useGateway(async () => {
  if (!TOOLS) return undefined;
  proxy = await startHoldingProxy(sandbox.url);
  // The plan that holds 100,000 records (the demo's basic plan holds far fewer).
  sandbox.model.services.find((s) => s.name === 'example.com')!.productkey = 'corporate';
  const dns = zoneEntries();
  // Names that hold the names the updates below use as substrings: a filter that is not exact.
  const extra: DnsEntry[] = [
    { entityID: '', name: 'xcdn.example.com', type: 'A', ttl: '300', priority: '-', value: '192.0.2.20' },
    { entityID: '', name: 'cdn.example.com.example.com', type: 'TXT', ttl: '300', priority: '-', value: 'not cdn' },
    { entityID: '', name: 'a.cdn.example.com', type: 'A', ttl: '300', priority: '-', value: '192.0.2.21' },
    ...Array.from(
      { length: DYN_HOSTS },
      (_, i): DnsEntry => ({
        entityID: '',
        name: `d${i}.dyn.example.com`,
        type: 'A',
        ttl: '300',
        priority: '-',
        value: `10.9.${i >> 8}.${i & 255}`,
      }),
    ),
  ];
  for (let i = 0; dns.length + extra.length < ZONE_SIZE; i++)
    dns.push({
      entityID: String(900_000 + i),
      name: `h${i}.example.com`,
      type: 'A',
      ttl: '300',
      priority: '-',
      value: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
    });
  for (const [i, e] of extra.entries()) dns.push({ ...e, entityID: String(800_000 + i) });
  return {
    apiUrl: proxy.url,
    primaryName: null,
    args: ['--refresh', '1h'],
    env: { DDEDGE_MAX_CALLS_PER_HOUR: '3600' },
    keys: [
      { name: 'admin', rules: ['grant "admin" zonesub;'] },
      { name: 'narrow', rules: ['grant "narrow" wildcard *.acme.example.com TXT;'] },
    ],
  };
});

describe.skipIf(!TOOLS)(`an update's provider calls on a zone of ${ZONE_SIZE.toLocaleString('en')} records`, () => {
  it('a one-name add costs at most 3 calls, is made, and is answered from the view at once', async () => {
    expect(zoneEntries().length).toBe(ZONE_SIZE);
    for (const i of [1, 2, 3]) {
      const { code, out, calls } = await cost([`update add new${i}.example.com 300 TXT "one ${i}"`]);
      expect({ code, out }).toEqual({ code: 0, out: '' });
      expect(calls).toBeLessThanOrEqual(3);
    }
    expect(
      zoneEntries()
        .filter((e) => e.name.startsWith('new'))
        .map((e) => `${e.name} ${e.value}`)
        .sort(),
    ).toEqual(['new1.example.com one 1', 'new2.example.com one 2', 'new3.example.com one 3']);
    const answer = readAnswer(await udpExchange(gateway.port, queryPacket({ name: 'new3.example.com', type: 16 })));
    expect(answer.answers.map((r) => r.value)).toEqual([['one 3']]);
  });

  it('a name that only contains the one asked about is not taken for it (prerequisites, adds)', async () => {
    // cdn.example.com itself holds nothing (a.cdn below it makes it an empty non-terminal, which is "not in use", RFC 2136 2.4.5): xcdn, cdn.example.com.example.com and a.cdn are other names.
    const free = await cost(['prereq nxdomain cdn.example.com', 'update add cdn.example.com 300 A 192.0.2.80']);
    expect({ code: free.code, out: free.out }).toEqual({ code: 0, out: '' });
    expect(free.calls).toBeLessThanOrEqual(3);
    const taken = await cost(['prereq nxdomain cdn.example.com', 'update add cdn.example.com 300 A 192.0.2.81']);
    expect(taken.out).toMatch(/YXDOMAIN/);
    expect(
      zoneEntries()
        .filter((e) => e.name === 'cdn.example.com')
        .map((e) => e.value),
    ).toEqual(['192.0.2.80']);
    expect(
      zoneEntries()
        .filter((e) => e.name === 'xcdn.example.com')
        .map((e) => e.value),
    ).toEqual(['192.0.2.20']);
  });

  it("reads on the sandbox's service/dnslist filter as the provider's: every entry whose name contains the text, counted in total", async () => {
    const body = new URLSearchParams({
      apiuser: 'demo-user',
      apipasswd: 'demo-api-password',
      serviceName: 'example.com',
      filter: 'CDN.example.com',
    });
    const answer = (await (await fetch(`${sandbox.url}/service/dnslist/`, { method: 'POST', body })).json()) as {
      responseData: { queryInfo: { total: number }; dns: DnsEntry[] };
    };
    const names = answer.responseData.dns.map((e) => e.name).sort();
    expect(names).toEqual(['a.cdn.example.com', 'cdn.example.com', 'cdn.example.com.example.com', 'xcdn.example.com']);
    expect(answer.responseData.queryInfo.total).toBe(4);
  });

  it('a record added at the provider behind the gateway is seen by the next update there (read afresh)', async () => {
    const dns = zoneEntries();
    dns.push({
      entityID: '700001',
      name: 'behind.example.com',
      type: 'TXT',
      ttl: '300',
      priority: '-',
      value: 'made elsewhere',
    });
    const { code, out, calls } = await cost([
      'prereq yxrrset behind.example.com TXT',
      'update delete behind.example.com TXT',
      'update add behind.example.com 300 TXT "replaced"',
    ]);
    expect({ code, out }).toEqual({ code: 0, out: '' });
    expect(calls).toBeLessThanOrEqual(3);
    expect(
      zoneEntries()
        .filter((e) => e.name === 'behind.example.com')
        .map((e) => e.value),
    ).toEqual(['replaced']);
    // And the view shows what the provider holds there now.
    const answer = readAnswer(await udpExchange(gateway.port, queryPacket({ name: 'behind.example.com', type: 16 })));
    expect(answer.answers.map((r) => r.value)).toEqual([['replaced']]);
  });

  it('updates batched together each see what the ones before them made, at their names and at others', async () => {
    // The first update's read is held at the proxy, so the three after it wait and go together,
    // in the order they came: datagrams from one socket are taken in order, and the answer to
    // a query sent after them shows all three were taken.
    const hold = proxy!.hold('service/dnslist');
    const udp = udpClient(gateway.port);
    try {
      const admin = gateway.keys.get('admin')!;
      const add = (name: string, text: string) => rr(name, TYPE.TXT, CLASS.IN, 300, txtData(text));
      const inUse = (name: string) => rr(name, TYPE.TXT, CLASS.ANY, 0);
      const blocker = udp.ask(signed(updateMessage({ id: 1, updates: [add('slow.example.com', 'first')] }), admin));
      await hold.arrived;
      const a = udp.ask(signed(updateMessage({ id: 2, updates: [add('pa.example.com', 'a')] }), admin));
      const b = udp.ask(signed(updateMessage({ id: 3, updates: [add('pb.example.com', 'b')] }), admin));
      const c = udp.ask(
        signed(
          updateMessage({
            id: 4,
            prerequisites: [inUse('pa.example.com'), inUse('pb.example.com')],
            updates: [add('pc.example.com', 'c'), add('pa.example.com', 'a2')],
          }),
          admin,
        ),
      );
      await udp.ask(queryPacket({ id: 5, name: 'example.com', type: TYPE.SOA }));
      hold.release();
      const results = (await Promise.all([blocker, a, b, c])).map((answer) => outcome(answer).rcode);
      expect(results).toEqual([0, 0, 0, 0]);
    } finally {
      hold.release();
      udp.close();
    }
    const at = (name: string) =>
      zoneEntries()
        .filter((e) => e.name === name)
        .map((e) => e.value)
        .sort();
    expect([at('pa.example.com'), at('pb.example.com'), at('pc.example.com')]).toEqual([['a', 'a2'], ['b'], ['c']]);
    // One batch made the three: their result lines in the journal carry one mark.
    const batchOf = (name: string) =>
      gateway
        .journal()
        .filter((l) => l.result && JSON.stringify(l.changes).includes(`"${name}"`))
        .map((l) => l.result);
    expect(
      new Set([...batchOf('pa.example.com'), ...batchOf('pb.example.com'), ...batchOf('pc.example.com')]).size,
    ).toBe(1);
  });

  it('a prerequisite outside the zone is answered NOTZONE before anything is read', async () => {
    // "t" is no name of example.com, but its filter would list every entry (50 pages).
    for (const key of [gateway.nsupdateKey('admin'), gateway.nsupdateKey('narrow')]) {
      const { out, calls } = await cost(['prereq yxdomain t'], key);
      expect(out).toMatch(/NOTZONE/);
      expect(calls).toBe(0);
    }
  });

  it("a key's prerequisites at names that list much of the zone cannot spend the budget: refused before any read", async () => {
    // An attack: a key granted only TXT below acme.example.com names parents of 20,000 hosts in
    // prerequisites beside one add it may make; each such filter lists 20 pages.
    for (const i of [1, 2, 3]) {
      const { out, calls } = await cost(
        [
          'prereq nxdomain n.example.com',
          'prereq nxdomain yn.example.com',
          'prereq nxdomain dyn.example.com',
          `update add t${i}.acme.example.com 60 TXT "x"`,
        ],
        gateway.nsupdateKey('narrow'),
      );
      expect(out).toMatch(/REFUSED/);
      expect(calls).toBe(0);
    }
    // A prerequisite at a leaf name is still checked, for a read of that name only.
    const leaf = await cost(
      ['prereq nxdomain free.example.com', 'update add t9.acme.example.com 60 TXT "x"'],
      gateway.nsupdateKey('narrow'),
    );
    expect({ code: leaf.code, out: leaf.out }).toEqual({ code: 0, out: '' });
    expect(leaf.calls).toBeLessThanOrEqual(3);
  });

  it('an update at names whose listings together take more pages than the zone reads the whole zone once instead', async () => {
    const pages = Math.ceil(zoneEntries().length / 1000);
    const { code, out, calls } = await cost([
      'update add dyn.example.com 300 TXT "p"',
      'update add yn.example.com 300 TXT "p"',
      'update add n.example.com 300 TXT "p"',
    ]);
    expect({ code, out }).toEqual({ code: 0, out: '' });
    // Three filtered listings of 20 pages each would be 60; the whole zone is `pages`, then 3 writes.
    expect(calls).toBeLessThanOrEqual(pages + 3);
    expect(
      zoneEntries().filter((e) => ['dyn.example.com', 'yn.example.com', 'n.example.com'].includes(e.name)).length,
    ).toBe(3);
  });

  it("warns at start when re-reading the zone's pages every --refresh would take most of the budget", async () => {
    const dir = tempDir('ddedge-gwcost-warn-');
    const { file } = writeKeysFile([{ name: 'other', rules: [] }], join(dir, 'keys'));
    const second = await startGatewayProcess({
      apiUrl: sandbox.url,
      zone: 'example.com',
      keysFile: file,
      stateDir: join(dir, 'state'),
      primaryName: null,
      args: ['--refresh', '60s'],
      env: { DDEDGE_MAX_CALLS_PER_HOUR: '3600' },
    });
    try {
      const pages = Math.ceil(zoneEntries().length / 1000);
      expect(second.stderr()).toContain(
        `re-reading 1 zone every 60s takes ${pages * 60} of the 3600 provider calls allowed an hour (${pages} pages of service/dnslist each time)`,
      );
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });
});
