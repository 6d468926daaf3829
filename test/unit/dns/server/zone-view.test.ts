// One served zone, changed record set by record set in place (what an RFC 2136 update or a
// sandbox API write changes), answers every question as the same zone built from scratch:
// names that exist and empty non-terminals, delegations and their glue, wildcards, CNAME chains,
// NODATA and NXDOMAIN with the SOA; the serial moves exactly when an answer can have changed,
// and the content digest is the one a build from the whole zone gives.
import { describe, expect, it } from 'vitest';
import { buildZoneIndex, buildZoneIndexOfOwners, type ZoneAnswer } from '../../../../src/dns/server/authority.js';
import { ServedZones, ZoneView } from '../../../../src/dns/server/zone-view.js';
import type { DnsRecord } from '../../../../src/dns/wire/types.js';

const APEX = 'example.com';
const OWNERS = [
  'example.com',
  'a.example.com',
  'b.a.example.com',
  'c.b.a.example.com',
  'sub.example.com',
  'ns.sub.example.com',
  'x.sub.example.com',
  '*.example.com',
  '*.a.example.com',
  'www.example.com',
  'mail.example.com',
  'deep.x.y.example.com',
];
const QUESTIONS = [
  ...OWNERS.filter((o) => !o.startsWith('*')),
  'nope.example.com',
  'q.a.example.com',
  'q.b.a.example.com',
  'x.y.example.com',
  'y.example.com',
  'z.deep.x.y.example.com',
  'w.sub.example.com',
  'Www.Example.COM',
];
const TYPES = [1, 2, 5, 6, 15, 16, 28, 255];

/** A small pseudo-random sequence, the same at every run. */
function numbers(seed: number) {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}

/** One record set's records, drawn at random (possibly none). */
function drawSet(next: () => number, owner: string): DnsRecord[] {
  const pick = Math.floor(next() * 7);
  const count = Math.floor(next() * 3);
  const records: DnsRecord[] = [];
  for (let i = 0; i < count; i++) {
    const n = Math.floor(next() * 5);
    if (pick === 0) records.push({ name: owner, type: 'A', ttl: 300, value: `192.0.2.${n}` });
    if (pick === 1) records.push({ name: owner, type: 'TXT', ttl: 60 + n, value: [`text ${n}`] });
    if (pick === 2 && owner !== APEX)
      records.push({ name: owner, type: 'NS', ttl: 300, value: n % 2 ? `ns.sub.${APEX}` : `ns${n}.elsewhere.net` });
    if (pick === 3 && i === 0)
      records.push({ name: owner, type: 'CNAME', ttl: 300, value: n % 2 ? `www.${APEX}` : `c.b.a.${APEX}` });
    if (pick === 4)
      records.push({ name: owner, type: 'MX', ttl: 300, value: { preference: n, exchange: `mail.${APEX}` } });
    if (pick === 5) records.push({ name: owner, type: 'AAAA', ttl: 300, value: `2001:db8::${n}` });
    if (pick === 6 && owner === APEX)
      records.push({ name: owner, type: 'NS', ttl: 300, value: `ns${n}.elsewhere.net` });
  }
  return records;
}

/** The zone's records grouped by owner, each owner's record sets by type. */
type Zone = Map<string, Map<string, DnsRecord[]>>;
const ownerRecords = (zone: Zone, owner: string): DnsRecord[] => [...(zone.get(owner)?.values() ?? [])].flat();

/** An answer with the serial left out (a rebuild's serial says when it was built, not what it holds). */
function plain(answer: ZoneAnswer) {
  const strip = (list: DnsRecord[]) =>
    list.map((r) => (r.type === 'SOA' ? { ...r, value: { ...(r.value as object), serial: 0 } } : r));
  return {
    ...answer,
    answers: strip(answer.answers),
    authority: strip(answer.authority),
    additional: strip(answer.additional),
  };
}

describe('a zone view changed in place answers as one built afresh', () => {
  it('over 400 seeded changes of one record set each (adds, replacements, deletes)', () => {
    const next = numbers(26);
    const zone: Zone = new Map();
    const served = new ServedZones();
    let serial = 100;
    const view = new ZoneView(APEX, {
      digest: true,
      primary: 'gw.example.net',
      nextSerial: (current) => (current === undefined ? serial : ++serial),
    });
    served.set(view);
    served.show(view, new Map([[APEX, [{ name: APEX, type: 'NS', ttl: 300, value: 'gw.example.net' }]]]));
    zone.set(APEX, new Map([['NS', [{ name: APEX, type: 'NS', ttl: 300, value: 'gw.example.net' }]]]));
    let changes = 0;
    for (let step = 0; step < 400; step++) {
      const owner = OWNERS[Math.floor(next() * OWNERS.length)]!;
      const records = drawSet(next, owner);
      const type = records[0]?.type ?? ['A', 'TXT', 'NS', 'CNAME', 'MX', 'AAAA'][Math.floor(next() * 6)]!;
      const sets = zone.get(owner) ?? new Map<string, DnsRecord[]>();
      const before = JSON.stringify(ownerRecords(zone, owner));
      if (records.length) sets.set(type, records);
      else sets.delete(type);
      if (sets.size) zone.set(owner, sets);
      else zone.delete(owner);
      const version = served.version;
      const soa = served.show(view, new Map([[owner, ownerRecords(zone, owner)]]));
      const changed = before !== JSON.stringify(ownerRecords(zone, owner));
      // Moved exactly when the owner's content did (order of records aside, it never moves here).
      expect(Boolean(soa), `step ${step}`).toBe(changed);
      expect(served.version, `step ${step}`).toBe(version + (changed ? 1 : 0));
      if (changed) changes++;

      const built = new ZoneView(APEX, { digest: true, primary: 'gw.example.net', nextSerial: () => 1 });
      built.show(new Map([...zone.keys()].map((o) => [o, ownerRecords(zone, o)])));
      expect(view.digest, `step ${step}`).toBe(built.digest);
      expect(view.index!.size, `step ${step}`).toBe(built.index!.size);
      const fresh = new ServedZones();
      fresh.set(built);
      for (const name of QUESTIONS)
        for (const qtype of TYPES)
          expect(plain(served.answer(name, qtype)), `step ${step}: ${name} type ${qtype}`).toEqual(
            plain(fresh.answer(name, qtype)),
          );
    }
    expect(view.serial).toBe(100 + changes);
    expect(changes).toBeGreaterThan(150);
  });

  it('is first shown from its owners as buildZoneIndex indexes the same records one by one', () => {
    const next = numbers(7);
    const soa = {
      name: APEX,
      type: 'SOA' as const,
      ttl: 300,
      value: {
        mname: 'gw.example.net',
        rname: 'x.example.net',
        serial: 1,
        refresh: 1,
        retry: 1,
        expire: 1,
        minimum: 1,
      },
    };
    for (let round = 0; round < 50; round++) {
      const owners = new Map<string, DnsRecord[]>();
      for (const owner of OWNERS) {
        const records = [...drawSet(next, owner), ...drawSet(next, owner)];
        // SOA records the provider lists are not served, at the apex or below it.
        if (next() < 0.1) records.push({ ...soa, name: owner });
        if (records.length || next() < 0.2) owners.set(owner, records);
      }
      const flat = [...owners.values()].flat();
      expect(buildZoneIndexOfOwners(APEX, soa, owners), `round ${round}`).toEqual(buildZoneIndex(APEX, soa, flat));
    }
  });

  it('finds the zone by the longest apex a name lies under; REFUSED outside, SERVFAIL before the first showing', () => {
    const served = new ServedZones();
    const parent = new ZoneView('example.com', { nextSerial: () => 1 });
    const child = new ZoneView('lab.example.com', { nextSerial: () => 1 });
    served.set(parent);
    served.set(child);
    expect(served.zoneOf('x.lab.example.com')).toBe(child);
    expect(served.zoneOf('xlab.example.com')).toBe(parent);
    expect(served.answer('x.example.org', 1).rcode).toBe(5);
    expect(served.answer('x.example.com', 1).rcode).toBe(2);
    served.show(
      parent,
      new Map([['example.com', [{ name: 'example.com', type: 'NS', ttl: 300, value: 'ns1.example.com' }]]]),
    );
    // The SOA names the first apex NS when no primary is given; the negative TTL is the SOA minimum.
    const nx = served.answer('x.example.com', 1);
    expect(nx.rcode).toBe(3);
    expect(nx.authority[0]).toMatchObject({
      type: 'SOA',
      ttl: 60,
      value: {
        mname: 'ns1.example.com',
        rname: 'hostmaster.example.com',
        serial: 1,
        refresh: 3600,
        retry: 600,
        expire: 604800,
        minimum: 60,
      },
    });
  });
});
