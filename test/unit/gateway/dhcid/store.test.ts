// The DHCID records the gateway keeps for DHCP servers: kept across a reopen (a restart), mode
// 0600, bounded, and a damaged file an error naming it that leaves the file as it was.
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DhcidStore,
  dhcidStorePath,
  MAX_DHCID_RECORDS,
  type DhcidRecord,
} from '../../../../src/gateway/dhcid/store.js';
import { ConfigError } from '../../../../src/lib/errors.js';
import { tempDir } from '../../../helpers/cli.js';

const DATA = `000201${'ab'.repeat(32)}`;
const record = (name: string, data = DATA, ttl = 3600): DhcidRecord => ({ name, ttl, data });
const byName = (records: DhcidRecord[]) => new Map(records.map((r) => [r.name, [r]]));
const all = (store: DhcidStore, zone: string) => [...store.of(zone).values()].flat();

function damaged(content: string): { error: unknown; path: string } {
  const stateDir = tempDir();
  const path = dhcidStorePath(stateDir);
  mkdirSync(join(stateDir, 'gateway'), { recursive: true });
  writeFileSync(path, content, { mode: 0o600 });
  let error: unknown;
  try {
    DhcidStore.open(stateDir);
  } catch (e) {
    error = e;
  }
  expect(readFileSync(path, 'utf8')).toBe(content);
  return { error, path };
}

describe('the DHCID store', () => {
  it('starts empty without a file, and keeps what it was given across a reopen, in a file of mode 0600', () => {
    const stateDir = tempDir();
    const store = DhcidStore.open(stateDir);
    expect(all(store, 'example.com')).toEqual([]);
    store.replace(
      'example.com',
      new Map([
        [
          'a.dhcp.example.com',
          [record('a.dhcp.example.com'), record('a.dhcp.example.com', `000101${'ef'.repeat(32)}`)],
        ],
        ['b.dhcp.example.com', [record('b.dhcp.example.com', `000101${'cd'.repeat(32)}`, 60)]],
      ]),
    );
    store.replace('example.org', byName([record('x.example.org')]));
    expect(statSync(dhcidStorePath(stateDir)).mode & 0o777).toBe(0o600);
    const again = DhcidStore.open(stateDir);
    expect(all(again, 'example.com')).toEqual([
      record('a.dhcp.example.com'),
      record('a.dhcp.example.com', `000101${'ef'.repeat(32)}`),
      record('b.dhcp.example.com', `000101${'cd'.repeat(32)}`, 60),
    ]);
    expect(all(again, 'example.org')).toEqual([record('x.example.org')]);
    again.replace('example.org', new Map([['x.example.org', []]]));
    expect(all(DhcidStore.open(stateDir), 'example.org')).toEqual([]);
    expect(JSON.parse(readFileSync(dhcidStorePath(stateDir), 'utf8')).zones).not.toHaveProperty('example.org');
  });

  it('hands out a map of its own: changing what of() returned changes nothing kept', () => {
    const store = DhcidStore.open(tempDir());
    store.replace('example.com', byName([record('a.example.com')]));
    store.of('example.com').delete('a.example.com');
    expect(all(store, 'example.com')).toEqual([record('a.example.com')]);
  });

  it(`holds at most ${MAX_DHCID_RECORDS} records over all zones; one more is refused and nothing changes`, () => {
    const stateDir = tempDir();
    const store = DhcidStore.open(stateDir);
    const many = Array.from({ length: MAX_DHCID_RECORDS - 1 }, (_, i) => record(`h${i}.example.com`));
    store.replace('example.com', byName(many));
    store.replace('example.org', byName([record('x.example.org')]));
    expect(store.roomFor('example.org').records).toBe(1);
    expect(store.roomFor('example.com').records).toBe(MAX_DHCID_RECORDS - 1);
    const before = readFileSync(dhcidStorePath(stateDir), 'utf8');
    expect(() => store.replace('example.org', byName([record('x.example.org'), record('y.example.org')]))).toThrow(
      /at most 50000 DHCID records/,
    );
    expect(readFileSync(dhcidStorePath(stateDir), 'utf8')).toBe(before);
    expect(all(store, 'example.org')).toHaveLength(1);
  });

  it('reports a damaged file (naming it) and leaves it as it is', () => {
    const cases = [
      '{"version":1,"zones":{"example.com":[{"name":"a.example.com"',
      '{"version":2,"zones":{}}',
      '{"version":1}',
      '{"version":1,"zones":{"example.com":{}}}',
      `{"version":1,"zones":{"example.com":[{"name":"a.example.org","ttl":60,"data":"${DATA}"}]}}`,
      `{"version":1,"zones":{"example.com":[{"name":"a.example.com","ttl":-1,"data":"${DATA}"}]}}`,
      '{"version":1,"zones":{"example.com":[{"name":"a.example.com","ttl":60,"data":"zz"}]}}',
      '{"version":1,"zones":{"example.com":[{"name":"a.example.com","ttl":60,"data":"0002"}]}}',
      '',
    ];
    for (const content of cases) {
      const { error, path } = damaged(content);
      expect(error, content).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain(`${path} is damaged`);
    }
  });

  it('refuses more records than it keeps, and a file larger than it writes, as damaged', () => {
    const tooMany = {
      version: 1,
      zones: { 'example.com': Array.from({ length: MAX_DHCID_RECORDS + 1 }, (_, i) => record(`h${i}.example.com`)) },
    };
    expect(damaged(JSON.stringify(tooMany)).error).toBeInstanceOf(ConfigError);
    const { error } = damaged(`{"version":1,"zones":{}}${' '.repeat(16 * 1024 * 1024)}`);
    expect((error as Error).message).toMatch(/too large to be ddedge's/);
  });
});
