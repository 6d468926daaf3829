// The provider's record that is exactly the file's becomes the file's record object as its page
// arrives (one object for the two); anything less stays the provider's own. The plan over shared
// records is the plan over unshared ones.
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import type { DnsEntry } from '../../../src/api/endpoints/service.js';
import { undiciTransport } from '../../../src/http/undici-transport.js';
import { planFromProvider } from '../../../src/zone/apply/session.js';
import { readZoneText } from '../../../src/zone/apply/zone-files.js';
import { ownership } from '../../../src/zone/plan/ownership.js';
import { planZone, type Plan } from '../../../src/zone/plan/plan.js';
import { providerZone, type ZoneProvider } from '../../../src/zone/provider/provider-zone.js';
import type { LiveRecord } from '../../../src/zone/record.js';
import { SharedRecords } from '../../../src/zone/shared-records.js';
import { FileRecord } from '../../../src/zone/wanted-zone.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const Z = 'shared.example';
const read = (lines: string[]) =>
  readZoneText(`$ORIGIN ${Z}.\n$TTL 300\n${lines.join('\n')}\n`, { zone: Z, file: 'zone.txt' });
const live = (id: string, name: string, type: string, value: string, ttl?: number, priority?: number) =>
  ({ entityID: id, name: `${name}.${Z}`, type, ttl, priority, value }) as LiveRecord;
const nobody = ownership({ zone: Z, hosts: [], ignore: [] });
/** A plan by fields and entity IDs, whatever objects hold them. */
const shown = (plan: Plan) => ({
  changes: plan.changes.map((c) => [c.action, c.before?.entityID, c.after && { ...c.after }]),
  unchanged: plan.unchanged.map((r) => r.entityID),
  kept: plan.kept,
  touchable: plan.touchable,
});

describe('records shared between the file and the provider', () => {
  it('an identical entry is the file record, holding the entity ID; where it was written stays the file record', () => {
    const wanted = read(['www IN A 192.0.2.1', 'mail 60 IN MX 10 mx.example.net.']);
    const share = new SharedRecords(wanted.records).share;
    const www = share(live('7', 'www', 'A', '192.0.2.1', 300));
    const mail = share(live('8', 'mail', 'MX', 'mx.example.net', 60, 10));
    expect(www).toBe(wanted.records[0]);
    expect(mail).toBe(wanted.records[1]);
    expect([www.entityID, mail.entityID]).toEqual(['7', '8']);
    expect((www as FileRecord).where).toBe('zone.txt:3:8');
    // Not an own field: a spread record or a change's JSON does not carry it.
    expect(Object.keys(www)).not.toContain('entityID');
  });

  it('another TTL, value, type, priority or name stays the provider record', () => {
    const wanted = read(['www IN A 192.0.2.1', 'mail 60 IN MX 10 mx.example.net.']);
    const share = new SharedRecords(wanted.records).share;
    for (const other of [
      live('1', 'www', 'A', '192.0.2.1', 60),
      live('2', 'www', 'A', '192.0.2.1'),
      live('3', 'www', 'A', '192.0.2.2', 300),
      live('4', 'www', 'TXT', '192.0.2.1', 300),
      live('5', 'mail', 'MX', 'mx.example.net', 60, 20),
      live('6', 'ftp', 'A', '192.0.2.1', 300),
    ])
      expect(share(other)).toBe(other);
    expect(wanted.records.map((r) => (r as FileRecord).entityID)).toEqual([undefined, undefined]);
  });

  it('a record stands for one entity: a second identical entry stays itself', () => {
    const wanted = read(['www IN A 192.0.2.1']);
    const share = new SharedRecords(wanted.records).share;
    const second = live('2', 'www', 'A', '192.0.2.1', 300);
    expect(share(live('1', 'www', 'A', '192.0.2.1', 300))).toBe(wanted.records[0]);
    expect(share(second)).toBe(second);
    expect((wanted.records[0] as FileRecord).entityID).toBe('1');
  });

  it('a name with several records in the file, and records of the JSON form, are not shared', () => {
    const several = read(['www IN A 192.0.2.1', 'www IN A 192.0.2.2']);
    const a = live('1', 'www', 'A', '192.0.2.1', 300);
    expect(new SharedRecords(several.records).share(a)).toBe(a);
    const json = readZoneText(JSON.stringify([{ name: `www.${Z}`, type: 'A', ttl: 300, value: '192.0.2.1' }]), {
      zone: Z,
      file: 'zone.json',
    });
    expect(json.records[0]).not.toBeInstanceOf(FileRecord);
    expect(new SharedRecords(json.records).share(a)).toBe(a);
  });

  it('the plan over shared records is the plan over the provider records, change for change', () => {
    const lines = [
      'www IN A 192.0.2.1',
      'www IN TXT "hello"',
      'same IN A 192.0.2.3',
      'twice IN A 192.0.2.4',
      'ttl 60 IN A 192.0.2.5',
      'new IN A 192.0.2.6',
    ];
    const have = () => [
      live('1', 'www', 'A', '192.0.2.1', 300),
      live('2', 'same', 'A', '192.0.2.3', 300),
      live('3', 'twice', 'A', '192.0.2.4', 300),
      live('4', 'twice', 'A', '192.0.2.4', 300),
      live('5', 'ttl', 'A', '192.0.2.5', 300),
      live('6', 'gone', 'A', '192.0.2.9', 300),
    ];
    const plain = planZone(have(), read(lines), nobody);
    const wanted = read(lines);
    const share = new SharedRecords(wanted.records).share;
    const sharedLive = have().map(share);
    expect(sharedLive.filter((r) => r instanceof FileRecord).map((r) => r.entityID)).toEqual(['2', '3']);
    const shared = planZone(sharedLive, wanted, nobody);
    expect(shown(shared)).toEqual(shown(plain));
    expect(shared.unchanged.map((r) => r.entityID)).toEqual(['2', '3', '1']);
    expect(shown(shared).changes.map(([action, id]) => `${action} ${id ?? '-'}`)).toEqual([
      'delete 6',
      'create -',
      'update 5',
      'delete 4',
      'create -',
    ]);
  });
});

describe('a plan from a provider whose listing shares', () => {
  /** The listing of `records`, shared when asked; nothing else is called. */
  const listingOnly = (records: () => LiveRecord[], sharing: boolean): ZoneProvider =>
    ({
      listing: async (share?: (r: LiveRecord) => LiveRecord) => ({
        records: records().map((r) => (sharing && share ? share(r) : r)),
        pages: 1,
      }),
    }) as unknown as ZoneProvider;
  const settings = { service: Z, hosts: [], ignore: [], keepUnlisted: false, method: 'auto' as const };

  /** The plan from `have` and the file's `lines`, shared or not: its changes, or the error it stops with. */
  const outcome = (lines: string[], have: () => LiveRecord[], sharing: boolean) => {
    const wanted = read(lines);
    return planFromProvider(listingOnly(have, sharing), wanted, settings, nobody).then(
      (report) => ({ plan: shown(report.plan), unsafe: report.unsafe, fileObjects: fileObjects(report.plan) }),
      (error: Error) => ({ error: error.message }),
    );
  };
  const fileObjects = (plan: Plan) => plan.live.filter((r) => r instanceof FileRecord).map((r) => r.entityID);

  it('a shared record the plan keeps as unwritable is kept apart from the file record it equals', async () => {
    // Two entries of the file's record, the newer listed first: the newer is marked (the older is
    // written), and the plan must still plan the file's record as when nothing is shared.
    const lines = ['d IN A 192.0.2.2', 'keep IN A 192.0.2.3'];
    const have = () => [
      live('6', 'd', 'A', '192.0.2.2', 300),
      live('5', 'd', 'A', '192.0.2.2', 300),
      live('3', 'keep', 'A', '192.0.2.3', 300),
    ];
    const plain = await outcome(lines, have, false);
    const shared = await outcome(lines, have, true);
    expect(shared).toEqual({ ...plain, fileObjects: ['3'] });
    expect(plain).toMatchObject({ plan: { unchanged: ['5', '3'], changes: [] } });
    // A CNAME beside the file's A: the same refusal either way.
    const cname = ['x IN A 192.0.2.1'];
    const beside = () => [live('1', 'x', 'CNAME', `keep.${Z}`, 300), live('2', 'x', 'A', '192.0.2.1', 300)];
    const refused = await outcome(cname, beside, false);
    expect(refused).toEqual({ error: expect.stringContaining('a CNAME cannot share its name') });
    expect(await outcome(cname, beside, true)).toEqual(refused);
  });
});

describe('a listing shares records as its pages arrive', () => {
  const sandbox = useSandbox({ per: 'file' });

  it('every record of the listing goes through share, the pages of 1,000 included', async () => {
    const service = sandbox.model.services.find((s) => s.name === 'example.com')!;
    service.productkey = 'corporate';
    service.dns.length = 0;
    for (let i = 0; i < 1_500; i++)
      service.dns.push({
        entityID: String(700_000 + i),
        name: `h${i}.example.com`,
        type: 'A',
        ttl: '300',
        priority: '-',
        value: `10.1.${i >> 8}.${i & 255}`,
      } as DnsEntry);
    const zone = providerZone(
      new ApiClient({
        url: sandbox.url,
        user: 'demo-user',
        password: 'demo-api-password',
        transport: undiciTransport(),
      }),
      'example.com',
    );
    const wanted = readZoneText(
      `$ORIGIN example.com.\n$TTL 300\n${Array.from({ length: 1_500 }, (_, i) => `h${i} A 10.1.${i >> 8}.${i & 255}`).join('\n')}\n`,
      { zone: 'example.com', file: 'zone.txt' },
    );
    const seen: string[] = [];
    const shared = new SharedRecords(wanted.records).share;
    const listing = await zone.listing((r) => {
      seen.push(r.entityID);
      return shared(r);
    });
    expect(listing.incomplete).toBeUndefined();
    expect(listing.pages).toBe(2);
    expect(seen).toHaveLength(1_500);
    expect(listing.records.every((r, i) => (r as unknown) === wanted.records[i])).toBe(true);
    expect(listing.records.map((r) => r.entityID)).toEqual(seen);
    // Without share, the provider's own records, equal in every field.
    const plain = await zone.listing();
    expect(plain.records.some((r) => r instanceof FileRecord)).toBe(false);
    expect(plain.records.map((r) => ({ ...r }))).toEqual(listing.records.map((r) => ({ ...r, entityID: r.entityID })));
  });
});
