// Keeping the DNS-PERSIST-01 record through the provider (an in-memory zone): one record for the
// issuer, an equal one costs one read and no write, another issuer's record and other TXT texts
// at the name are never touched, and what is kept is remembered for the daemon's warning.
import { describe, expect, it } from 'vitest';
import { keepPersistRecord, removePersistRecord } from '../../../src/acme/persist.js';
import type { PersistTarget } from '../../../src/acme/persist-target.js';
import { createLogger } from '../../../src/lib/log.js';
import { readPersisted } from '../../../src/state/acme-persisted.js';
import { tempDir } from '../../helpers/cli.js';
import { MemoryZone } from '../../helpers/memory-zone.js';

const NAME = '_validation-persist.example.com';
const ACCOUNT = 'https://acme.example/acme/acct/123456789';
const TARGET: PersistTarget = {
  domain: 'example.com',
  name: NAME,
  service: 'example.com',
  issuer: 'letsencrypt.org',
  accountUri: ACCOUNT,
  wildcard: true,
  persistUntil: 1_830_297_600,
};
const WANTED = `letsencrypt.org; accounturi=${ACCOUNT}; policy=wildcard; persistUntil=1830297600`;
const OTHER_CA = 'ca2.example; accounturi=https://ca2.example/acme/acct/67890';
const VERIFICATION = 'google-site-verification=abc';

function context(zone: MemoryZone, stateDir = tempDir('ddedge-persist-')) {
  const lines: string[] = [];
  return {
    provider: zone,
    stateDir,
    lines,
    logger: createLogger({ level: 'debug', format: 'text', write: (line) => void lines.push(line) }),
    now: () => new Date('2026-12-02T06:00:00Z'),
  };
}

describe('acme persist through the provider', () => {
  it('creates the record beside the others, then an equal one costs one read and no write', async () => {
    const zone = new MemoryZone([
      { name: NAME, type: 'TXT', value: OTHER_CA },
      { name: NAME, type: 'TXT', value: VERIFICATION },
    ]);
    const ctx = context(zone);
    const first = await keepPersistRecord(ctx, TARGET);
    expect(first).toMatchObject({ action: 'created', record: WANTED, otherRecords: 2 });
    expect(zone.writes()).toEqual([`create ${NAME} TXT ${WANTED}`]);
    expect(zone.held()).toEqual(
      [`${NAME} TXT ${OTHER_CA}`, `${NAME} TXT ${WANTED}`, `${NAME} TXT ${VERIFICATION}`].sort(),
    );

    zone.calls.length = 0;
    const again = await keepPersistRecord(ctx, TARGET);
    expect(again).toMatchObject({ action: 'unchanged', otherRecords: 2 });
    expect(zone.calls).toEqual([`listNames ${NAME}`]);
  });

  it("replaces only the issuer's own record, in place, keeping its TTL; a second one for the issuer goes", async () => {
    const zone = new MemoryZone([
      { name: NAME, type: 'TXT', ttl: 3600, value: `LetsEncrypt.org.; accounturi=${ACCOUNT}` },
      { name: NAME, type: 'TXT', value: 'letsencrypt.org; accounturi=https://old.example/acct/1; persistUntil=x' },
      { name: NAME, type: 'TXT', value: OTHER_CA },
    ]);
    const report = await keepPersistRecord(context(zone), TARGET);
    expect(report).toMatchObject({ action: 'updated', otherRecords: 1 });
    expect(zone.writes()).toEqual([`update e1 ${NAME} TXT ${WANTED}`, 'delete e2']);
    expect(zone.live.find((r) => r.value === WANTED)?.ttl).toBe(3600);
    expect(zone.held()).toEqual([`${NAME} TXT ${OTHER_CA}`, `${NAME} TXT ${WANTED}`].sort());
  });

  it('writes --ttl with the record; the same TTL costs no write, another is an update in place', async () => {
    const zone = new MemoryZone([{ name: NAME, type: 'TXT', value: OTHER_CA }]);
    const ctx = context(zone);
    expect(await keepPersistRecord(ctx, { ...TARGET, ttl: 300 })).toMatchObject({ action: 'created' });
    expect(zone.live.find((r) => r.value === WANTED)?.ttl).toBe(300);

    zone.calls.length = 0;
    expect(await keepPersistRecord(ctx, { ...TARGET, ttl: 300 })).toMatchObject({ action: 'unchanged' });
    expect(zone.calls).toEqual([`listNames ${NAME}`]);
    // Without --ttl the record's TTL is whatever it is: no write either.
    expect(await keepPersistRecord(ctx, TARGET)).toMatchObject({ action: 'unchanged' });
    expect(zone.writes()).toEqual([]);

    const entity = zone.live.find((r) => r.value === WANTED)!.entityID;
    expect(await keepPersistRecord(ctx, { ...TARGET, ttl: 3600 })).toMatchObject({ action: 'updated' });
    expect(zone.writes()).toEqual([`update ${entity} ${NAME} TXT ${WANTED}`]);
    expect(zone.live.filter((r) => r.value === WANTED).map((r) => r.ttl)).toEqual([3600]);
    expect(zone.held()).toEqual([`${NAME} TXT ${OTHER_CA}`, `${NAME} TXT ${WANTED}`].sort());
  });

  it('remembers what it keeps, once per name and issuer, and forgets it on removal', async () => {
    const zone = new MemoryZone([{ name: NAME, type: 'TXT', value: OTHER_CA }]);
    const ctx = context(zone);
    await keepPersistRecord(ctx, TARGET);
    await keepPersistRecord(ctx, { ...TARGET, persistUntil: 1_900_000_000 });
    expect(readPersisted(ctx.stateDir).records).toEqual([
      {
        name: NAME,
        domain: 'example.com',
        service: 'example.com',
        issuer: 'letsencrypt.org',
        accountUri: ACCOUNT,
        wildcard: true,
        persistUntil: 1_900_000_000,
        writtenAt: '2026-12-02T06:00:00.000Z',
      },
    ]);
    zone.calls.length = 0;
    const removed = await removePersistRecord(ctx, TARGET);
    expect(removed).toMatchObject({ action: 'deleted', otherRecords: 1 });
    expect(zone.held()).toEqual([`${NAME} TXT ${OTHER_CA}`]);
    expect(readPersisted(ctx.stateDir).records).toEqual([]);
    const again = await removePersistRecord(ctx, TARGET);
    expect(again.action).toBe('absent');
    expect(zone.writes()).toEqual(['delete e2']);
  });

  it('changes nothing, and remembers nothing, when the provider refuses the write', async () => {
    const zone = new MemoryZone();
    zone.onWrite = () => 'refused';
    const ctx = context(zone);
    await expect(keepPersistRecord(ctx, TARGET)).rejects.toThrow(/invalid value/);
    expect(zone.held()).toEqual([]);
    expect(readPersisted(ctx.stateDir).records).toEqual([]);
  });
});
