// `ddedge gateway` (the built file) in front of the sandbox's API, driven by nsupdate: an owner
// name whose label holds a dot (`x\.y.dyn.example.com`, one label "x.y" under dyn) passes the
// zone and grant checks as text, but the provider cannot hold it. It is REFUSED before any
// provider call, so an update of another key sent at the same moment, batched with it before,
// is no longer undone with it (found by an attack on the gateway).
import { execFile } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { parseFault } from '../../../src/sandbox/faults.js';
import { waitForOutput } from '../../helpers/cli.js';
import { requireTool } from '../../helpers/programs.js';
import { useGateway } from '../../helpers/use-gateway.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const TOOLS = requireTool('nsupdate', 'bind9-dnsutils');

const sandbox = useSandbox({ per: 'file' });
const gateway = useGateway(() =>
  TOOLS
    ? {
        apiUrl: sandbox.url,
        primaryName: null,
        keys: [
          { name: 'narrow', rules: ['grant "narrow" subdomain dyn.example.com;'] },
          { name: 'router', rules: ['grant "router" subdomain home.example.com A;'] },
        ],
      }
    : undefined,
);
afterAll(async () => {
  if (TOOLS) expect(await gateway.stop()).toBe(0);
});

/** Runs an nsupdate script for the zone example.com signed with `keyName`; resolves with exit code and output. */
function nsupdate(keyName: string, lines: string[]): Promise<{ code: number; out: string }> {
  const script = [`server 127.0.0.1 ${gateway.port}`, 'zone example.com', ...lines, 'send', ''].join('\n');
  return new Promise((resolve) => {
    const child = execFile(
      'nsupdate',
      ['-t', '8', '-y', gateway.nsupdateKey(keyName)],
      { timeout: 20_000 },
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
    // A batch in progress (its zone read slowed), so that the two updates below arrive while it runs
    // and are batched together after it, as clients' updates sent at the same moment are.
    sandbox.faults.push(parseFault('service/dnslist=slow:2500x1'));
    const reads = calls('service/dnslist');
    const first = nsupdate('router', ['update add one.home.example.com 60 A 192.0.2.1']);
    for (let i = 0; i < 400 && calls('service/dnslist') === reads; i++) await new Promise((r) => setTimeout(r, 25));
    expect(calls('service/dnslist')).toBeGreaterThan(reads);
    const creates = calls('service/dnscreate');
    const logged = waitForOutput(gateway.child, 'stderr', (t) => /key narrow.*REFUSED/.test(t), 20_000);
    // nsupdate checks names itself unless told not to, as the attacker's own packets did not.
    const [dotted, other] = await Promise.all([
      nsupdate('narrow', ['check-names no', 'update add x\\.y.dyn.example.com 60 A 192.0.2.66']),
      nsupdate('router', ['update add two.home.example.com 60 A 192.0.2.2']),
    ]);
    expect((await first).code).toBe(0);
    expect(dotted.code, dotted.out).not.toBe(0);
    expect(dotted.out).toMatch(/REFUSED/);
    expect(await logged).toMatch(/x\\\.y\.dyn\.example\.com names no host name/);
    expect(other.code, other.out).toBe(0);
    // The two creates of the router's updates, no more: the dotted name never reached the provider.
    expect(calls('service/dnscreate')).toBe(creates + 2);
    expect(names()).toEqual(
      expect.arrayContaining(['one.home.example.com A 192.0.2.1', 'two.home.example.com A 192.0.2.2']),
    );
    expect(names().filter((n) => n.includes('dyn'))).toEqual([]);
  });

  it("tells an update batched with a failing write of another key that its batch failed, not that key's record", async () => {
    expect((await nsupdate('narrow', ['update add a.dyn.example.com 60 A 192.0.2.9'])).code).toBe(0);
    // The router's delete is written while the zone read is slowed; the two updates below arrive meanwhile and are batched together.
    sandbox.faults.push(parseFault('service/dnslist=slow:2500x1'));
    const reads = calls('service/dnslist');
    const first = nsupdate('router', ['update delete one.home.example.com A']);
    for (let i = 0; i < 400 && calls('service/dnslist') === reads; i++) await new Promise((r) => setTimeout(r, 25));
    expect(calls('service/dnslist')).toBeGreaterThan(reads);
    // The first create the provider is asked for fails: the router's, in the batch after.
    sandbox.faults.push(parseFault('service/dnscreate=500x1'));
    const lines: string[] = [];
    const logged = waitForOutput(
      gateway.child,
      'stderr',
      (t) => (
        lines.splice(0, lines.length, ...t.split('\n').filter((l) => /key (narrow|router).*SERVFAIL/.test(l))),
        lines.length >= 2
      ),
      20_000,
    );
    const [narrow, router] = await Promise.all([
      nsupdate('narrow', ['update delete a.dyn.example.com A']),
      nsupdate('router', ['update add four.home.example.com 60 A 192.0.2.4']),
    ]);
    expect((await first).code).toBe(0);
    expect(narrow.out).toMatch(/SERVFAIL/);
    expect(router.out).toMatch(/SERVFAIL/);
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
