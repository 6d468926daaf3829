// Provider writes whose answer is lost (the sandbox's lost-answer fault: the change is made, then
// the connection reset) and a gateway killed in the middle of a batch, with BIND's nsupdate and
// the built gateway. An attack found an update half-made: the unanswered create stayed at the
// provider, the answered one was undone, the client was told its writes were undone and the
// journal said nothing. Now the gateway reads the zone again and answers by what it holds
// (both records, or neither), and the journal brackets every batch's writes with an intent and a
// result, so a kill -9 between them is found and reconciled at the next start.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFault } from '../../../src/sandbox/faults.js';
import { keygenText } from '../../../src/gateway/keys/keygen.js';
import { tempDir } from '../../helpers/cli.js';
import { startHoldingProxy, type HoldingProxy } from '../../helpers/holding-proxy.js';
import { requireTool } from '../../helpers/programs.js';
import { startGatewayProcess, waitFor, type GatewayProcess } from '../../helpers/use-gateway.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const TOOLS = requireTool('nsupdate', 'bind9-dnsutils');

const sandbox = useSandbox({ per: 'file' });
let gateway: GatewayProcess['child'] | undefined;
let port: number;
let dir: string;
let keysFile: string;
let secret: string;

let running: GatewayProcess | undefined;
/** Between the gateway and the sandbox: holds a write the test chooses. */
let proxy: HoldingProxy;
async function startGateway(): Promise<number> {
  running = await startGatewayProcess({
    apiUrl: proxy.url,
    zone: 'example.com',
    keysFile,
    stateDir: join(dir, 'state'),
    args: ['--refresh', '1h'],
  });
  gateway = running.child;
  return running.port;
}
/** What the gateway now running has said on stderr. */
const stderr = () => running?.stderr() ?? '';

/** Runs an nsupdate script signed with the admin key; resolves with its exit code and output. */
function nsupdate(lines: string[]): Promise<{ code: number; out: string }> {
  const script = [`server 127.0.0.1 ${port}`, 'zone example.com', ...lines, 'send', ''].join('\n');
  return new Promise((resolve) => {
    const child = execFile(
      'nsupdate',
      ['-t', '20', '-y', `hmac-sha256:admin:${secret}`],
      { timeout: 40_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
    );
    child.stdin!.end(script);
  });
}

/** The provider's records below `under` (the sandbox's model, what service/dnslist returns). */
const zone = (under: string): string[] =>
  sandbox.model.services
    .find((s) => s.name === 'example.com')!
    .dns.filter((e) => e.name.endsWith(under))
    .map((e) => `${e.name} ${e.type} ${e.value}`)
    .sort();

interface JournalLine {
  intent?: string;
  result?: string;
  outcome?: string;
  reconciled?: string;
  key: string;
  changes: { action: string; name: string; type: string; after?: string }[];
  holds?: { name: string; type: string; values: string[] }[];
}
const journal = (): JournalLine[] => {
  const path = join(dir, 'state', 'gateway', 'journal.jsonl');
  return existsSync(path)
    ? readFileSync(path, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as JournalLine)
    : [];
};
/** The journal's lines about the update that changed `name`. */
const linesAbout = (name: string) =>
  journal().filter((l) => l.changes.some((c) => c.name === name) || l.holds?.some((h) => h.name === name));

beforeAll(async () => {
  if (!TOOLS) return;
  dir = tempDir('ddedge-lost-');
  keysFile = join(dir, 'gateway.keys');
  const text = keygenText('admin', 'hmac-sha256');
  secret = /secret "([^"]+)"/.exec(text)![1]!;
  writeFileSync(keysFile, `${text}grant "admin" zonesub;\n`, { mode: 0o600 });
  proxy = await startHoldingProxy(sandbox.url);
  port = await startGateway();
});

afterAll(async () => {
  gateway?.kill('SIGTERM');
  await gateway?.result;
  await proxy?.close();
});

describe.skipIf(!TOOLS)('a provider write whose answer is lost', () => {
  it('a two-record add whose second create is made but unanswered leaves both records, answered NOERROR, with intent and result in the journal', async () => {
    // The two creates go side by side; the first to arrive is made and its answer lost.
    sandbox.faults.push(parseFault('service/dnscreate=lost-answerx1'));
    const sent = await nsupdate([
      'update add two.lost.example.com 300 A 192.0.2.1',
      'update add two.lost.example.com 300 TXT "second"',
    ]);
    expect(sandbox.faults.at(-1)!.remaining).toBe(0);
    // Both or neither, and the answer says which: both are there, so NOERROR.
    expect(zone('two.lost.example.com')).toEqual([
      'two.lost.example.com A 192.0.2.1',
      'two.lost.example.com TXT second',
    ]);
    expect(sent.code, sent.out).toBe(0);
    const lines = linesAbout('two.lost.example.com');
    const intent = lines.find((l) => l.intent);
    expect(intent?.changes.map((c) => `${c.action} ${c.type}`).sort()).toEqual(['create A', 'create TXT']);
    expect(lines.find((l) => l.result === intent!.intent)).toMatchObject({ outcome: 'made', key: 'admin' });
    // The log line may reach this side after nsupdate's answer: waited for, not read at once.
    await running!.logged(
      /answer of the provider to a write of example\.com was lost; read again, the zone holds 2 of the batch's 2 writes/,
    );
  });

  it('an add whose create is not made (the connection reset before it) leaves neither record, answered SERVFAIL saying nothing was changed, journaled as not made', async () => {
    sandbox.faults.push(parseFault('service/dnscreate=resetx1'));
    const sent = await nsupdate([
      'update add none.lost.example.com 300 A 192.0.2.2',
      'update add none.lost.example.com 300 TXT "other"',
    ]);
    expect(zone('none.lost.example.com')).toEqual([]);
    expect(sent.out).toMatch(/SERVFAIL/);
    const lines = linesAbout('none.lost.example.com');
    const intent = lines.find((l) => l.intent);
    expect(lines.find((l) => l.result === intent?.intent)).toMatchObject({ outcome: 'not made' });
  });

  it('one create made but unanswered, the other refused, and undoing the first fails: SERVFAIL, and the journal says what the provider holds', async () => {
    // The first create to arrive is made and its answer lost, the second refused; the delete that would undo the first fails.
    sandbox.faults.push(
      parseFault('service/dnscreate=lost-answerx1'),
      parseFault('service/dnscreate=refusex1'),
      parseFault('service/dnsdelete=500x1'),
    );
    const sent = await nsupdate([
      'update add part.lost.example.com 300 A 192.0.2.4',
      'update add part.lost.example.com 300 TXT "part"',
    ]);
    expect(sandbox.faults.slice(-3).map((f) => f.remaining)).toEqual([0, 0, 0]);
    const held = zone('part.lost.example.com');
    expect(held).toHaveLength(1);
    expect(sent.out).toMatch(/SERVFAIL/);
    const lines = linesAbout('part.lost.example.com');
    const intent = lines.find((l) => l.intent)!;
    const result = lines.find((l) => l.result === intent.intent)!;
    expect(result).toMatchObject({ outcome: 'partly made' });
    const says = result
      .holds!.flatMap((h) => h.values.map((v) => `${h.name} ${h.type} ${v.split(' ').slice(1).join(' ')}`))
      .sort();
    expect(says).toEqual(held);
  });

  it('kill -9 between the intent and the result: the next start warns and journals what the provider holds for those names', async () => {
    // The first create to arrive is held at the proxy; the other is made at once. The gateway is killed meanwhile.
    const hold = proxy.hold('service/dnscreate');
    const sent = nsupdate([
      'update add killed.lost.example.com 300 A 192.0.2.3',
      'update add killed.lost.example.com 300 TXT "killed"',
    ]);
    await hold.arrived;
    await waitFor(
      () => linesAbout('killed.lost.example.com').some((l) => l.intent) && zone('killed.lost.example.com').length === 1,
      'the intent line and the create not held',
    );
    expect(linesAbout('killed.lost.example.com').filter((l) => l.intent)).toHaveLength(1);
    gateway!.kill('SIGKILL');
    await gateway!.result;
    await sent;
    // The held create is never made: its caller is gone.
    hold.drop();
    const held = zone('killed.lost.example.com');
    expect(held).toHaveLength(1);
    expect(linesAbout('killed.lost.example.com').some((l) => l.result)).toBe(false);

    port = await startGateway();
    const intent = linesAbout('killed.lost.example.com').find((l) => l.intent)!;
    expect(stderr()).toMatch(
      new RegExp(`warn: .*the journal holds the intent of batch ${intent.intent} of example\\.com .* and no result`),
    );
    expect(stderr()).toMatch(
      new RegExp(
        `batch ${intent.intent} of example\\.com, key admin: partly made; the provider holds killed\\.lost\\.example\\.com`,
      ),
    );
    const result = linesAbout('killed.lost.example.com').find((l) => l.result === intent.intent)!;
    expect(result).toMatchObject({ outcome: 'partly made', reconciled: 'at start' });
    // What it says is what the provider holds.
    const says = result
      .holds!.flatMap((h) => h.values.map((v) => `${h.name} ${h.type} ${v.split(' ').slice(1).join(' ')}`))
      .sort();
    expect(says).toEqual(held);
    // Closed: the start after it has nothing to reconcile.
    gateway!.kill('SIGTERM');
    await gateway!.result;
    port = await startGateway();
    expect(stderr()).not.toMatch(/the journal holds the intent/);
  });

  it('kill -9 before an add with a DHCID is made: at the next start its DHCID is taken back, so the empty name is not held against other clients', async () => {
    const dhcid = Buffer.from(`000101${'7b'.repeat(32)}`, 'hex').toString('base64');
    // The create is held at the proxy and never made (the gateway is gone); the DHCID was saved before it.
    const hold = proxy.hold('service/dnscreate');
    const sent = nsupdate([
      'update add lease.lost.example.com 300 A 192.0.2.5',
      `update add lease.lost.example.com 300 DHCID ${dhcid}`,
    ]);
    await hold.arrived;
    await waitFor(() => linesAbout('lease.lost.example.com').some((l) => l.intent), 'the intent line');
    expect(readFileSync(join(dir, 'state', 'gateway', 'dhcid.json'), 'utf8')).toContain('lease.lost.example.com');
    gateway!.kill('SIGKILL');
    await gateway!.result;
    await sent;
    hold.drop();
    expect(zone('lease.lost.example.com')).toEqual([]);

    port = await startGateway();
    const intent = linesAbout('lease.lost.example.com').find((l) => l.intent)!;
    expect(stderr()).toMatch(new RegExp(`batch ${intent.intent} of example.com, key admin: not made`));
    expect(linesAbout('lease.lost.example.com').find((l) => l.result === intent.intent)).toMatchObject({
      outcome: 'not made',
      reconciled: 'at start',
      holds: [
        { name: 'lease.lost.example.com', type: 'A', values: [] },
        { name: 'lease.lost.example.com', type: 'DHCID', values: [] },
      ],
    });
    expect(readFileSync(join(dir, 'state', 'gateway', 'dhcid.json'), 'utf8')).not.toContain('lease.lost.example.com');
    // The name is free: an add that needs it unused succeeds.
    const claimed = await nsupdate([
      'prereq nxdomain lease.lost.example.com',
      'update add lease.lost.example.com 300 A 192.0.2.6',
    ]);
    expect(claimed.code, claimed.out).toBe(0);
  });
});
