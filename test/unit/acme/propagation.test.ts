// The wait for a challenge to be visible, on a clock the test moves: a final answer (the zone
// does not exist) stops it at once; a long wait says what it waits for, every few seconds.
import { describe, expect, it } from 'vitest';
import { NameServersAbsentError, type TxtLookup, waitUntilVisible } from '../../../src/acme/propagation.js';
import { DnsError } from '../../../src/dns/wire/errors.js';
import { createLogger } from '../../../src/lib/log.js';
import { FakeClock } from '../../helpers/fake-clock.js';

function request(lookup: TxtLookup, clock: FakeClock, lines: string[] = []) {
  return {
    name: '_acme-challenge.example.com',
    value: 'v',
    zone: 'example.com',
    servers: [],
    timeoutMs: 120_000,
    queryTimeoutMs: 5000,
    lookup,
    clock,
    logger: createLogger({ level: 'info', format: 'text', write: (line) => void lines.push(line) }),
  };
}

describe('waiting for a challenge to be visible', () => {
  it('stops at once when the zone does not exist: no wait changes a final answer', async () => {
    const clock = new FakeClock();
    let asked = 0;
    const lookup: TxtLookup = {
      authoritativeServers: async () => {
        asked++;
        throw new DnsError('absent', 'the zone example.com does not exist (NXDOMAIN)');
      },
      txtValues: async () => [],
    };
    const error = await waitUntilVisible(request(lookup, clock)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NameServersAbsentError);
    expect((error as Error).message).toMatch(/does not exist \(NXDOMAIN\).*--dns-server/);
    expect([asked, clock.now()]).toEqual([1, new FakeClock().now()]);
  });

  it('asks again after an answer that may change (a timeout), and says every 5 s what it waits for', async () => {
    const clock = new FakeClock();
    const lines: string[] = [];
    let asked = 0;
    const lookup: TxtLookup = {
      authoritativeServers: async () => [{ host: '192.0.2.53', port: 53, name: 'ns1.example.net' }],
      txtValues: async () => (++asked >= 12 ? ['v'] : []),
    };
    const waiting = waitUntilVisible(request(lookup, clock, lines));
    // 11 rounds: 100, 200, 400, 800, 1600 ms, then every 2 s: about 17 s in all.
    for (let i = 0; i < 40 && asked < 12; i++) await clock.advanceAsync(500);
    const visible = await waiting;
    expect(visible.servers).toEqual(['ns1.example.net']);
    const said = lines.filter((l) => l.includes('waiting for _acme-challenge.example.com TXT'));
    expect(said.length).toBeGreaterThanOrEqual(2);
    expect(said.length).toBeLessThanOrEqual(visible.waitedMs / 5000);
    expect(said[0]).toMatch(/ns1\.example\.net \(192\.0\.2\.53:53\): answers without it\); \d+ s left/);
  });
});
