// A refresh reads the whole zone, page after page (20 here, slowed to take about as long as the
// --refresh interval). An update made while one is under way was answered NOERROR and shown,
// then the refresh ended and showed its older listing over it: the old value was answered, with
// a new serial and a NOTIFY, until the next refresh. Now what an update showed stays until a
// reading begun after it. Every round: change h1's address, then ask the gateway every 100 ms
// for 2.5 s (past a refresh's end) and never see another value.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DnsEntry } from '../../src/api/endpoints/service.js';
import { keygenText } from '../../src/gateway/keygen.js';
import { parseFault } from '../../src/sandbox/faults.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { baseEnv, startDist, tempDir, waitForOutput } from '../helpers/cli.js';
import { queryPacket, readAnswer, udpExchange } from '../helpers/dns-wire.js';
import { hasProgram } from '../helpers/pebble.js';

const TOOLS = hasProgram('nsupdate', 'bind9-dnsutils');
const ZONE_SIZE = 20_000;
const ROUNDS = 6;

let sandbox: Sandbox;
let gateway: ReturnType<typeof startDist>;
let port: number;
let secret: string;

const zoneEntries = (): DnsEntry[] => sandbox.model.services.find((s) => s.name === 'example.com')!.dns;

function nsupdate(lines: string[]): Promise<{ code: number; out: string }> {
  const script = [`server 127.0.0.1 ${port}`, 'zone example.com', ...lines, 'send', ''].join('\n');
  return new Promise((resolve) => {
    const child = execFile('nsupdate', ['-t', '20', '-y', secret], { timeout: 60_000 }, (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: stdout + stderr }));
    child.stdin!.end(script);
  });
}

const answered = async (): Promise<string[]> => readAnswer(await udpExchange(port, queryPacket({ name: 'h1.example.com', type: 1 }))).answers.map((r) => String(r.value));

beforeAll(async () => {
  if (!TOOLS) return;
  sandbox = await startSandbox({});
  sandbox.model.services.find((s) => s.name === 'example.com')!.productkey = 'corporate';
  const dns = zoneEntries();
  for (let i = 0; dns.length < ZONE_SIZE; i++) dns.push({ entityID: String(900_000 + i), name: `h${i}.example.com`, type: 'A', ttl: '300', priority: '-', value: `10.0.${(i >> 8) & 255}.${i & 255}` });
  const dir = tempDir('ddedge-gwrace-');
  const keyText = keygenText('admin', 'hmac-sha256');
  secret = `hmac-sha256:admin:${/secret "([^"]+)"/.exec(keyText)![1]}`;
  writeFileSync(join(dir, 'keys'), `${keyText}grant "admin" zonesub;\n`, { mode: 0o600 });
  gateway = startDist(
    ['gateway', '--zone', 'example.com', '--keys', join(dir, 'keys'), '--dns-listen', '127.0.0.1:0', '--state-dir', join(dir, 'state'), '--refresh', '2s'],
    baseEnv({ DDEDGE_API_URL: sandbox.url, DDEDGE_API_USER: 'demo-user', DDEDGE_API_PASSWORD: 'demo-api-password', DDEDGE_MAX_CALLS_PER_HOUR: '3600' }),
  );
  const text = await waitForOutput(gateway, 'stderr', (t) => /answering DNS .* on 127\.0\.0\.1:\d+/.test(t), 60_000);
  port = Number(/on 127\.0\.0\.1:(\d+)/.exec(text)![1]);
  // From now on each page takes 100 ms: a refresh (20 pages) is under way most of the time.
  sandbox.faults.push(parseFault('service/dnslist=slow:100x100000'));
}, 90_000);
afterAll(async () => {
  gateway?.kill('SIGTERM');
  await sandbox?.close();
});

describe.skipIf(!TOOLS)('a refresh under way while an update is made', () => {
  it('never shows its older listing over the update: the new value is answered from NOERROR on', async () => {
    const seen: string[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const address = `192.0.2.${10 + round}`;
      expect(await nsupdate(['update delete h1.example.com A', `update add h1.example.com 300 A ${address}`])).toEqual({ code: 0, out: '' });
      for (let poll = 0; poll < 25; poll++) {
        const now = (await answered()).join(',');
        if (now !== address) seen.push(`round ${round}, after ${poll * 100} ms: ${now} (the provider holds ${zoneEntries().filter((e) => e.name === 'h1.example.com').map((e) => e.value).join(',')})`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    expect(seen).toEqual([]);
  }, 120_000);
});
