import { afterEach, describe, expect, it } from 'vitest';
import { AddressUnknownError } from '../../src/runtime/errors.js';
import { detectAddress } from '../../src/ip/detect.js';
import { firstAddress } from '../../src/ip/fetch-source.js';
import { BUILTIN_SOURCES, parseSource, type SourceSpec } from '../../src/ip/sources.js';
import { createLogger, type Logger } from '../../src/runtime/log.js';
import { startDnsServer } from '../helpers/dns-server.js';
import { startServer, type TestServer } from '../helpers/servers.js';

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.map((c) => c()));
  closers = [];
});
async function echo(body: string | ((...a: Parameters<Exclude<Parameters<typeof startServer>[0], string>>) => void)): Promise<TestServer> {
  const server = await startServer(body);
  closers.push(server.close);
  return server;
}
function capture(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return Object.assign(createLogger({ level: 'debug', format: 'text', write: (l) => lines.push(l) }), { lines });
}
const url = (server: TestServer): SourceSpec => parseSource(`url:${server.url}`, 4, '--ip-source');
const detect = (sources: SourceSpec[], quorum: number, logger: Logger = capture(), extra = {}) =>
  detectAddress({ family: 4, sources, quorum, timeoutMs: 1000, allowPrivate: false, logger, ...extra });

describe('quorum', () => {
  it('trusts an address that enough sources agree on', async () => {
    const a = await echo('81.0.2.15\n');
    const b = await echo('ip=81.0.2.15\nts=1');
    const c = await echo('<html>Your IP: 81.0.2.99</html>');
    const result = await detect([url(a), url(b), url(c)], 2);
    expect(result.address).toBe('81.0.2.15');
  });

  it('answers as soon as the quorum is reached, without waiting for a slow source', async () => {
    const a = await echo('81.0.2.15');
    const b = await echo('81.0.2.15');
    const slow = await echo((_req, res) => setTimeout(() => res.end('81.0.2.15'), 900));
    const started = Date.now();
    await detect([url(a), url(b), url(slow)], 2);
    expect(Date.now() - started).toBeLessThan(800);
  });

  it('refuses when sources disagree below the quorum: exit 6', async () => {
    const a = await echo('81.0.2.15');
    const b = await echo('81.0.2.16');
    const error = await detect([url(a), url(b)], 2).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AddressUnknownError);
    expect((error as AddressUnknownError).exitCode).toBe(6);
    expect((error as Error).message).toMatch(/disagree/);
  });

  it('refuses when no source answers', async () => {
    const broken = await echo((_req, res) => { res.statusCode = 502; res.end(); });
    const empty = await echo('no address here');
    await expect(detect([url(broken), url(empty)], 1)).rejects.toThrow(/no IPv4 source answered usefully/);
  });

  it('gives up at the deadline on a source that never answers', async () => {
    const hang = await echo(() => {});
    const started = Date.now();
    await expect(detect([url(hang)], 1, capture(), { timeoutMs: 300 })).rejects.toThrow(AddressUnknownError);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('refuses non-public answers with the reason logged, unless allowed', async () => {
    const a = await echo('192.168.1.20');
    const b = await echo('192.168.1.20');
    const logger = capture();
    await expect(detect([url(a), url(b)], 2, logger)).rejects.toThrow(AddressUnknownError);
    expect(logger.lines.join('')).toMatch(/refused 192\.168\.1\.20 from url:.*: private \(RFC 1918\)/);
    expect((await detect([url(a), url(b)], 2, capture(), { allowPrivate: true })).address).toBe('192.168.1.20');
  });

  it('waits for every source when asked (ddedge ip --json)', async () => {
    const a = await echo('81.0.2.15');
    const b = await echo('81.0.2.15');
    const slow = await echo((_req, res) => setTimeout(() => res.end('81.0.2.15'), 200));
    const result = await detect([url(a), url(b), url(slow)], 2, capture(), { waitForAll: true });
    expect(result.answers).toHaveLength(3);
    expect(result.answers.every((x) => typeof x.ms === 'number')).toBe(true);
  });
});

describe('sources', () => {
  it('finds the first address of the wanted family in a body', () => {
    expect(firstAddress('fl=1\nh=1.1.1.1\nip=2a00:1450::1\nts=1', 6)).toBe('2a00:1450::1');
    expect(firstAddress('version 1.2.3 ip 81.0.2.15.', 4)).toBe('81.0.2.15');
    expect(firstAddress('nothing', 4)).toBeUndefined();
  });

  it('reads the A record of a DNS source and the TXT of a dns-txt source from a local DNS server', async () => {
    // Two servers: one server asked twice counts once toward the quorum (issue 9, item 5).
    const dns = await startDnsServer({ A: { 'myip.opendns.com': '81.0.2.15' } });
    const dns2 = await startDnsServer({ TXT: { 'o-o.myaddr.l.google.com': '81.0.2.15' } });
    closers.push(dns.close, dns2.close);
    const a = parseSource(`dns:myip.opendns.com@${dns.server}`, 4, '--ip-source');
    const txt = parseSource(`dns-txt:o-o.myaddr.l.google.com@${dns2.server}`, 4, '--ip-source');
    expect((await detect([a, txt], 2)).address).toBe('81.0.2.15');
  });

  it('reports a DNS source whose name does not exist', async () => {
    const dns = await startDnsServer({});
    closers.push(dns.close);
    await expect(detect([parseSource(`dns:myip.opendns.com@${dns.server}`, 4, 'x')], 1)).rejects.toThrow(/DNS query myip.opendns.com/);
  });

  it('reads a local interface', async () => {
    expect((await detect([parseSource('iface:lo', 4, 'x')], 1, capture(), { allowPrivate: true })).address).toBe('127.0.0.1');
    await expect(detect([parseSource('iface:nope0', 4, 'x')], 1)).rejects.toThrow(/no network interface named "nope0"/);
  });

  it('every builtin is HTTPS or DNS, and parses its service\'s answer format from a local server', async () => {
    const formats: Record<string, string> = {
      ipify: '81.0.2.15', icanhazip: '81.0.2.15\n', aws: '81.0.2.15\n',
      cloudflare: 'fl=29f1\nh=1.1.1.1\nip=81.0.2.15\nts=1700000000.1\nvisit_scheme=https\nuag=ddedge\ncolo=MAD\nhttp=http/1.1\nloc=ES\ntls=TLSv1.3\nsni=off\nwarp=off\ngateway=off\nrbi=off\nkex=X25519',
    };
    const dns = await startDnsServer({ A: { 'myip.opendns.com': '81.0.2.15' }, TXT: { 'o-o.myaddr.l.google.com': 'edns0-client-subnet 81.0.2.0/24' } });
    closers.push(dns.close);
    for (const [name, builtin] of Object.entries(BUILTIN_SOURCES)) {
      const spec = builtin.spec(4)!;
      let local: SourceSpec;
      if (spec.kind === 'url') {
        expect(spec.url).toMatch(/^https:\/\//);
        local = { ...spec, url: (await echo(formats[name]!)).url };
      } else if (spec.kind === 'dns') {
        local = { ...spec, server: dns.server };
        if (spec.rrtype === 'TXT') {
          const txt = await startDnsServer({ TXT: { [spec.query]: '81.0.2.15' } });
          closers.push(txt.close);
          local = { ...spec, server: txt.server };
        }
      } else throw new Error(`unexpected builtin kind for ${name}`);
      expect((await detect([local], 1)).address, name).toBe('81.0.2.15');
    }
  });
});
