// ddedge update against the sandbox. The built file runs the first cycle, the --json document
// and the cycle that holds the lock, as a user runs them; the rest is the cycle's logic (exit
// codes, messages, state), run by main() in this process.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseFault } from '../../../src/sandbox/faults.js';
import { agentEnv, providerCalls, withApi, zoneValue } from '../../helpers/agent-env.js';
import { runDist, runMain, startDist } from '../../helpers/cli.js';
import { waitUntil } from '../../helpers/wait.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox();
const fault = (text: string) => sandbox.faults.push(parseFault(text));

describe('the cycle', () => {
  it('sends a changed address, then sends nothing while it is unchanged', async () => {
    const env = agentEnv(sandbox);
    const first = await runDist(['update', '--ip', '81.0.2.15'], env);
    expect(first).toMatchObject({ code: 0, stdout: 'home.example.com A 81.0.2.15 updated\n' });
    expect(zoneValue(sandbox, 'home.example.com')).toBe('81.0.2.15');
    const calls = providerCalls(sandbox);
    const second = await runDist(['update', '--ip', '81.0.2.15'], env);
    expect(second).toMatchObject({ code: 0, stdout: 'home.example.com A 81.0.2.15 unchanged\n' });
    expect(providerCalls(sandbox)).toBe(calls);
  });

  it('prints the --json document of the contract', async () => {
    const result = await runDist(['update', '--ip', '81.0.2.15', '--json'], agentEnv(sandbox));
    expect(JSON.parse(result.stdout)).toEqual({
      hosts: [
        {
          host: 'home.example.com',
          type: 'A',
          address: '81.0.2.15',
          action: 'updated',
          via: 'dyndns',
          message: 'set to 81.0.2.15',
        },
      ],
      exitCode: 0,
    });
  });

  it.each(['json', 'xml', 'plain'])('works with the %s dynamic DNS format', async (format) => {
    const env = agentEnv(sandbox, { DDEDGE_DYNDNS_FORMAT: format });
    expect(await runMain(['update', '--ip', '81.0.2.16'], env)).toMatchObject({
      code: 0,
      stdout: 'home.example.com A 81.0.2.16 updated\n',
    });
    expect(zoneValue(sandbox, 'home.example.com')).toBe('81.0.2.16');
    // The provider already holds it: sent because the cache is bypassed, reported as unchanged.
    expect(
      await runMain(['update', '--ip', '81.0.2.16', '--force', '--json'], env).then(
        (r) => JSON.parse(r.stdout).hosts[0],
      ),
    ).toMatchObject({ action: 'unchanged', via: 'dyndns' });
  });

  it('sends the key as `password` by default and as `apikey` when asked', async () => {
    const env = agentEnv(sandbox, { DDEDGE_DYNDNS_KEY_PARAM: 'apikey' });
    expect((await runMain(['update', '--ip', '81.0.2.17'], env)).code).toBe(0);
  });

  it('--dry-run decides and sends nothing, and writes no state', async () => {
    const env = agentEnv(sandbox);
    const result = await runMain(['update', '--ip', '81.0.2.15', '--dry-run'], env);
    expect(result).toMatchObject({ code: 0, stdout: 'home.example.com A 81.0.2.15 would-update\n' });
    expect(providerCalls(sandbox)).toBe(0);
    expect(zoneValue(sandbox, 'home.example.com')).toBe('192.0.2.20');
    expect((await runMain(['status', '--json'], env)).stdout).toContain('"records":[]');
  });

  it('--force sends an unchanged address', async () => {
    const env = agentEnv(sandbox);
    await runMain(['update', '--ip', '81.0.2.15'], env);
    const calls = providerCalls(sandbox);
    await runMain(['update', '--ip', '81.0.2.15', '--force'], env);
    expect(providerCalls(sandbox)).toBe(calls + 1);
  });

  it('re-sends an unchanged address older than --max-age', async () => {
    const env = agentEnv(sandbox);
    await runMain(['update', '--ip', '81.0.2.15'], env);
    const file = join(env.DDEDGE_STATE_DIR!, 'state.json');
    const state = JSON.parse(readFileSync(file, 'utf8'));
    state.records['home.example.com/A'].sentAt = new Date(Date.now() - 2 * 3_600_000).toISOString();
    writeFileSync(file, JSON.stringify(state));
    const calls = providerCalls(sandbox);
    expect((await runMain(['update', '--ip', '81.0.2.15', '--max-age', '3h'], env)).stdout).toContain('unchanged');
    expect(providerCalls(sandbox)).toBe(calls);
    expect((await runMain(['update', '--ip', '81.0.2.15', '--max-age', '1h', '--json'], env)).stdout).toContain(
      '"via":"dyndns"',
    );
    expect(providerCalls(sandbox)).toBe(calls + 1);
  });

  it('treats each host independently: one unknown host makes a partial result (exit 5)', async () => {
    const result = await runMain(
      ['update', '--ip', '81.0.2.15', '--host', 'home.example.com', '--host', 'nope.example.com'],
      agentEnv(sandbox),
    );
    expect(result.code).toBe(5);
    expect(result.stdout).toBe('home.example.com A 81.0.2.15 updated\nnope.example.com A 81.0.2.15 failed\n');
    expect(result.stderr).toMatch(/nope.example.com.*not found/);
  });

  it('trusts an address given with --ip as given, even a private one', async () => {
    const result = await runMain(['update', '--ip', '10.1.2.3'], agentEnv(sandbox));
    expect(result).toMatchObject({ code: 0, stdout: 'home.example.com A 10.1.2.3 updated\n' });
  });

  it('learns the address from the provider with the `server` source', async () => {
    const result = await runMain(['update', '--ip-source', 'server'], agentEnv(sandbox));
    expect(result).toMatchObject({ code: 0, stdout: 'home.example.com A 127.0.0.1 updated\n' });
  });

  it('learns the address from two agreeing HTTPS-less local echo sources (loopback http is allowed)', async () => {
    const { startServer } = await import('../../helpers/servers.js');
    const a = await startServer('81.0.2.40\n');
    const b = await startServer('81.0.2.40');
    const result = await runMain(
      ['update', '--ip-source', `url:${a.url}`, '--ip-source', `url:${b.url}`],
      agentEnv(sandbox),
    );
    await a.close();
    await b.close();
    expect(result).toMatchObject({ code: 0, stdout: 'home.example.com A 81.0.2.40 updated\n' });
  });
});

describe('the registrar API path', () => {
  it('falls back to the API when dynamic DNS fails', async () => {
    fault('dyndns=502');
    const result = await runMain(['update', '--ip', '81.0.2.15', '--json'], agentEnv(sandbox, withApi(sandbox)));
    expect(JSON.parse(result.stdout).hosts[0]).toMatchObject({ action: 'updated', via: 'api' });
    expect(result.stderr).toMatch(/dynamic DNS failed for home.example.com.*HTTP 502.*trying the registrar API/);
    expect(zoneValue(sandbox, 'home.example.com')).toBe('81.0.2.15');
  });

  it('warns about a rejected dynamic DNS key, naming the setting, and updates through the API', async () => {
    const result = await runMain(
      ['update', '--ip', '81.0.2.15'],
      agentEnv(sandbox, { ...withApi(sandbox), DDEDGE_DYNDNS_KEY: 'wrong-key' }),
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/warn: the dynamic DNS key was rejected.*fix DDEDGE_DYNDNS_KEY/);
    expect(sandbox.calls.get('service/dnsupdate')).toBe(1);
  });

  it('--via api finds the entry with dnslist and changes it with dnsupdate', async () => {
    const result = await runMain(
      ['update', '--ip', '81.0.2.15', '--via', 'api', '--json'],
      agentEnv(sandbox, withApi(sandbox)),
    );
    expect(JSON.parse(result.stdout).hosts[0]).toMatchObject({ action: 'updated', via: 'api' });
    expect([
      sandbox.calls.get('dyndns'),
      sandbox.calls.get('service/dnslist'),
      sandbox.calls.get('service/dnsupdate'),
    ]).toEqual([undefined, 1, 1]);
  });

  it('creates a missing entry with dnscreate', async () => {
    const result = await runMain(
      ['update', '--ip', '81.0.2.15', '--via', 'api', '--host', 'new.example.com'],
      agentEnv(sandbox, withApi(sandbox)),
    );
    expect(result.code).toBe(0);
    expect(zoneValue(sandbox, 'new.example.com')).toBe('81.0.2.15');
  });

  it('refuses a host outside the zone of the service, writing nothing (the API would make <host>.<zone>)', async () => {
    const result = await runMain(
      ['update', '--ip', '81.0.2.15', '--via', 'api', '--host', 'home.notexample.com', '--service', 'example.com'],
      agentEnv(sandbox, withApi(sandbox)),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/home\.notexample\.com is not in the zone of example\.com/);
    expect(sandbox.calls.get('service/dnscreate')).toBeUndefined();
    expect(sandbox.calls.get('service/dnsupdate')).toBeUndefined();
  });

  it('keeps AAAA records through the API with --ipv6', async () => {
    const env = agentEnv(sandbox, withApi(sandbox));
    const result = await runMain(['update', '--ip', '81.0.2.15', '--ipv6', '--ip6', '2a00:1450:4003::15'], env);
    expect(result).toMatchObject({
      code: 0,
      stdout: 'home.example.com A 81.0.2.15 updated\nhome.example.com AAAA 2a00:1450:4003::15 updated\n',
    });
    expect(zoneValue(sandbox, 'home.example.com', 'AAAA')).toBe('2a00:1450:4003::15');
    expect(sandbox.calls.get('service/dnscreate')).toBe(1);
    await runMain(['update', '--ip', '81.0.2.15', '--ipv6', '--ip6', '2a00:1450:4003::16'], env);
    expect(zoneValue(sandbox, 'home.example.com', 'AAAA')).toBe('2a00:1450:4003::16');
    expect(sandbox.calls.get('service/dnsupdate')).toBe(1);
  });

  it('wrong API password: error 1004, exit 3', async () => {
    const result = await runMain(
      ['update', '--ip', '81.0.2.15', '--via', 'api'],
      agentEnv(sandbox, { ...withApi(sandbox), DDEDGE_API_PASSWORD: 'wrong-password' }),
    );
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/error 1004.*check DDEDGE_API_USER and DDEDGE_API_PASSWORD/);
  });

  it('unknown service: error 4001, exit 7', async () => {
    const result = await runMain(
      ['update', '--ip', '81.0.2.15', '--via', 'api', '--service', 'nope.example.org'],
      agentEnv(sandbox, withApi(sandbox)),
    );
    expect(result.code).toBe(7);
    expect(result.stderr).toMatch(/error 4001/);
  });
});

describe('bad answers and faults: the contract exit code, a one-line message, the state still valid', () => {
  // Only the answer that never finishes needs a short timeout; every other case gets one far above
  // what it needs, so a loaded machine cannot turn its error into a timeout (the 50 MiB answer
  // must meet the 1 MiB limit, not the clock).
  const cases: [string, string, number, RegExp][] = [
    ['wrong dynamic DNS key', '', 3, /Incorrect data \(check DDEDGE_DYNDNS_USER and DDEDGE_DYNDNS_KEY\)/],
    ['HTTP 500', 'dyndns=500', 4, /HTTP 500/],
    ['HTTP 502', 'dyndns=502', 4, /HTTP 502/],
    [
      'a reset connection',
      'dyndns=reset',
      4,
      /no complete answer from http:\/\/127\.0\.0\.1:\d+\/json\/\S* the connection closed without an answer/,
    ],
    ['an empty answer', 'dyndns=empty', 4, /malformed json answer.*empty/],
    ['an answer not in the declared format', 'dyndns=garbage', 4, /malformed json answer.*not valid JSON/],
    [
      'a truncated answer',
      'dyndns=truncated',
      4,
      /no complete answer from .*: the connection closed before the whole answer arrived/,
    ],
    ['a 50 MiB answer', 'dyndns=huge', 4, /exceeded the 1048576-byte limit/],
    ['an answer that never finishes', 'dyndns=hang:600000', 4, /no complete answer .* within 500 ms/],
  ];
  it.each(cases)('%s', async (_name, faultText, code, message) => {
    if (faultText) fault(faultText);
    const timeout = faultText.startsWith('dyndns=hang') ? '500ms' : '120s';
    const env = agentEnv(
      sandbox,
      faultText ? { DDEDGE_TIMEOUT: timeout } : { DDEDGE_DYNDNS_KEY: 'wrong-key', DDEDGE_TIMEOUT: timeout },
    );
    const result = await runMain(['update', '--ip', '81.0.2.15'], env);
    expect(result.code).toBe(code);
    expect(result.stdout).toBe('home.example.com A 81.0.2.15 failed\n');
    expect(result.stderr).toMatch(message);
    if (timeout !== '500ms') expect(result.stderr).not.toMatch(/no complete answer .* within/);
    expect(result.stderr).not.toContain(env.DDEDGE_DYNDNS_KEY);
    const status = await runMain(['status', '--json'], env);
    expect(JSON.parse(status.stdout).records[0]).toMatchObject({
      host: 'home.example.com',
      lastError: expect.any(String),
    });
    expect(zoneValue(sandbox, 'home.example.com')).toBe('192.0.2.20');
  });

  it('sources that disagree: exit 6 and nothing sent', async () => {
    const { startServer } = await import('../../helpers/servers.js');
    const a = await startServer('81.0.2.40');
    const b = await startServer('81.0.2.41');
    const result = await runMain(
      ['update', '--ip-source', `url:${a.url}`, '--ip-source', `url:${b.url}`],
      agentEnv(sandbox),
    );
    await a.close();
    await b.close();
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/sources disagree/);
    expect(providerCalls(sandbox)).toBe(0);
  });

  it('a damaged state file is reported, set aside by the cycle (not a dry run), treated as empty, and replaced', async () => {
    const env = agentEnv(sandbox);
    const path = join(env.DDEDGE_STATE_DIR!, 'state.json');
    const damaged = '{"version":1,"records":{"x":';
    writeFileSync(path, damaged);
    // A dry run holds no lock and writes nothing: it only says so.
    expect((await runMain(['update', '--ip', '81.0.2.15', '--dry-run'], env)).stderr).toMatch(/state\.json is damaged/);
    expect(existsSync(`${path}.damaged`)).toBe(false);
    const result = await runMain(['update', '--ip', '81.0.2.15'], env);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      /warn: .*state\.json is damaged \(not valid JSON[^)]*\); set aside as \S+\.damaged; starting from an empty cache/,
    );
    expect(readFileSync(`${path}.damaged`, 'utf8')).toBe(damaged);
    expect(
      JSON.parse(readFileSync(join(env.DDEDGE_STATE_DIR!, 'state.json'), 'utf8')).records['home.example.com/A'].address,
    ).toBe('81.0.2.15');
  });

  it('two cycles at once: the second is refused (exit 4) and the first completes', async () => {
    // The first cycle's request is held until the second has been refused: no race with time.
    const { startServer } = await import('../../helpers/servers.js');
    let arrived!: () => void;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const dyndns = await startServer((_req, res) => {
      arrived();
      void released.then(() =>
        res.end(
          JSON.stringify({
            success: true,
            messages: [],
            host: { name: 'home.example.com', value: '81.0.2.15', type: 'A', updated: true },
          }),
        ),
      );
    });
    const env = agentEnv(sandbox, { DDEDGE_DYNDNS_URL: dyndns.url, DDEDGE_TIMEOUT: '120s' });
    const first = startDist(['update', '--ip', '81.0.2.15'], env);
    await requestArrived;
    const second = await runMain(['update', '--ip', '81.0.2.15'], env);
    release();
    expect(second.code).toBe(4);
    expect(second.stderr).toMatch(/another ddedge cycle \(pid \d+\) is using/);
    expect((await first.result).code).toBe(0);
    expect(dyndns.hits).toBe(1);
    await dyndns.close();
  });
});

describe('configuration errors are refused before any request (exit 2)', () => {
  it.each([
    [['--ip', '81.0.2.999'], /--ip: "81.0.2.999" is not an IPv4 address/],
    [
      ['--ip', '81.0.2.15', '--dyndns-url', 'http://dyn.example.net'],
      /--dyndns-url: http:\/\/ is allowed only for loopback/,
    ],
    [['--ip', '81.0.2.15', '--bogus'], /update: unknown option '--bogus'/],
  ])('%j', async (args, message) => {
    const result = await runMain(['update', ...args], agentEnv(sandbox));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(providerCalls(sandbox)).toBe(0);
  });
});

describe('IPv6', () => {
  it('detects the IPv6 address from sources over IPv6 and keeps the AAAA record through the API', async () => {
    const http = await import('node:http');
    const server = http.createServer((_req, res) => res.end('2a00:1450:4003::99\n'));
    await new Promise<void>((resolve) => server.listen(0, '::1', resolve));
    const { port } = server.address() as import('node:net').AddressInfo;
    const env = agentEnv(sandbox, {
      ...withApi(sandbox),
      DDEDGE_IPV6: 'yes',
      DDEDGE_IP6_SOURCES: `url:http://[::1]:${port}/`,
      DDEDGE_IP: '81.0.2.15',
    });
    const result = await runMain(['update'], env);
    server.close();
    expect(result).toMatchObject({
      code: 0,
      stdout: 'home.example.com A 81.0.2.15 updated\nhome.example.com AAAA 2a00:1450:4003::99 updated\n',
    });
    expect(zoneValue(sandbox, 'home.example.com', 'AAAA')).toBe('2a00:1450:4003::99');
  });
});

describe('a provider that reports another address than the one sent', () => {
  // Such an answer is not trusted: the record may not hold what was sent (see
  // dyndns-contradiction.test.ts).
  it('is a failure (exit 4), and nothing is remembered: the next cycle sends again', async () => {
    const { startServer } = await import('../../helpers/servers.js');
    const dyndns = await startServer(
      JSON.stringify({
        success: true,
        messages: [],
        host: { name: 'home.example.com', value: '81.0.2.99', type: 'A', updated: true },
      }),
    );
    const env = agentEnv(sandbox, { DDEDGE_DYNDNS_URL: dyndns.url });
    const first = await runMain(['update', '--ip', '81.0.2.15'], env);
    expect(first.code).toBe(4);
    expect(first.stdout).toBe('home.example.com A 81.0.2.15 failed\n');
    expect(first.stderr).toMatch(
      /the dynamic DNS answer names home\.example\.com at 81\.0\.2\.99 but the request was home\.example\.com at 81\.0\.2\.15/,
    );
    const second = await runMain(['update', '--ip', '81.0.2.15'], env);
    expect(second.code).toBe(4);
    expect(dyndns.hits).toBe(2);
    await dyndns.close();
  });
});

describe('Ctrl-C', () => {
  it('stops a one-shot update at once (130, as a shell reports it), and the next run sends the address', async () => {
    // The provider holds the request: without the signal the update would wait for its timeout (exit 4).
    fault('dyndns=hang:300000x1');
    const env = agentEnv(sandbox);
    const child = startDist(['update', '--ip', '81.0.2.15'], env);
    await waitUntil(() => Boolean(sandbox.calls.get('dyndns')), 'the update at the provider');
    expect(sandbox.calls.get('dyndns')).toBe(1);
    child.kill('SIGINT');
    const result = await child.result;
    expect(result.code ?? 128 + 2).toBe(130);
    expect(result.stdout).toBe('');
    const next = await runDist(['update', '--ip', '81.0.2.15'], env);
    expect(next).toMatchObject({ code: 0, stdout: 'home.example.com A 81.0.2.15 updated\n' });
  });
});
