// The gateway's view of a zone is changed in place, owner by owner, after an update (the names
// it read or wrote), never rebuilt from the whole zone. What is patched must be what a build
// from the whole listing gives: the same owners and records, the same names that exist (empty
// non-terminals appear and go), the same delegations; and a reading that changes nothing
// leaves the serial (and the secondaries) alone.
import { describe, expect, it } from 'vitest';
import { answerFromZone, type ZoneIndex } from '../../../../src/dns/server/authority.js';
import type { DnsRecord } from '../../../../src/dns/wire/types.js';
import { ZoneViews } from '../../../../src/gateway/dns/zone-views.js';
import type { ZoneProvider } from '../../../../src/zone/provider/provider-zone.js';
import type { LiveRecord } from '../../../../src/zone/record.js';

const ZONE = 'example.com';
const NAMES = [
  'example.com',
  'a.example.com',
  'b.a.example.com',
  'c.b.a.example.com',
  'sub.example.com',
  'ns.sub.example.com',
  'x.sub.example.com',
  '*.example.com',
  'www.example.com',
];
const TYPES: [string, (i: number) => string][] = [
  ['A', (i) => `192.0.2.${i % 250}`],
  ['TXT', (i) => `text ${i}`],
  ['NS', (i) => `ns${i % 3}.elsewhere.net`],
  ['MX', (i) => `mail${i % 2}.example.com`],
];
const noProvider = (() => {
  throw new Error('not read');
}) as unknown as (zone: string) => ZoneProvider;

/** Everything an answer depends on, in a form two indexes can be compared by. */
function shape(index: ZoneIndex) {
  // The SOA aside: its serial says when each view last changed, not what it holds.
  const records = (list: DnsRecord[]) =>
    list
      .filter((r) => r.type !== 'SOA')
      .map((r) => JSON.stringify([r.name, r.type, r.ttl, r.value]))
      .sort();
  return {
    nodes: Object.fromEntries([...index.nodes].map(([k, v]) => [k, records(v)]).sort()),
    existing: Object.fromEntries([...index.existing].sort()),
    cuts: Object.fromEntries([...index.cuts].map(([k, v]) => [k, records(v)]).sort()),
    size: index.size,
  };
}

/** A small pseudo-random sequence, the same at every run. */
function numbers(seed: number) {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}

describe('the view patched by names equals the view built from the whole zone', () => {
  it('over 300 random changes of a few names each: owners, empty non-terminals, delegations, sizes', () => {
    const next = numbers(7);
    let id = 0;
    let live: LiveRecord[] = [
      { entityID: String(id++), name: 'home.example.com', type: 'A', value: '192.0.2.1', ttl: 300 },
    ];
    let now = 1_000;
    const patched = new ZoneViews([ZONE], noProvider, 'gw.example.net', () => now);
    patched.show(ZONE, live);
    for (let step = 0; step < 300; step++) {
      now++;
      const names = NAMES.filter(() => next() < 0.3);
      // The names' new content: each keeps, loses or gains records.
      const others = live.filter((r) => !names.includes(r.name));
      const fresh: LiveRecord[] = [];
      for (const name of names) {
        for (const [type, value] of TYPES) {
          if (type === 'NS' && name === ZONE) continue;
          const count = Math.floor(next() * 3) - 1;
          for (let i = 0; i < count; i++)
            fresh.push({
              entityID: String(id++),
              name,
              type,
              value: value(Math.floor(next() * 1000)),
              ttl: 300,
              ...(type === 'MX' ? { priority: 10 } : {}),
            });
        }
      }
      live = [...others, ...fresh];
      patched.showNames(ZONE, names, fresh);
      const built = new ZoneViews([ZONE], noProvider, 'gw.example.net', () => now);
      built.show(ZONE, live);
      expect(shape(patched.index(ZONE)!), `step ${step}, names ${names.join(' ')}`).toEqual(shape(built.index(ZONE)!));
      expect(patched.size(ZONE)).toBe(live.length);
    }
  });

  it('an empty non-terminal goes with the last name below it; NXDOMAIN then, and the serial grows', () => {
    let now = 5_000;
    const changed: number[] = [];
    const views = new ZoneViews(
      [ZONE],
      noProvider,
      'gw.example.net',
      () => now,
      (_zone, soa) => changed.push(soa.value.serial),
    );
    views.show(ZONE, [{ entityID: '1', name: 'a.cdn.example.com', type: 'A', value: '192.0.2.7', ttl: 60 }]);
    const ask = (name: string) => answerFromZone(views.index(ZONE)!, name, 1, 60);
    expect(ask('cdn.example.com')).toMatchObject({ rcode: 0, answers: [] });
    const serial = views.index(ZONE)!.soa.value.serial;
    now++;
    views.showNames(ZONE, ['a.cdn.example.com'], []);
    expect(ask('cdn.example.com').rcode).toBe(3);
    expect(ask('a.cdn.example.com').rcode).toBe(3);
    expect(views.index(ZONE)!.soa.value.serial).toBeGreaterThan(serial);
    expect(changed).toEqual([views.index(ZONE)!.soa.value.serial]);
    // The apex keeps its SOA and the gateway's NS.
    expect(answerFromZone(views.index(ZONE)!, ZONE, 6, 60).answers.map((r) => r.type)).toEqual(['SOA']);
    expect(answerFromZone(views.index(ZONE)!, ZONE, 2, 60).answers.map((r) => r.value)).toEqual(['gw.example.net']);
  });

  it('a reading of names that changes nothing leaves the serial and sends no NOTIFY', () => {
    let now = 9_000;
    const changed: number[] = [];
    const views = new ZoneViews(
      [ZONE],
      noProvider,
      'gw.example.net',
      () => now,
      (_zone, soa) => changed.push(soa.value.serial),
    );
    const home: LiveRecord = { entityID: '1', name: 'home.example.com', type: 'A', value: '192.0.2.7', ttl: 60 };
    views.show(ZONE, [home]);
    const version = views.version;
    now += 10;
    views.showNames(ZONE, ['home.example.com', 'nothing.example.com'], [{ ...home, entityID: '2' }]);
    views.show(ZONE, [home]);
    expect(views.version).toBe(version);
    expect(changed).toEqual([]);
  });
});
