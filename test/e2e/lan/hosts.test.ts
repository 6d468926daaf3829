// Hosts behind the router, through the built file against the sandbox with a local IPv6
// echo source: AAAA = detected prefix + identifier, A = the public IPv4 unless
// --no-ipv4-for; a prefix change moves every such host in one cycle; status, --json,
// hooks and metrics say which address came from which prefix.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentEnv, providerCalls, withApi, zoneValue } from '../../helpers/agent-env.js';
import { runDist, runMain, startDist, tempDir, waitForOutput } from '../../helpers/cli.js';
import { startIpv6Echo, type Ipv6Echo } from '../../helpers/ipv6-echo.js';
import { parsePrometheusText } from '../../helpers/prometheus-text.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const NAS = '::1e2:3ff:fe4a:5b6c';
const HOSTS = `home.example.com,nas.example.com=${NAS},tv.example.com=::5,printer.example.com=::a:0:0:b`;
const LAN = ['nas.example.com', 'tv.example.com', 'printer.example.com'];

const sandbox = useSandbox();
let echo: Ipv6Echo;
beforeEach(async () => {
  echo = await startIpv6Echo('2a00:1450:4003:12::1');
});
afterEach(async () => {
  await echo.close();
});

const lanEnv = (extra: Record<string, string> = {}) =>
  agentEnv(sandbox, {
    ...withApi(sandbox),
    DDEDGE_IPV6: 'yes',
    DDEDGE_IP: '81.0.2.15',
    DDEDGE_IP6_SOURCES: `url:${echo.url}`,
    DDEDGE_HOSTS: HOSTS,
    DDEDGE_NO_IPV4_FOR: 'tv.example.com,printer.example.com',
    ...extra,
  });
const dnsUpdates = () =>
  [...sandbox.calls].filter(([target]) => /dnsupdate/i.test(target)).reduce((n, [, count]) => n + count, 0);

describe('hosts behind the router', () => {
  it('get the prefix + their identifier; a new prefix moves every one of them in one cycle, shown by --json, status, hooks and metrics', async () => {
    const hooks = join(tempDir(), 'hooks.log');
    const metrics = join(tempDir(), 'ddedge.prom');
    const env = lanEnv({
      DDEDGE_METRICS_FILE: metrics,
      DDEDGE_ON_CHANGE: `echo "$DDEDGE_HOST $DDEDGE_TYPE $DDEDGE_NEW_ADDRESS $DDEDGE_PREFIX" >> ${hooks}`,
    });

    const first = await runDist(['update'], env);
    expect(first.stderr).not.toMatch(/error/);
    expect(first).toMatchObject({ code: 0 });
    expect(first.stdout.split('\n').filter(Boolean).sort()).toEqual([
      'home.example.com A 81.0.2.15 updated',
      'home.example.com AAAA 2a00:1450:4003:12::1 updated',
      'nas.example.com A 81.0.2.15 updated',
      'nas.example.com AAAA 2a00:1450:4003:12:1e2:3ff:fe4a:5b6c updated',
      'printer.example.com AAAA 2a00:1450:4003:12:a::b updated',
      'tv.example.com AAAA 2a00:1450:4003:12::5 updated',
    ]);
    expect(zoneValue(sandbox, 'tv.example.com', 'A')).toBeUndefined();

    // The ISP delegates a new prefix: one cycle moves the router and every host behind it.
    echo.set('2a00:1450:4003:77::1');
    const updatesBefore = dnsUpdates();
    const second = await runDist(['update', '--json'], env);
    expect(second.code).toBe(0);
    const hosts = (
      JSON.parse(second.stdout) as {
        hosts: { host: string; type: string; address: string; action: string; prefix?: string }[];
      }
    ).hosts;
    const aaaa = hosts.filter((h) => h.type === 'AAAA');
    expect(aaaa.map((h) => h.action)).toEqual(['updated', 'updated', 'updated', 'updated']);
    expect(hosts.filter((h) => h.type === 'A').map((h) => h.action)).toEqual(['unchanged', 'unchanged']);
    expect(Object.fromEntries(aaaa.filter((h) => h.prefix).map((h) => [h.host, [h.address, h.prefix]]))).toEqual({
      'nas.example.com': ['2a00:1450:4003:77:1e2:3ff:fe4a:5b6c', '2a00:1450:4003:77::/64'],
      'tv.example.com': ['2a00:1450:4003:77::5', '2a00:1450:4003:77::/64'],
      'printer.example.com': ['2a00:1450:4003:77:a::b', '2a00:1450:4003:77::/64'],
    });
    expect(aaaa.find((h) => h.host === 'home.example.com')).toMatchObject({ address: '2a00:1450:4003:77::1' });
    expect(aaaa.find((h) => h.host === 'home.example.com')!.prefix).toBeUndefined();
    // Each host's record went through the normal send path: one dnsupdate each.
    expect(dnsUpdates() - updatesBefore).toBe(4);
    expect(zoneValue(sandbox, 'home.example.com', 'AAAA')).toBe('2a00:1450:4003:77::1');
    expect(zoneValue(sandbox, 'nas.example.com', 'AAAA')).toBe('2a00:1450:4003:77:1e2:3ff:fe4a:5b6c');
    expect(zoneValue(sandbox, 'tv.example.com', 'AAAA')).toBe('2a00:1450:4003:77::5');
    expect(zoneValue(sandbox, 'printer.example.com', 'AAAA')).toBe('2a00:1450:4003:77:a::b');

    const hookLines = readFileSync(hooks, 'utf8').split('\n');
    expect(hookLines).toContain('nas.example.com AAAA 2a00:1450:4003:77:1e2:3ff:fe4a:5b6c 2a00:1450:4003:77::/64');
    expect(hookLines).toContain('home.example.com AAAA 2a00:1450:4003:77::1 ');

    const status = await runDist(['status'], env);
    expect(status.stdout).toMatch(
      /^nas\.example\.com AAAA 2a00:1450:4003:77:1e2:3ff:fe4a:5b6c from prefix 2a00:1450:4003:77::\/64 sent /m,
    );
    const statusJson = JSON.parse((await runDist(['status', '--json'], env)).stdout) as {
      records: { host: string; type: string; prefix?: string }[];
    };
    expect(statusJson.records.find((r) => r.host === 'tv.example.com' && r.type === 'AAAA')!.prefix).toBe(
      '2a00:1450:4003:77::/64',
    );

    const lanInfo = parsePrometheusText(readFileSync(metrics, 'utf8')).get('ddedge_lan_host_info')!;
    expect(lanInfo.type).toBe('gauge');
    expect(lanInfo.samples.map((s) => s.labels)).toEqual(
      [
        {
          host: 'nas.example.com',
          identifier: NAS,
          prefix: '2a00:1450:4003:77::/64',
          address: '2a00:1450:4003:77:1e2:3ff:fe4a:5b6c',
        },
        {
          host: 'printer.example.com',
          identifier: '::a:0:0:b',
          prefix: '2a00:1450:4003:77::/64',
          address: '2a00:1450:4003:77:a::b',
        },
        {
          host: 'tv.example.com',
          identifier: '::5',
          prefix: '2a00:1450:4003:77::/64',
          address: '2a00:1450:4003:77::5',
        },
      ].sort((a, b) => LAN.indexOf(a.host) - LAN.indexOf(b.host)),
    );
  });

  it('in the daemon, a new prefix moves every host in the next cycle, seen on /metrics while it runs', async () => {
    const daemon = startDist(['daemon', '--listen', '127.0.0.1:0'], lanEnv({ DDEDGE_INTERVAL: '1h' }));
    try {
      const started = await waitForOutput(
        daemon,
        'stderr',
        (t) => /at (http:\S+)\/\n/.test(t) && (t.match(/ set to /g) ?? []).length >= 6,
      );
      const url = /at (http:\S+)\/\n/.exec(started)![1]!;
      echo.set('2a00:1450:4003:99::1');
      const moved = waitForOutput(
        daemon,
        'stderr',
        (t) => (t.match(/AAAA set to 2a00:1450:4003:99:/g) ?? []).length >= 4,
      );
      daemon.kill('SIGUSR1');
      const log = await moved;
      // All four in the one forced cycle, and nothing else sent.
      expect(log.match(/ set to /g)).toHaveLength(4);
      const families = parsePrometheusText(await (await fetch(`${url}/metrics`)).text());
      const prefixes = families.get('ddedge_lan_host_info')!.samples.map((s) => s.labels.prefix);
      expect(prefixes).toEqual(['2a00:1450:4003:99::/64', '2a00:1450:4003:99::/64', '2a00:1450:4003:99::/64']);
      expect(
        families
          .get('ddedge_address_info')!
          .samples.filter((s) => s.labels.type === 'AAAA')
          .map((s) => s.labels.address)
          .sort(),
      ).toEqual([
        '2a00:1450:4003:99:1e2:3ff:fe4a:5b6c',
        '2a00:1450:4003:99::1',
        '2a00:1450:4003:99::5',
        '2a00:1450:4003:99:a::b',
      ]);
    } finally {
      daemon.kill('SIGTERM');
      expect((await daemon.result).code).toBe(0);
    }
  });
});

describe('the call budget', () => {
  it('counts the update of every host behind the router: a prefix change past the budget moves the hosts it can, and says so', async () => {
    const env = lanEnv({ DDEDGE_MAX_CALLS_PER_HOUR: '100' });
    expect((await runMain(['update'], env)).code).toBe(0);
    const spentSoFar = providerCalls(sandbox);
    echo.set('2a00:1450:4003:77::1');
    // Room for two AAAA updates (a dnsupdate each: the state remembers the entry each was written to) of the four the
    // new prefix needs.
    const result = await runMain(['update', '--json'], { ...env, DDEDGE_MAX_CALLS_PER_HOUR: String(spentSoFar + 2) });
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/provider calls an hour is spent/);
    const actions = (JSON.parse(result.stdout) as { hosts: { type: string; action: string }[] }).hosts
      .filter((h) => h.type === 'AAAA')
      .map((h) => h.action);
    expect(actions).toEqual(['updated', 'updated', 'failed', 'failed']);
    expect(providerCalls(sandbox)).toBe(spentSoFar + 2);
  });
});

describe('bad input is refused before any request (exit 2)', () => {
  it.each<[string, Record<string, string>, RegExp]>([
    [
      'an identifier that is not IPv6',
      { DDEDGE_HOSTS: 'nas.example.com=fe4a:5b6c' },
      /nas\.example\.com: "fe4a:5b6c" is not an IPv6 interface identifier/,
    ],
    [
      'an identifier overlapping the prefix',
      { DDEDGE_HOSTS: 'nas.example.com=2a00::1e2:3ff:fe4a:5b6c' },
      /overlaps the \/64 prefix/,
    ],
    [
      'an identifier overlapping a /56',
      { DDEDGE_HOSTS: 'nas.example.com=::1:0:0:0:0:1', DDEDGE_IP6_PREFIX_LENGTH: '56' },
      /overlaps the \/56 prefix: an identifier may use only the last 72 bits/,
    ],
    [
      'a prefix length under 48',
      { DDEDGE_IP6_PREFIX_LENGTH: '40' },
      /DDEDGE_IP6_PREFIX_LENGTH: "40" is not an allowed prefix length: a whole number from 48 to 64, or 128/,
    ],
    ['a prefix length between 64 and 128', { DDEDGE_IP6_PREFIX_LENGTH: '96' }, /"96" is not an allowed prefix length/],
    [
      'two hosts with one name',
      { DDEDGE_HOSTS: 'nas.example.com=::1,home.example.com,NAS.example.com=::2' },
      /"nas\.example\.com" is given twice, with two interface identifiers; one name, one host/,
    ],
    [
      'a --no-ipv4-for host that is not a host',
      { DDEDGE_NO_IPV4_FOR: 'nope.example.com' },
      /--no-ipv4-for: "nope\.example\.com" is not one of the hosts/,
    ],
  ])('%s', async (_name, extra, message) => {
    const result = await runMain(['update'], lanEnv({ DDEDGE_NO_IPV4_FOR: '', ...extra }));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(providerCalls(sandbox)).toBe(0);
    expect(echo.hits).toBe(0);
  });
});

describe('the metrics file after --ipv6 is turned off', () => {
  it('keeps no AAAA series, while the cache still remembers the record', async () => {
    const metrics = join(tempDir(), 'ddedge.prom');
    const env = lanEnv({ DDEDGE_METRICS_FILE: metrics, DDEDGE_HOSTS: 'home.example.com', DDEDGE_NO_IPV4_FOR: '' });
    expect((await runMain(['update'], env)).code).toBe(0);
    expect(readFileSync(metrics, 'utf8')).toMatch(/type="AAAA"/);
    expect((await runMain(['update'], { ...env, DDEDGE_IPV6: 'no' })).code).toBe(0);
    const text = readFileSync(metrics, 'utf8');
    expect(text).toMatch(/^ddedge_address_info\{host="home\.example\.com",type="A",address="81\.0\.2\.15"\} 1$/m);
    expect(text).not.toMatch(/type="AAAA"/);
    parsePrometheusText(text);
    expect((await runMain(['status'], env)).stdout).toMatch(/^home\.example\.com AAAA 2a00:1450:4003:12::1 /m);
  });
});

describe('iface: for IPv6 through the built file, on this machine', () => {
  it('passes over the loopback address with the reason, read from /proc/net/if_inet6', async ({ skip }) => {
    const { existsSync, readFileSync: read } = await import('node:fs');
    if (!existsSync('/proc/net/if_inet6') || !/\slo$/m.test(read('/proc/net/if_inet6', 'utf8')))
      skip('no IPv6 loopback on this machine');
    const result = await runDist(['ip', '--ip', '81.0.2.15', '--ipv6', '--ip6-source', 'iface:lo', '--json'], lanEnv());
    const v6 = (JSON.parse(result.stdout) as { addresses: { family: string; error?: string }[] }).addresses.find(
      (r) => r.family === 'IPv6',
    )!;
    expect(v6.error).toMatch(/iface:lo:\s+interface "lo" has no usable IPv6 address: ::1 \(loopback\)/);
  });
});
