import { afterEach, describe, expect, it } from 'vitest';
import { AddressUnknownError } from '../../../src/lib/errors.js';
import { DNS_HEAD_START_MS, detectAddress } from '../../../src/ip/detect.js';
import { firstAddress } from '../../../src/ip/fetch-source.js';
import {
  BUILTIN_SOURCES,
  DEFAULT_SOURCES,
  parseSource,
  parseSources,
  type SourceSpec,
} from '../../../src/ip/sources.js';
import { createLogger, type Logger } from '../../../src/lib/log.js';
import { HANG_BOUND_MS } from '../../helpers/cli.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { startDnsServer } from '../../helpers/dns-server.js';
import { startHostileDns } from '../../helpers/hostile-dns.js';
import { startServer, type TestServer } from '../../helpers/servers.js';

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.map((c) => c()));
  closers = [];
});
async function echo(
  body: string | ((...a: Parameters<Exclude<Parameters<typeof startServer>[0], string>>) => void),
): Promise<TestServer> {
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
    // The slow source answers only once detect has: waiting for it would never end (the race's
    // bound only stops that hang), whatever the machine's load.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const slow = await echo((_req, res) => void released.then(() => res.end('81.0.2.15')));
    const waited = new Promise<'waited for the slow source'>((resolve) =>
      setTimeout(() => resolve('waited for the slow source'), HANG_BOUND_MS).unref(),
    );
    const outcome = await Promise.race([
      detect([url(a), url(b), url(slow)], 2, capture(), { timeoutMs: 2 * HANG_BOUND_MS }).then((r) => r.address),
      waited,
    ]);
    release();
    expect(outcome).toBe('81.0.2.15');
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
    const broken = await echo((_req, res) => {
      res.statusCode = 502;
      res.end();
    });
    const empty = await echo('no address here');
    await expect(detect([url(broken), url(empty)], 1)).rejects.toThrow(/no IPv4 source answered usefully/);
  });

  it('gives up at the deadline on a source that never answers', async () => {
    const hang = await echo(() => {});
    const clock = new FakeClock();
    let settled = false;
    const failure = detect([url(hang)], 1, capture(), { timeoutMs: 60_000, clock })
      .then(
        () => undefined,
        (error: unknown) => error,
      )
      .finally(() => (settled = true));
    await clock.advanceAsync(60_249);
    expect(settled).toBe(false);
    await clock.advanceAsync(1);
    expect(settled).toBe(true);
    expect(await failure).toBeInstanceOf(AddressUnknownError);
    expect(String(await failure)).toMatch(/url:.*: no answer before the deadline/);
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
    // Two servers: one server asked twice counts once toward the quorum (or it alone could make one).
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
    await expect(detect([parseSource(`dns:myip.opendns.com@${dns.server}`, 4, 'x')], 1)).rejects.toThrow(
      /DNS query myip.opendns.com/,
    );
  });

  it('reads a local interface', async () => {
    expect((await detect([parseSource('iface:lo', 4, 'x')], 1, capture(), { allowPrivate: true })).address).toBe(
      '127.0.0.1',
    );
    await expect(detect([parseSource('iface:nope0', 4, 'x')], 1)).rejects.toThrow(/no network interface named "nope0"/);
  });

  it("every builtin is HTTPS or DNS, and parses its service's answer format from a local server", async () => {
    const formats: Record<string, string> = {
      ipify: '81.0.2.15',
      icanhazip: '81.0.2.15\n',
      aws: '81.0.2.15\n',
      cloudflare:
        'fl=29f1\nh=1.1.1.1\nip=81.0.2.15\nts=1700000000.1\nvisit_scheme=https\nuag=ddedge\ncolo=MAD\nhttp=http/1.1\nloc=ES\ntls=TLSv1.3\nsni=off\nwarp=off\ngateway=off\nrbi=off\nkex=X25519',
    };
    const dns = await startDnsServer({
      A: { 'myip.opendns.com': '81.0.2.15' },
      TXT: { 'o-o.myaddr.l.google.com': 'edns0-client-subnet 81.0.2.0/24' },
    });
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

describe('DNS sources first', () => {
  // The defaults' shape on loopback: OpenDNS's A question and Google's TXT question, each at its
  // own server, then two echoes counting their requests.
  async function defaultsLike(opendns: string | undefined, google: string | undefined) {
    const dnsA = await startDnsServer(opendns === undefined ? {} : { A: { 'myip.opendns.com': opendns } });
    const dnsB = await startDnsServer(google === undefined ? {} : { TXT: { 'o-o.myaddr.l.google.com': google } });
    closers.push(dnsA.close, dnsB.close);
    const httpsA = await echo('81.0.2.15\n');
    const httpsB = await echo('ip=81.0.2.15\n');
    const sources = [
      parseSource(`dns:myip.opendns.com@${dnsA.server}`, 4, 'x'),
      parseSource(`dns-txt:o-o.myaddr.l.google.com@${dnsB.server}`, 4, 'x'),
      url(httpsA),
      url(httpsB),
    ];
    return { sources, echoes: () => httpsA.hits + httpsB.hits };
  }

  it('the defaults ask OpenDNS and Google by DNS before the HTTPS echoes', () => {
    for (const family of [4, 6] as const) {
      const specs = parseSources(undefined, family, 'x');
      expect(specs.slice(0, 2).map((s) => s.name)).toEqual(['opendns', 'google-dns']);
      expect(specs.slice(2).every((s) => s.kind === 'url' && s.url.startsWith('https://'))).toBe(true);
      expect(DEFAULT_SOURCES[family].length).toBeGreaterThanOrEqual(4);
    }
  });

  it('the HTTPS sources get no request when the two DNS answers agree', async () => {
    const { sources, echoes } = await defaultsLike('81.0.2.15', '81.0.2.15');
    // Time stands still: an answer that needed the head start would never come.
    const clock = new FakeClock();
    const result = await detect(sources, 2, capture(), { clock });
    expect(result.address).toBe('81.0.2.15');
    expect(result.answers.map((a) => a.source).sort()).toEqual(
      sources
        .slice(0, 2)
        .map((s) => s.name)
        .sort(),
    );
    // Nothing is left to start the HTTPS sources late: the head start and the deadline are cancelled.
    expect(clock.pending).toBe(0);
    clock.advance(10 * DNS_HEAD_START_MS);
    expect(echoes()).toBe(0);
  });

  it('the DNS answers disagree: the HTTPS sources are asked and decide the quorum', async () => {
    const { sources, echoes } = await defaultsLike('81.0.2.15', '81.0.2.99');
    const logger = capture();
    const result = await detect(sources, 2, logger);
    expect(result.address).toBe('81.0.2.15');
    expect(echoes()).toBeGreaterThan(0);
    expect(logger.lines.join('')).toMatch(/asking the other sources: the DNS sources failed or disagree/);
  });

  it('an intercepted DNS answer (a private address) sends the cycle to the HTTPS sources', async () => {
    const { sources, echoes } = await defaultsLike('192.168.1.1', '81.0.2.15');
    expect((await detect(sources, 2)).address).toBe('81.0.2.15');
    expect(echoes()).toBeGreaterThan(0);
  });

  it('a DNS source that fails sends the cycle to the HTTPS sources at once, not after the head start', async () => {
    const { sources, echoes } = await defaultsLike(undefined, '81.0.2.15');
    // Time stands still: an answer that waited for the head start would never come.
    const logger = capture();
    expect((await detect(sources, 2, logger, { clock: new FakeClock() })).address).toBe('81.0.2.15');
    expect(echoes()).toBeGreaterThan(0);
    expect(logger.lines.join('')).toMatch(/asking the other sources: the DNS sources failed or disagree/);
  });

  it('a DNS server that stays silent costs the head start, not the timeout', async () => {
    const silent = await startHostileDns({ udp: () => undefined });
    closers.push(silent.close);
    const { sources, echoes } = await defaultsLike('81.0.2.15', '81.0.2.15');
    sources[0] = parseSource(`dns:myip.opendns.com@127.0.0.1:${silent.port}`, 4, 'x');
    const clock = new FakeClock();
    const logger = capture();
    const detection = detect(sources, 2, logger, { timeoutMs: 5000, clock });
    await clock.advanceAsync(DNS_HEAD_START_MS - 1);
    expect(logger.lines.join('')).not.toMatch(/asking the other sources/);
    await clock.advanceAsync(1);
    expect(logger.lines.join('')).toMatch(/asking the other sources: no DNS quorum within 500 ms/);
    expect((await detection).address).toBe('81.0.2.15');
    expect(echoes()).toBeGreaterThan(0);
  });

  it('every source at once when the DNS sources cannot reach the quorum alone, or every answer is wanted', async () => {
    const { sources, echoes } = await defaultsLike('81.0.2.15', '81.0.2.15');
    await detect(sources, 3);
    expect(echoes()).toBeGreaterThan(0);
    const again = await defaultsLike('81.0.2.15', '81.0.2.15');
    const all = await detect(again.sources, 2, capture(), { waitForAll: true });
    expect(all.answers).toHaveLength(4);
    expect(again.echoes()).toBe(2);
  });
});
