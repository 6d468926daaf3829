// `ddedge gateway` (the built file) in front of the sandbox's API, driven by nsupdate: an owner
// name whose label holds a dot (`x\.y.dyn.example.com`, one label "x.y" under dyn) passes the
// zone and grant checks as text, but the provider cannot hold it. It is REFUSED before any
// provider call, so an update of another key sent at the same moment, batched with it before,
// is no longer undone with it (found by an attack on the gateway).
import { execFile } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { parseFault } from '../../../src/sandbox/faults.js';
import { HANG_BOUND_MS, waitForOutput } from '../../helpers/cli.js';
import { queryPacket, udpClient } from '../../helpers/dns-wire.js';
import { startHoldingProxy, type HoldingProxy } from '../../helpers/holding-proxy.js';
import { requireTool } from '../../helpers/programs.js';
import { aData, CLASS, outcome, rr, signed, TYPE, updateMessage } from '../../helpers/update-wire.js';
import { useGateway } from '../../helpers/use-gateway.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const TOOLS = requireTool('nsupdate', 'bind9-dnsutils');

const sandbox = useSandbox({ per: 'file' });
/** Between the gateway and the sandbox: holds a batch's read while other updates arrive. */
let proxy: HoldingProxy | undefined;
const gateway = useGateway(async () => {
  if (!TOOLS) return undefined;
  proxy = await startHoldingProxy(sandbox.url);
  return {
    apiUrl: proxy.url,
    primaryName: null,
    keys: [
      { name: 'narrow', rules: ['grant "narrow" subdomain dyn.example.com;'] },
      { name: 'router', rules: ['grant "router" subdomain home.example.com A;'] },
    ],
  };
});
afterAll(async () => {
  if (TOOLS) expect(await gateway.stop()).toBe(0);
  await proxy?.close();
});

/** Runs an nsupdate script for the zone example.com signed with `keyName`; resolves with exit code and output. */
function nsupdate(keyName: string, lines: string[]): Promise<{ code: number; out: string }> {
  const script = [`server 127.0.0.1 ${gateway.port}`, 'zone example.com', ...lines, 'send', ''].join('\n');
  return new Promise((resolve) => {
    const child = execFile(
      'nsupdate',
      ['-t', '60', '-y', gateway.nsupdateKey(keyName)],
      { timeout: HANG_BOUND_MS },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
    );
    child.stdin!.end(script);
  });
}

const names = () =>
  sandbox.model.services.find((s) => s.name === 'example.com')!.dns.map((e) => `${e.name} ${e.type} ${e.value}`);
const calls = (target: string) => sandbox.calls.get(target) ?? 0;

describe.skipIf(!TOOLS)('owner names the provider cannot hold', () => {
  it("refuses x\\.y.dyn.example.com with nothing sent to the provider, and another key's update sent with it is made", async () => {
    // A batch in progress (its zone read held at the proxy), so that the two updates below arrive
    // while it runs, as clients' updates sent at the same moment do.
    const read = proxy!.hold('service/dnslist');
    const first = nsupdate('router', ['update add one.home.example.com 60 A 192.0.2.1']);
    await read.arrived;
    const creates = calls('service/dnscreate');
    const logged = waitForOutput(gateway.child, 'stderr', (t) => /key narrow.*REFUSED/.test(t));
    // nsupdate checks names itself unless told not to, as the attacker's own packets did not.
    const dotted = await nsupdate('narrow', ['check-names no', 'update add x\\.y.dyn.example.com 60 A 192.0.2.66']);
    const other = nsupdate('router', ['update add two.home.example.com 60 A 192.0.2.2']);
    expect(dotted.code, dotted.out).not.toBe(0);
    expect(dotted.out).toMatch(/REFUSED/);
    expect(await logged).toMatch(/x\\\.y\.dyn\.example\.com names no host name/);
    read.release();
    expect((await first).code).toBe(0);
    const made = await other;
    expect(made.code, made.out).toBe(0);
    // The two creates of the router's updates, no more: the dotted name never reached the provider.
    expect(calls('service/dnscreate')).toBe(creates + 2);
    expect(names()).toEqual(
      expect.arrayContaining(['one.home.example.com A 192.0.2.1', 'two.home.example.com A 192.0.2.2']),
    );
    expect(names().filter((n) => n.includes('dyn'))).toEqual([]);
  });

  it("tells an update batched with a failing write of another key that its batch failed, not that key's record", async () => {
    expect((await nsupdate('narrow', ['update add a.dyn.example.com 60 A 192.0.2.9'])).code).toBe(0);
    // The router's delete is made while its zone read is held at the proxy; the two updates below
    // arrive meanwhile, in order from one socket (a query after them shows both were taken), and
    // are batched together.
    const read = proxy!.hold('service/dnslist');
    const first = nsupdate('router', ['update delete one.home.example.com A']);
    await read.arrived;
    // The first create the provider is asked for fails: the router's, in the batch after.
    sandbox.faults.push(parseFault('service/dnscreate=500x1'));
    const lines: string[] = [];
    const logged = waitForOutput(gateway.child, 'stderr', (t) => {
      lines.splice(0, lines.length, ...t.split('\n').filter((l) => /key (narrow|router).*SERVFAIL/.test(l)));
      return lines.length >= 2;
    });
    const udp = udpClient(gateway.port);
    try {
      const narrow = udp.ask(
        signed(
          updateMessage({ id: 21, updates: [rr('a.dyn.example.com', TYPE.A, CLASS.ANY, 0)] }),
          gateway.keys.get('narrow')!,
        ),
      );
      const router = udp.ask(
        signed(
          updateMessage({ id: 22, updates: [rr('four.home.example.com', TYPE.A, CLASS.IN, 60, aData('192.0.2.4'))] }),
          gateway.keys.get('router')!,
        ),
      );
      await udp.ask(queryPacket({ id: 23, name: 'example.com', type: TYPE.SOA }));
      read.release();
      expect((await first).code).toBe(0);
      expect(outcome(await narrow).rcode).toBe(2);
      expect(outcome(await router).rcode).toBe(2);
    } finally {
      read.release();
      udp.close();
    }
    await logged;
    const [narrowLine] = lines.filter((l) => l.includes('key narrow'));
    const [routerLine] = lines.filter((l) => l.includes('key router'));
    // A 500 does not say whether the create was made: the zone is read again, and holds none of the batch's writes.
    expect(narrowLine).toMatch(
      /the provider failed a write of another update sent at the same time(; the writes made before it were undone|; the zone read again holds none of the batch's writes: nothing was changed)?; send it again$/,
    );
    expect(narrowLine).not.toMatch(/four|192\.0\.2\.4|dnscreate/);
    expect(routerLine).toMatch(/the provider failed a write \(.*dnscreate/);
    // Undone: the narrow key's record is back, the router's is not there.
    expect(names()).toContain('a.dyn.example.com A 192.0.2.9');
    expect(names().filter((n) => n.startsWith('four.'))).toEqual([]);
  });
});
