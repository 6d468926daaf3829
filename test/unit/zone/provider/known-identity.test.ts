// An entry listed exactly as the file's record is that record itself (no second object for the
// listing), once: a second entry of the same record is a record of its own. Whatever the listing
// made of the file's records, the plan is the plan made from records read the long way.
import { describe, expect, it } from 'vitest';
import type { DnsEntry } from '../../../../src/api/endpoints/service.js';
import { planFromProvider, type PlanSettings } from '../../../../src/zone/apply/session.js';
import { readZoneText } from '../../../../src/zone/apply/zone-files.js';
import { type KnownRecords, readKnownEntry } from '../../../../src/zone/provider/known-records.js';
import { fromProvider } from '../../../../src/zone/provider/provider-mapping.js';
import type { ZoneProvider } from '../../../../src/zone/provider/provider-zone.js';
import type { LiveRecord } from '../../../../src/zone/record.js';
import { soleRecordAt } from '../../../../src/zone/wanted-zone.js';

const Z = 'identity.example';
const FILE = [
  `$ORIGIN ${Z}.`,
  '$TTL 300',
  'www IN A 192.0.2.1',
  'mail IN MX 10 mx.example.net.',
  'gone IN A 192.0.2.9',
];
const read = () => readZoneText(`${FILE.join('\n')}\n`, { zone: Z, file: 'zone.txt' });
const entry = (entityID: string, name: string, type: string, value: string, priority = '-'): DnsEntry =>
  ({ entityID, name: `${name}.${Z}`, type, ttl: '300', priority, value }) as DnsEntry;

/** A provider that lists `entries` in this order, read as the zone provider reads them (with or without `known`). */
function listing(entries: DnsEntry[]): ZoneProvider {
  return {
    async listing(options?: { known?: KnownRecords }) {
      const notAsListed = new Set<LiveRecord>();
      const records = entries.map((e) =>
        options?.known ? readKnownEntry(e, Z, options.known, notAsListed) : fromProvider(e, Z, notAsListed),
      );
      return { records, notAsListed, pages: 1 };
    },
  } as unknown as ZoneProvider;
}

const settings: PlanSettings = { service: Z, hosts: [], ignore: [], keepUnlisted: false, method: 'auto' };
const shown = (report: Awaited<ReturnType<typeof planFromProvider>>) => JSON.parse(JSON.stringify(report));

describe('the file record a listing holds exactly', () => {
  it('is the live record itself, once; a second entry equal to it is a record of its own', () => {
    const wanted = read();
    const known = soleRecordAt(wanted.records)!;
    const www = wanted.records.find((r) => r.name === `www.${Z}`)!;
    const first = readKnownEntry(entry('7', 'www', 'A', '192.0.2.1'), Z, known);
    const second = readKnownEntry(entry('8', 'www', 'A', '192.0.2.1'), Z, known);
    expect(first).toBe(www);
    expect(first.entityID).toBe('7');
    expect(second).not.toBe(www);
    expect(second).toEqual({ entityID: '8', name: `www.${Z}`, type: 'A', ttl: 300, value: '192.0.2.1' });
  });

  // The provider holding one record twice: the older entry is the one a master file writes, the other is kept as
  // unwritable. Listed newer first, the file's record became the newer entry; the plan must not take the file's
  // record for the kept one.
  for (const order of ['older first', 'newer first'] as const) {
    it(`plans as records read the long way do, a record held twice listed ${order}`, async () => {
      const twice = [entry('10', 'www', 'A', '192.0.2.1'), entry('20', 'www', 'A', '192.0.2.1')];
      const entries = [
        ...(order === 'older first' ? twice : twice.reverse()),
        entry('30', 'mail', 'MX', 'mx.example.net', '10'),
        entry('40', 'old', 'A', '192.0.2.50'),
      ];
      const withKnown = await planFromProvider(listing(entries), read(), settings);
      const longWay = await planFromProvider(
        { ...listing(entries), listing: () => listing(entries).listing() },
        read(),
        settings,
      );
      expect(shown(withKnown)).toEqual(shown(longWay));
      expect(withKnown.plan.unchanged.map((r) => r.entityID).sort()).toEqual(['10', '30']);
      expect(withKnown.plan.kept.map((k) => k.reason)).toEqual([
        expect.stringContaining('another entry holds the same record'),
      ]);
      expect(withKnown.plan.changes.map((c) => `${c.action} ${(c.after ?? c.before)!.name}`)).toEqual([
        `create gone.${Z}`,
        `delete old.${Z}`,
      ]);
    });
  }
});
