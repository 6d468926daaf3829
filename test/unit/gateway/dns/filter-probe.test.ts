// The filter probe: a zone whose provider's filter misses a name's entries is read whole for
// every update, said once; a failed probe is asked again later.
import { describe, expect, it } from 'vitest';
import { filterFindsNames } from '../../../../src/gateway/dns/filter-probe.js';
import type { Logger } from '../../../../src/lib/log.js';
import { BroadFilterError, type ZoneProvider } from '../../../../src/zone/provider/provider-zone.js';
import type { LiveRecord } from '../../../../src/zone/record.js';

const live: LiveRecord[] = [
  { name: 'example.com', type: 'MX', priority: 10, value: 'mail.example.com', entityID: '1' },
  { name: 'www.example.com', type: 'A', value: '192.0.2.1', entityID: '2' },
  { name: 'longest.example.com', type: 'A', value: '192.0.2.2', entityID: '3' },
  { name: 'longest.example.com', type: 'TXT', value: 'x', entityID: '4' },
];

function provider(listNames: ZoneProvider['listNames']): ZoneProvider & { asked: string[][] } {
  const asked: string[][] = [];
  return {
    asked,
    listNames: (names, allowance) => {
      asked.push([...names]);
      return listNames(names, allowance);
    },
  } as ZoneProvider & { asked: string[][] };
}

function logger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    error: (m) => lines.push(`error ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    info: (m) => lines.push(`info ${m}`),
    debug: () => undefined,
  };
}

describe('filterFindsNames', () => {
  it('probes with the longest name and is true when its listing holds every entry there', async () => {
    const zone = provider(async () => live.filter((r) => r.name === 'longest.example.com'));
    const log = logger();
    expect(await filterFindsNames(zone, 'example.com', live, log)).toBe(true);
    expect(zone.asked).toEqual([['longest.example.com']]);
    expect(log.lines).toEqual([]);
  });

  it('is false, and says so once, when the listing misses an entry', async () => {
    const log = logger();
    expect(
      await filterFindsNames(
        provider(async () => [live[2]!]),
        'example.com',
        live,
        log,
      ),
    ).toBe(false);
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]).toMatch(
      /^warn gateway: example\.com: service\/dnslist with filter longest\.example\.com listed 1 of the 2 /,
    );
    expect(log.lines[0]).toMatch(/ every update of example\.com reads the whole zone instead$/);
  });

  it('is false when the filter matches more than the pages allowed', async () => {
    const log = logger();
    expect(
      await filterFindsNames(
        provider(async () => Promise.reject(new BroadFilterError('longest.example.com', 9))),
        'example.com',
        live,
        log,
      ),
    ).toBe(false);
    expect(log.lines[0]).toContain('listed more than the entries there (9 pages)');
  });

  it('is undefined (asked again later) when the listing fails, or the zone has apex records only', async () => {
    const log = logger();
    expect(
      await filterFindsNames(
        provider(async () => Promise.reject(new Error('connection reset'))),
        'example.com',
        live,
        log,
      ),
    ).toBeUndefined();
    expect(log.lines).toEqual([
      expect.stringContaining("info gateway: example.com: checking the provider's filter failed (connection reset)"),
    ]);
    const apexOnly = provider(async () => []);
    expect(await filterFindsNames(apexOnly, 'example.com', [live[0]!], log)).toBeUndefined();
    expect(apexOnly.asked).toEqual([]);
  });
});
