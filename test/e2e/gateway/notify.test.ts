// gateway --notify takes two kinds of value, told apart by form: HOST[:PORT] is a DNS secondary
// sent an RFC 1996 NOTIFY, a URL (scheme://…) is told, as daemon --notify URLs are, of a burst of
// refused updates (not of each one) and of a zone changed at the provider behind the gateway's
// back (not of the gateway's own updates). The URL is a secret: never in the log.
// "Not told" is checked against a later event: a record added behind the gateway's back makes a
// zone-changed notification, which is sent after any notification the earlier steps made.
import { execFile } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, HANG_BOUND_MS, runDist } from '../../helpers/cli.js';
import { queryPacket, readAnswer, udpExchange } from '../../helpers/dns-wire.js';
import { requireTool } from '../../helpers/programs.js';
import { startServer, type TestServer } from '../../helpers/servers.js';
import { useGateway, waitFor } from '../../helpers/use-gateway.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const TOOLS = requireTool('nsupdate', 'bind9-dnsutils');
const SECRET_PATH = 'hook-Sec7etPathQx';
let receiver: TestServer;
let secondary: Socket;
const notifies: Buffer[] = [];

function nsupdate(dnsPort: number, args: string[], lines: string[]): Promise<number> {
  const script = [`server 127.0.0.1 ${dnsPort}`, 'zone example.com', ...lines, 'send', ''].join('\n');
  return new Promise((resolve) => {
    const child = execFile('nsupdate', ['-t', '60', ...args], { timeout: HANG_BOUND_MS }, (error) =>
      resolve(error ? 1 : 0),
    );
    child.stdin!.end(script);
  });
}
const events = () =>
  receiver.requests
    .filter((r) => r.url === `/${SECRET_PATH}`)
    .map((r) => JSON.parse(r.body) as Record<string, string | null>);
const zoneChanged = () => events().filter((e) => e.event === 'zone-changed');

describe.skipIf(!TOOLS)('gateway --notify URL', () => {
  const sandbox = useSandbox({ per: 'file' });
  beforeAll(async () => {
    receiver = await startServer((_req, res) => res.end('{}'));
    secondary = createSocket('udp4');
    secondary.on('message', (packet) => notifies.push(packet));
    await new Promise<void>((r) => secondary.bind(0, '127.0.0.1', r));
  });
  const gateway = useGateway(() => ({
    apiUrl: sandbox.url,
    primaryName: null,
    args: [
      '--refresh',
      '1s',
      '--notify',
      `${receiver.url}${SECRET_PATH}`,
      '--notify',
      `127.0.0.1:${secondary.address().port}`,
    ],
    keys: [{ name: 'admin', rules: ['grant "admin" zonesub;'] }],
  }));
  afterAll(async () => {
    await gateway.stop();
    secondary?.close();
    await receiver?.close();
  });
  const adminSecret = () => gateway.secret('admin');

  it('the start log names the service and host of the URL, never the URL', () => {
    expect(gateway.stderr()).toMatch(
      /gateway: notifications of refused-update bursts and zones changed elsewhere to webhook at 127\.0\.0\.1:\d+/,
    );
    expect(gateway.stderr()).not.toContain(SECRET_PATH);
  });

  /** Adds a record at the provider behind the gateway's back and waits for its zone-changed notification. */
  let behind = 0;
  const changeBehind = async () => {
    const told = zoneChanged().length;
    behind++;
    sandbox.model.services
      .find((s) => s.name === 'example.com')!
      .dns.push({
        entityID: String(710_000 + behind),
        name: `behind${behind}.example.com`,
        type: 'TXT',
        ttl: '300',
        priority: '-',
        value: 'made elsewhere',
      });
    await waitFor(() => zoneChanged().length > told, `a zone-changed notification for behind${behind}.example.com`);
  };
  const serial = async () => {
    const soa = readAnswer(
      await udpExchange(gateway.port, queryPacket({ name: 'example.com', type: 6 }), HANG_BOUND_MS),
    ).answers[0]!;
    return (soa.value as { serial: number }).serial;
  };

  it("the gateway's own update is not a zone changed elsewhere; the secondary gets its NOTIFY; a record added at the provider is told, once", async () => {
    expect(
      await nsupdate(
        gateway.port,
        ['-y', gateway.nsupdateKey('admin')],
        ['update add own.example.com 120 A 192.0.2.50'],
      ),
    ).toBe(0);
    const own = await serial();
    await waitFor(() => notifies.length > 0, 'a NOTIFY at the secondary');
    // The NOTIFY opcode (4) in the secondary's packet: HOST:PORT still means a secondary.
    expect((notifies[0]![2]! >> 3) & 0xf).toBe(4);
    // Refreshes read the gateway's own record; then a record added at the provider is told, and
    // it is the only zone-changed notification: its old serial is the one after the own update.
    const reads = sandbox.calls.get('service/dnslist') ?? 0;
    await waitFor(() => (sandbox.calls.get('service/dnslist') ?? 0) >= reads + 2, 'a refresh after the update');
    await changeBehind();
    const changed = zoneChanged();
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatchObject({
      event: 'zone-changed',
      host: 'example.com',
      old: String(own),
      new: expect.stringMatching(/^\d+$/),
      message: expect.stringContaining('not through the gateway'),
    });
    expect(Number(changed[0]!.new)).toBeGreaterThan(own);
  });

  it('refused updates are told as one burst, not one by one', async () => {
    const refused = () => events().filter((e) => e.event === 'refused');
    for (let i = 0; i < 4; i++)
      expect(await nsupdate(gateway.port, [], [`update add nokey${i}.example.com 120 A 192.0.2.51`])).not.toBe(0);
    await changeBehind();
    expect(refused()).toEqual([]);
    for (let i = 4; i < 8; i++)
      expect(await nsupdate(gateway.port, [], [`update add nokey${i}.example.com 120 A 192.0.2.51`])).not.toBe(0);
    await changeBehind();
    expect(refused()).toHaveLength(1);
    // Unsigned: counted under the client's address, told as the digest of refusals without a verified key.
    expect(refused()[0]).toMatchObject({
      event: 'refused',
      host: null,
      key: null,
      message: expect.stringContaining(
        '5 refused without a verified key since the gateway started; the most from 127.0.0.1 (5)',
      ),
    });
    expect(JSON.stringify(events())).not.toContain(adminSecret());
    expect(gateway.stderr()).not.toContain(SECRET_PATH);
  });

  it('gateway --help says how the two forms are told apart', async () => {
    const help = await runDist(['gateway', '--help'], baseEnv());
    expect(help.stdout).toMatch(/told apart by form/);
    expect(help.stdout).toMatch(/scheme:\/\//);
  });
});
