// A refresh reads the whole zone, page after page (20 here, slowed to take about as long as the
// --refresh interval). An update made while one is under way was answered NOERROR and shown,
// then the refresh ended and showed its older listing over it: the old value was answered, with
// a new serial and a NOTIFY, until the next refresh. Now what an update showed stays until a
// reading begun after it. Every round: change h1's address, then ask the gateway again and again
// until the refresh under way at the update has ended (the sandbox served a refresh's pages and
// the update's own reads since), and never see another value.
import { execFile } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DnsEntry } from '../../../src/api/endpoints/service.js';
import { parseFault } from '../../../src/sandbox/faults.js';
import { HANG_BOUND_MS } from '../../helpers/cli.js';
import { queryPacket, readAnswer, udpExchange } from '../../helpers/dns-wire.js';
import { requireTool } from '../../helpers/programs.js';
import { useGateway } from '../../helpers/use-gateway.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const TOOLS = requireTool('nsupdate', 'bind9-dnsutils');
const ZONE_SIZE = 20_000;
const ROUNDS = 6;
/** Pages of service/dnslist one refresh reads (1,000 entries a page). */
const PAGES = ZONE_SIZE / 1000;
const pagesRead = () => sandbox.calls.get('service/dnslist') ?? 0;

const sandbox = useSandbox({ per: 'file' });
const zoneEntries = (): DnsEntry[] => sandbox.model.services.find((s) => s.name === 'example.com')!.dns;

function nsupdate(lines: string[]): Promise<{ code: number; out: string }> {
  const script = [`server 127.0.0.1 ${gateway.port}`, 'zone example.com', ...lines, 'send', ''].join('\n');
  return new Promise((resolve) => {
    const child = execFile(
      'nsupdate',
      ['-t', '20', '-y', gateway.nsupdateKey('admin')],
      { timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
    );
    child.stdin!.end(script);
  });
}

const answered = async (): Promise<string[]> =>
  readAnswer(await udpExchange(gateway.port, queryPacket({ name: 'h1.example.com', type: 1 }))).answers.map((r) =>
    String(r.value),
  );

const gateway = useGateway(() => {
  if (!TOOLS) return undefined;
  sandbox.model.services.find((s) => s.name === 'example.com')!.productkey = 'corporate';
  const dns = zoneEntries();
  for (let i = 0; dns.length < ZONE_SIZE; i++)
    dns.push({
      entityID: String(900_000 + i),
      name: `h${i}.example.com`,
      type: 'A',
      ttl: '300',
      priority: '-',
      value: `10.0.${(i >> 8) & 255}.${i & 255}`,
    });
  return {
    apiUrl: sandbox.url,
    primaryName: null,
    args: ['--refresh', '2s'],
    env: { DDEDGE_MAX_CALLS_PER_HOUR: '3600' },
    keys: [{ name: 'admin', rules: ['grant "admin" zonesub;'] }],
  };
});
beforeAll(() => {
  if (!TOOLS) return;
  // From now on each page takes 100 ms: a refresh (20 pages) is under way most of the time.
  sandbox.faults.push(parseFault('service/dnslist=slow:100x100000'));
});

describe.skipIf(!TOOLS)('a refresh under way while an update is made', () => {
  it('never shows its older listing over the update: the new value is answered from NOERROR on', async () => {
    const seen: string[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const address = `192.0.2.${10 + round}`;
      expect(await nsupdate(['update delete h1.example.com A', `update add h1.example.com 300 A ${address}`])).toEqual({
        code: 0,
        out: '',
      });
      const reads = pagesRead();
      const deadline = Date.now() + HANG_BOUND_MS;
      for (let poll = 0; pagesRead() < reads + PAGES + 3; poll++) {
        if (Date.now() > deadline) throw new Error(`no refresh ended after round ${round}'s update`);
        const now = (await answered()).join(',');
        if (now !== address)
          seen.push(
            `round ${round}, ask ${poll}: ${now} (the provider holds ${zoneEntries()
              .filter((e) => e.name === 'h1.example.com')
              .map((e) => e.value)
              .join(',')})`,
          );
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    expect(seen).toEqual([]);
  });
});
