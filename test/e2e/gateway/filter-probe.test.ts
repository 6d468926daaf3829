// The gateway reads an update's names through service/dnslist's `filter`, taken as a substring
// of the full name. The spec says only "filter O": a provider matching it against the name
// relative to the zone answered every filtered reading empty and complete, so a delete was a
// no-op answered NOERROR and an add made a duplicate. At start the gateway now checks the filter
// on a name the zone holds, and reads that zone whole when the filter does not find it. The
// provider here is the sandbox behind a small proxy that matches `filter` on relative names.
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import type { DnsEntry } from '../../../src/api/endpoints/service.js';
import { requireTool } from '../../helpers/programs.js';
import { useGateway } from '../../helpers/use-gateway.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const TOOLS = requireTool('nsupdate', 'bind9-dnsutils');
/** Two pages: a one-name update reads its name filtered, not the whole zone. */
const ZONE_SIZE = 2_000;

const sandbox = useSandbox({ per: 'file' });
let proxy: Server;

const zoneEntries = (): DnsEntry[] => sandbox.model.services.find((s) => s.name === 'example.com')!.dns;
const at = (name: string) =>
  zoneEntries()
    .filter((e) => e.name === name)
    .map((e) => `${e.type} ${e.value}`);

/** The sandbox, except that service/dnslist's filter is matched against the name relative to the zone. */
function relativeFilterProxy(target: string): Promise<Server> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      void (async () => {
        const form = new URLSearchParams(body);
        const filter = form.get('filter');
        if (req.url?.startsWith('/service/dnslist') && filter) {
          const zone = form.get('serviceName')!;
          const relative = (n: string) =>
            n === zone ? '@' : n.endsWith(`.${zone}`) ? n.slice(0, -zone.length - 1) : n;
          const hit = zoneEntries().filter((e) => relative(e.name).toLowerCase().includes(filter.toLowerCase()));
          const out = {
            success: true,
            errorCode: 0,
            errorCodeMsg: '',
            action: 'service/dnslist',
            version: '1.0.26',
            messages: [],
            responseData: {
              queryInfo: { page: 1, pageLength: 1000, results: hit.length, total: hit.length },
              dns: hit.slice(0, 1000),
            },
          };
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out));
          return;
        }
        const answer = await fetch(`${target}${req.url}`, {
          method: req.method,
          body: req.method === 'POST' ? body : undefined,
          headers: { 'content-type': req.headers['content-type'] ?? 'application/x-www-form-urlencoded' },
        });
        res
          .writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' })
          .end(Buffer.from(await answer.arrayBuffer()));
      })();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

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

const gateway = useGateway(async () => {
  if (!TOOLS) return undefined;
  sandbox.model.services.find((s) => s.name === 'example.com')!.productkey = 'corporate';
  const dns = zoneEntries();
  dns.push({ entityID: '700000', name: 'www2.example.com', type: 'A', ttl: '300', priority: '-', value: '192.0.2.80' });
  for (let i = 0; dns.length < ZONE_SIZE; i++)
    dns.push({
      entityID: String(900_000 + i),
      name: `h${i}.example.com`,
      type: 'A',
      ttl: '300',
      priority: '-',
      value: `10.0.${(i >> 8) & 255}.${i & 255}`,
    });
  proxy = await relativeFilterProxy(sandbox.url);
  return {
    apiUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    primaryName: null,
    args: ['--refresh', '1h'],
    keys: [{ name: 'admin', rules: ['grant "admin" zonesub;'] }],
  };
});
afterAll(async () => {
  await gateway.stop();
  proxy?.close();
});

describe.skipIf(!TOOLS)("a provider whose dnslist filter does not find a name's entries", () => {
  it('is noticed at start, said once, and updates are judged against the zone read whole', async () => {
    const taken = await nsupdate([
      'prereq nxdomain www2.example.com',
      'update add flag.example.com 60 TXT "nx passed"',
    ]);
    expect(taken.out).toMatch(/YXDOMAIN/);
    expect(at('flag.example.com')).toEqual([]);
    expect(await nsupdate(['update delete www2.example.com A'])).toEqual({ code: 0, out: '' });
    expect(at('www2.example.com')).toEqual([]);
    expect(await nsupdate(['update add www2.example.com 300 A 192.0.2.80'])).toEqual({ code: 0, out: '' });
    expect(await nsupdate(['update add www2.example.com 300 A 192.0.2.80'])).toEqual({ code: 0, out: '' });
    expect(at('www2.example.com')).toEqual(['A 192.0.2.80']);
    expect(gateway.stderr()).toMatch(
      /example\.com: service\/dnslist with filter \S+ listed 0 of the \d+ entries the zone holds there: .* reads the whole zone instead/,
    );
    expect(gateway.stderr().match(/does not find a name's entries/g)).toHaveLength(1);
  });
});
