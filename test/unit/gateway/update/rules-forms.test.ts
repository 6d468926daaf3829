// RFC 2136's forms as update/rules.ts judges them, one by one: each malformed prerequisite and
// update with its RCODE, EDE and reason; the order of the passes (grants, then prerequisites,
// then the prescan of the updates); the record forms the provider holds (MX, SRV, TXT, CAA,
// AAAA, NS below the apex) with their priorities; an RRset's one TTL; and the provider's own
// records (SOA, apex NS), which an update leaves as they are.
import { describe, expect, it } from 'vitest';
import { EDE } from '../../../../src/dns/wire/edns.js';
import type { DnsRecord } from '../../../../src/dns/wire/types.js';
import { CLASS, TYPE_ANY, type UpdateMessage, type UpdateRecord } from '../../../../src/gateway/update/message.js';
import {
  evaluateUpdate,
  grantsFirst,
  RCODE_UPDATE,
  unfitOwner,
  unfitText,
  type Allowed,
  type Evaluation,
} from '../../../../src/gateway/update/rules.js';
import type { LiveRecord } from '../../../../src/zone/record.js';

const ZONE = 'example.com';
const T = { A: 1, NS: 2, CNAME: 5, SOA: 6, MX: 15, TXT: 16, AAAA: 28, SRV: 33, CAA: 257, DHCID: 49 };
const live: LiveRecord[] = [
  { entityID: '1', name: 'example.com', type: 'A', ttl: 300, value: '192.0.2.10' },
  { entityID: '2', name: 'example.com', type: 'NS', ttl: 3600, value: 'ns1.provider.example' },
  { entityID: '3', name: 'example.com', type: 'SOA', ttl: 3600, value: 'ns1.provider.example. hostmaster 1 2 3 4 5' },
  { entityID: '4', name: 'example.com', type: 'MX', priority: 10, value: 'mail.example.com' },
  { entityID: '5', name: 'alias.example.com', type: 'CNAME', value: 'example.com' },
  { entityID: '6', name: 'txt.example.com', type: 'TXT', value: 'one' },
  { entityID: '7', name: 'ptr.example.com', type: 'PTR', value: 'host.example.net' },
];

const withData = (name: string, klass: number, ttl: number, data: DnsRecord): UpdateRecord => ({
  name,
  type: T[data.type as keyof typeof T] ?? TYPE_ANY,
  class: klass,
  ttl,
  data,
});
const a = (name: string, value: string, klass: number = CLASS.IN, ttl = 60) =>
  withData(name, klass, ttl, { name, type: 'A', ttl, value });
const txt = (name: string, value: string[], klass: number = CLASS.IN, ttl = 60) =>
  withData(name, klass, ttl, { name, type: 'TXT', ttl, value });
const mx = (name: string, preference: number, exchange: string, klass: number = CLASS.IN, ttl = 60) =>
  withData(name, klass, ttl, { name, type: 'MX', ttl, value: { preference, exchange } });
/** A record without data: an RRset or name form (RFC 2136 2.4.1-2.4.5, 2.5.2-2.5.3). */
const rr = (name: string, type: number, klass: number, ttl = 0): UpdateRecord => ({ name, type, class: klass, ttl });
const message = (prerequisites: UpdateRecord[], updates: UpdateRecord[]): UpdateMessage => ({
  id: 1,
  zone: { name: ZONE, type: T.SOA, class: CLASS.IN },
  prerequisites,
  updates,
  edns: true,
});
const everything: Allowed = () => true;
const run = (prerequisites: UpdateRecord[], updates: UpdateRecord[], allowed = everything, records = live) =>
  evaluateUpdate(message(prerequisites, updates), records, ZONE, allowed);
const refusal = (rcode: number, ede: number, why: string | RegExp) => ({
  ok: false,
  rcode,
  ede,
  why: typeof why === 'string' ? why : expect.stringMatching(why),
});
/** The records wanted at `name`, as `TYPE [priority ]value ttl` lines, sorted. */
const at = (result: Evaluation, name: string) => {
  if (!result.ok) throw new Error(`refused: ${result.why}`);
  return result.wanted
    .filter((r) => r.name === name)
    .map((r) => `${r.type} ${r.priority === undefined ? '' : `${r.priority} `}${r.value} ${r.ttl ?? '-'}`)
    .sort();
};

describe('the prescan of the updates (RFC 2136 3.4.1)', () => {
  const formerr = (why: string) => refusal(RCODE_UPDATE.FORMERR, EDE.OTHER, why);
  it.each([
    [
      'an add of type ANY',
      rr('x.example.com', TYPE_ANY, CLASS.IN, 60),
      'an add at x.example.com needs a type and data',
    ],
    ['an add without data', rr('x.example.com', T.A, CLASS.IN, 60), 'an add at x.example.com needs a type and data'],
    [
      'a delete of RRsets with a TTL',
      rr('x.example.com', T.A, CLASS.ANY, 60),
      'a delete of RRsets at x.example.com carries TTL 0 and no data',
    ],
    [
      'a delete of RRsets with data',
      a('x.example.com', '192.0.2.1', CLASS.ANY, 0),
      'a delete of RRsets at x.example.com carries TTL 0 and no data',
    ],
    [
      'a delete of one record with a TTL',
      a('x.example.com', '192.0.2.1', CLASS.NONE, 60),
      'a delete of one record at x.example.com carries TTL 0, a type and its data',
    ],
    [
      'a delete of one record of type ANY',
      { ...a('x.example.com', '192.0.2.1', CLASS.NONE, 0), type: TYPE_ANY },
      'a delete of one record at x.example.com carries TTL 0, a type and its data',
    ],
    [
      'a delete of one record without data',
      rr('x.example.com', T.A, CLASS.NONE),
      'a delete of one record at x.example.com carries TTL 0, a type and its data',
    ],
    ['an update of class CH', a('x.example.com', '192.0.2.1', 3), 'x.example.com has class 3'],
  ])('%s is FORMERR, and changes nothing', (_, update, why) => {
    expect(run([], [a('ok.example.com', '192.0.2.2'), update])).toEqual(formerr(why));
  });

  it('takes each well-formed update form', () => {
    const result = run(
      [],
      [
        a('x.example.com', '192.0.2.1'),
        a('x.example.com', '192.0.2.2'),
        a('x.example.com', '192.0.2.1', CLASS.NONE, 0),
        rr('txt.example.com', T.TXT, CLASS.ANY),
        rr('example.com', TYPE_ANY, CLASS.ANY),
      ],
    );
    expect(at(result, 'x.example.com')).toEqual(['A 192.0.2.2 60']);
    expect(at(result, 'txt.example.com')).toEqual([]);
    expect(at(result, 'example.com')).toEqual([]);
  });
});

describe('the order of the passes', () => {
  const failing = rr('nope.example.com', TYPE_ANY, CLASS.ANY); // NXDOMAIN
  it('grants and zones before prerequisites: a key cannot probe what it may not change', () => {
    const aOnly: Allowed = (_owner, type) => type === 'A';
    expect(run([failing], [txt('x.example.com', ['t'])], aOnly)).toEqual(
      refusal(RCODE_UPDATE.REFUSED, EDE.PROHIBITED, 'the key may not change TXT at x.example.com'),
    );
    expect(run([failing], [a('x.example.org', '192.0.2.1')])).toEqual(
      refusal(RCODE_UPDATE.NOTZONE, EDE.NOT_AUTHORITATIVE, 'x.example.org is outside the zone example.com'),
    );
  });

  it('prerequisites before the prescan of the updates; the first prerequisite that fails decides', () => {
    const malformed = rr('x.example.com', T.A, CLASS.IN, 60);
    expect(run([failing], [malformed])).toMatchObject({ rcode: RCODE_UPDATE.NXDOMAIN });
    expect(
      run([rr('example.com', TYPE_ANY, CLASS.ANY), failing, rr('alias.example.com', TYPE_ANY, CLASS.NONE)], []),
    ).toEqual(refusal(RCODE_UPDATE.NXDOMAIN, EDE.OTHER, 'prerequisite failed: nope.example.com is not in use'));
  });

  it('the prescan before any update is made: a malformed update after a refused one is still FORMERR', () => {
    const ptr = withData('p.example.com', CLASS.IN, 60, { name: 'p.example.com', type: 'PTR', ttl: 60, value: 'x.' });
    expect(run([], [{ ...ptr, type: 12 }, rr('x.example.com', T.A, CLASS.IN, 60)])).toMatchObject({
      rcode: RCODE_UPDATE.FORMERR,
    });
  });
});

describe('prerequisites (RFC 2136 2.4, 3.2)', () => {
  it.each([
    [
      'with a TTL',
      { ...rr('example.com', TYPE_ANY, CLASS.ANY), ttl: 5 },
      'prerequisite example.com has a TTL; prerequisites carry TTL 0',
    ],
    [
      'of class ANY with data',
      a('x.example.com', '192.0.2.1', CLASS.ANY, 0),
      'prerequisite x.example.com of class 255 has data',
    ],
    [
      'of class NONE with data',
      a('x.example.com', '192.0.2.1', CLASS.NONE, 0),
      'prerequisite x.example.com of class 254 has data',
    ],
    ['of class CH', rr('x.example.com', T.A, 3), 'prerequisite x.example.com has class 3'],
  ])('%s is FORMERR', (_, prerequisite, why) => {
    expect(run([prerequisite], [])).toEqual(refusal(RCODE_UPDATE.FORMERR, EDE.OTHER, why));
  });

  it('outside the zone is NOTZONE', () => {
    expect(run([rr('example.org', TYPE_ANY, CLASS.ANY)], [])).toEqual(
      refusal(RCODE_UPDATE.NOTZONE, EDE.NOT_AUTHORITATIVE, 'prerequisite example.org is outside the zone example.com'),
    );
  });

  it('names each failure: NXDOMAIN, YXDOMAIN, NXRRSET, YXRRSET', () => {
    expect(run([rr('txt.example.com', T.A, CLASS.ANY)], [])).toEqual(
      refusal(RCODE_UPDATE.NXRRSET, EDE.OTHER, 'prerequisite failed: txt.example.com has no A records'),
    );
    expect(run([rr('txt.example.com', TYPE_ANY, CLASS.NONE)], [])).toEqual(
      refusal(RCODE_UPDATE.YXDOMAIN, EDE.OTHER, 'prerequisite failed: txt.example.com is in use'),
    );
    expect(run([rr('txt.example.com', T.TXT, CLASS.NONE)], [])).toEqual(
      refusal(RCODE_UPDATE.YXRRSET, EDE.OTHER, 'prerequisite failed: txt.example.com has TXT records'),
    );
    expect(run([txt('txt.example.com', ['two'], CLASS.IN, 0)], [])).toEqual(
      refusal(
        RCODE_UPDATE.NXRRSET,
        EDE.OTHER,
        'prerequisite failed: the TXT records at txt.example.com are not the ones named',
      ),
    );
  });

  it('sees the apex in use, its SOA and NS there, and the types ddedge does not manage', () => {
    const empty: LiveRecord[] = [];
    expect(run([rr('example.com', TYPE_ANY, CLASS.ANY)], [], everything, empty).ok).toBe(true);
    expect(run([rr('example.com', TYPE_ANY, CLASS.NONE)], [], everything, empty)).toMatchObject({ rcode: 6 });
    for (const type of [T.SOA, T.NS]) {
      expect(run([rr('example.com', type, CLASS.ANY)], [], everything, empty).ok).toBe(true);
      expect(run([rr('example.com', type, CLASS.NONE)], [], everything, empty)).toMatchObject({ rcode: 7 });
    }
    // NS below the apex is an RRset like any other.
    expect(run([rr('sub.example.com', T.NS, CLASS.ANY)], [], everything, empty)).toMatchObject({ rcode: 8 });
    expect(run([rr('ptr.example.com', TYPE_ANY, CLASS.NONE)], [])).toMatchObject({ rcode: 6 });
    expect(run([rr('ptr.example.com', 12, CLASS.ANY)], []).ok).toBe(true);
  });

  it('value-dependent: exactly the records named, with their priorities, TTLs aside', () => {
    expect(run([mx('example.com', 10, 'mail.example.com', CLASS.IN, 0)], []).ok).toBe(true);
    expect(run([mx('example.com', 20, 'mail.example.com', CLASS.IN, 0)], [])).toMatchObject({ rcode: 8 });
    // Named twice, it is one record.
    const one = txt('txt.example.com', ['one'], CLASS.IN, 0);
    expect(run([one, one], []).ok).toBe(true);
    // Fewer than the provider holds, or more: not the RRset.
    const two = [...live, { entityID: '8', name: 'txt.example.com', type: 'TXT', value: 'two' }];
    expect(run([one], [], everything, two)).toMatchObject({ rcode: 8 });
    expect(
      run(
        [one, txt('txt.example.com', ['two'], CLASS.IN, 0), txt('txt.example.com', ['three'], CLASS.IN, 0)],
        [],
        everything,
        two,
      ),
    ).toMatchObject({ rcode: 8 });
    // The provider holding the same record twice is not the one record named.
    const twice = [...live, { entityID: '9', name: 'txt.example.com', type: 'TXT', value: 'one' }];
    expect(run([one], [], everything, twice)).toMatchObject({ rcode: 8 });
    // Each RRset named is checked, not only the first.
    expect(run([one, a('example.com', '192.0.2.99', CLASS.IN, 0)], [])).toEqual(
      refusal(
        RCODE_UPDATE.NXRRSET,
        EDE.OTHER,
        'prerequisite failed: the A records at example.com are not the ones named',
      ),
    );
    // A value the provider cannot hold names no record it holds.
    expect(run([a('example.com', 'not an address', CLASS.IN, 0)], [])).toEqual(
      refusal(RCODE_UPDATE.NXRRSET, EDE.INVALID_DATA, /^example\.com A: /),
    );
  });

  it('a value prerequisite whose text is not UTF-8 fails (NXRRSET), is not refused, and names the bytes', () => {
    const bytes = { ...txt('txt.example.com', ['one'], CLASS.IN, 0), notUtf8: 'byte 233 is not UTF-8' };
    expect(unfitText(message([bytes], []))).toBeUndefined();
    expect(run([bytes], [])).toEqual(
      refusal(
        RCODE_UPDATE.NXRRSET,
        EDE.OTHER,
        'prerequisite failed: txt.example.com holds no such TXT record (byte 233 is not UTF-8: the provider holds ' +
          'text only)',
      ),
    );
  });
});

describe('what is refused before the zone is read', () => {
  it('names whether the prerequisite or the update is not at a host name', () => {
    expect(unfitOwner(message([rr('x@y.example.com', TYPE_ANY, CLASS.ANY)], []))).toMatchObject({
      why: expect.stringMatching(/^the prerequisite at x@y\.example\.com names no host name/),
    });
    expect(unfitOwner(message([], [a('x@y.example.com', '192.0.2.1')]))).toMatchObject({
      why: expect.stringMatching(/^the update at x@y\.example\.com names no host name/),
    });
  });

  it('an update whose text is not UTF-8 is REFUSED (Invalid Data), an add and a delete alike', () => {
    for (const klass of [CLASS.IN, CLASS.NONE]) {
      const bytes = { ...txt('t.example.com', ['caf\uFFFD'], klass, klass === CLASS.IN ? 60 : 0), notUtf8: 'byte 233' };
      const refused = refusal(
        RCODE_UPDATE.REFUSED,
        EDE.INVALID_DATA,
        'the update at t.example.com: byte 233; the provider holds text, so these bytes cannot be kept as they are',
      );
      expect(unfitText(message([], [txt('ok.example.com', ['ok']), bytes]))).toEqual(refused);
      expect(run([], [bytes])).toEqual(refused);
    }
    expect(unfitText(message([], [txt('ok.example.com', ['ok'])]))).toBeUndefined();
  });
});

describe('the grants (grantsFirst)', () => {
  const none: Allowed = () => false;
  it('leaves a delete of every RRset at a name to the pass that knows the types there', () => {
    const anyDelete = message([], [rr('txt.example.com', TYPE_ANY, CLASS.ANY)]);
    expect(grantsFirst(anyDelete, ZONE, none)).toBeUndefined();
    expect(grantsFirst(anyDelete, ZONE, none, () => ['TXT'])).toEqual(
      refusal(RCODE_UPDATE.REFUSED, EDE.PROHIBITED, 'the key may not change TXT at txt.example.com'),
    );
    expect(grantsFirst(anyDelete, ZONE, none, () => [])).toBeUndefined();
    // Still NOTZONE outside the zone.
    expect(grantsFirst(message([], [rr('x.example.org', TYPE_ANY, CLASS.ANY)]), ZONE, none)).toMatchObject({
      rcode: RCODE_UPDATE.NOTZONE,
    });
  });

  it('asks for DHCID by its name, and never for the SOA or the apex NS, which are ignored', () => {
    const dhcid = message([], [{ name: 'h.example.com', type: T.DHCID, class: CLASS.ANY, ttl: 0 }]);
    expect(grantsFirst(dhcid, ZONE, (_o, type) => type === 'DHCID')).toBeUndefined();
    expect(grantsFirst(dhcid, ZONE, none)).toMatchObject({ why: 'the key may not change DHCID at h.example.com' });
    const ns = { name: 'example.com', type: 'NS' as const, ttl: 60, value: 'ns9.example.net' };
    const provider = [withData('example.com', CLASS.IN, 60, ns), rr('example.com', T.SOA, CLASS.ANY)];
    expect(grantsFirst(message([], provider), ZONE, none)).toBeUndefined();
    const result = run([], provider, none);
    expect(result).toEqual({ ok: true, wanted: expect.any(Array) });
    expect(at(result, 'example.com')).toEqual(['A 192.0.2.10 300', 'MX 10 mail.example.com -']);
  });
});

describe('the records an update adds', () => {
  it('in the forms the provider holds: MX and SRV with their priorities, TXT joined, CAA, AAAA, NS below the apex', () => {
    const srv = withData('_sip._tcp.example.com', CLASS.IN, 60, {
      name: '_sip._tcp.example.com',
      type: 'SRV',
      ttl: 60,
      value: { priority: 5, weight: 10, port: 5060, target: 'sip.example.com' },
    });
    const caa = withData('example.com', CLASS.IN, 60, {
      name: 'example.com',
      type: 'CAA',
      ttl: 60,
      value: { flags: 0, tag: 'issue', value: 'letsencrypt.org' },
    });
    const aaaa = withData('v6.example.com', CLASS.IN, 60, {
      name: 'v6.example.com',
      type: 'AAAA',
      ttl: 60,
      value: '2001:db8::1',
    });
    const ns = withData('sub.example.com', CLASS.IN, 60, {
      name: 'sub.example.com',
      type: 'NS',
      ttl: 60,
      value: 'ns.x.net',
    });
    const result = run(
      [],
      [srv, caa, aaaa, ns, mx('example.com', 20, 'mx2.example.com'), txt('t.example.com', ['ab', 'cd'])],
    );
    expect(at(result, '_sip._tcp.example.com')).toEqual(['SRV 5 10 5060 sip.example.com 60']);
    expect(at(result, 'example.com')).toEqual([
      'A 192.0.2.10 300',
      'CAA 0 issue "letsencrypt.org" 60',
      'MX 10 mail.example.com 60',
      'MX 20 mx2.example.com 60',
    ]);
    expect(at(result, 'v6.example.com')).toEqual(['AAAA 2001:db8::1 60']);
    expect(at(result, 'sub.example.com')).toEqual(['NS ns.x.net 60']);
    expect(at(result, 't.example.com')).toEqual(['TXT abcd 60']);
  });

  it('refuses a value the provider cannot hold, naming it (Invalid Data)', () => {
    expect(run([], [a('x.example.com', '300.1.2.3')])).toEqual(
      refusal(RCODE_UPDATE.REFUSED, EDE.INVALID_DATA, /^x\.example\.com A: .*300\.1\.2\.3.*IPv4/),
    );
  });

  it('refuses a delete of a type the provider cannot hold (Not Supported), and ignores one of its SOA', () => {
    expect(run([], [rr('x.example.com', 12, CLASS.ANY)])).toEqual(
      refusal(RCODE_UPDATE.REFUSED, EDE.NOT_SUPPORTED, 'the provider cannot hold PTR records (x.example.com)'),
    );
    expect(run([], [rr('example.com', T.SOA, CLASS.ANY)]).ok).toBe(true);
  });

  it('a record with the data of one held replaces it; an MX of another preference is another record', () => {
    expect(at(run([], [mx('example.com', 10, 'mail.example.com', CLASS.IN, 300)]), 'example.com')).toEqual([
      'A 192.0.2.10 300',
      'MX 10 mail.example.com 300',
    ]);
    expect(at(run([], [mx('example.com', 10, 'mail.example.com', CLASS.NONE, 0)]), 'example.com')).toEqual([
      'A 192.0.2.10 300',
    ]);
    expect(at(run([], [mx('example.com', 20, 'mail.example.com', CLASS.NONE, 0)]), 'example.com')).toEqual([
      'A 192.0.2.10 300',
      'MX 10 mail.example.com -',
    ]);
  });

  it('gives an RRset the TTL of its last add; a record of the default TTL keeps none when that is asked', () => {
    const records: LiveRecord[] = [
      { entityID: '1', name: 'r.example.com', type: 'A', ttl: 120, value: '192.0.2.1' },
      { entityID: '2', name: 'r.example.com', type: 'A', ttl: 120, value: '192.0.2.2' },
      { entityID: '3', name: 'd.example.com', type: 'A', value: '192.0.2.1' },
      { entityID: '4', name: 'm.example.com', type: 'A', ttl: 60, value: '192.0.2.1' },
      { entityID: '5', name: 'm.example.com', type: 'A', ttl: 90, value: '192.0.2.2' },
    ];
    const result = run(
      [],
      [a('r.example.com', '192.0.2.3', CLASS.IN, 600), a('d.example.com', '192.0.2.2', CLASS.IN, 300)],
      everything,
      records,
    );
    expect(at(result, 'r.example.com')).toEqual(['A 192.0.2.1 600', 'A 192.0.2.2 600', 'A 192.0.2.3 600']);
    expect(at(result, 'd.example.com')).toEqual(['A 192.0.2.1 -', 'A 192.0.2.2 300']);
    // An RRset whose records have two TTLs takes the add's, even when one of them had it already.
    expect(at(run([], [a('m.example.com', '192.0.2.3', CLASS.IN, 60)], everything, records), 'm.example.com')).toEqual([
      'A 192.0.2.1 60',
      'A 192.0.2.2 60',
      'A 192.0.2.3 60',
    ]);
    // An add with the RRset's TTL leaves the others as they are.
    expect(at(run([], [a('r.example.com', '192.0.2.4', CLASS.IN, 120)], everything, records), 'r.example.com')).toEqual(
      ['A 192.0.2.1 120', 'A 192.0.2.2 120', 'A 192.0.2.4 120'],
    );
  });
});

describe('a CNAME has its name to itself (RFC 2136 3.4.2.2)', () => {
  const cname = (name: string, target: string) =>
    withData(name, CLASS.IN, 60, { name, type: 'CNAME', ttl: 60, value: target });
  it('replaces the CNAME at its name, is added at a new name, and is ignored at the apex', () => {
    expect(at(run([], [cname('alias.example.com', 'www.example.net')]), 'alias.example.com')).toEqual([
      'CNAME www.example.net 60',
    ]);
    expect(at(run([], [cname('new.example.com', 'www.example.net')]), 'new.example.com')).toEqual([
      'CNAME www.example.net 60',
    ]);
    expect(at(run([], [cname('example.com', 'www.example.net')], everything, []), 'example.com')).toEqual([]);
  });

  it('after the other records there are deleted in the same update, it is added', () => {
    expect(
      at(
        run([], [rr('txt.example.com', T.TXT, CLASS.ANY), cname('txt.example.com', 'example.com')]),
        'txt.example.com',
      ),
    ).toEqual(['CNAME example.com 60']);
  });
});

describe('the RRsets an update deletes', () => {
  it('deletes one RRset and leaves the others at its name; a delete where there is nothing is no error', () => {
    expect(at(run([], [rr('example.com', T.MX, CLASS.ANY)]), 'example.com')).toEqual(['A 192.0.2.10 300']);
    expect(at(run([], [rr('nothing.example.com', T.A, CLASS.ANY)]), 'nothing.example.com')).toEqual([]);
    expect(at(run([], [a('nothing.example.com', '192.0.2.1', CLASS.NONE, 0)]), 'nothing.example.com')).toEqual([]);
  });

  it('a name whose last record of a type was deleted no longer holds the type: a CNAME may follow', () => {
    const cname = withData('txt.example.com', CLASS.IN, 60, {
      name: 'txt.example.com',
      type: 'CNAME',
      ttl: 60,
      value: 'example.com',
    });
    expect(at(run([], [txt('txt.example.com', ['one'], CLASS.NONE, 0), cname]), 'txt.example.com')).toEqual([
      'CNAME example.com 60',
    ]);
  });

  it('keeps a record the provider holds twice, as it holds it', () => {
    const twice = [...live, { entityID: '9', name: 'txt.example.com', type: 'TXT', value: 'one' }];
    expect(at(run([], [a('x.example.com', '192.0.2.1')], everything, twice), 'txt.example.com')).toEqual([
      'TXT one -',
      'TXT one -',
    ]);
  });

  it('a record of the default TTL in an RRset of two TTLs keeps none when the add asks for the default', () => {
    const mixed: LiveRecord[] = [
      { entityID: '1', name: 'm.example.com', type: 'A', value: '192.0.2.1' },
      { entityID: '2', name: 'm.example.com', type: 'A', ttl: 120, value: '192.0.2.2' },
    ];
    expect(at(run([], [a('m.example.com', '192.0.2.3', CLASS.IN, 300)], everything, mixed), 'm.example.com')).toEqual([
      'A 192.0.2.1 -',
      'A 192.0.2.2 300',
      'A 192.0.2.3 300',
    ]);
  });
});

describe('value prerequisites at names the provider holds nothing at, or with as many other records', () => {
  it('fail (NXRRSET)', () => {
    expect(run([txt('nothing.example.com', ['one'], CLASS.IN, 0)], [])).toMatchObject({ rcode: 8 });
    const two = [...live, { entityID: '8', name: 'txt.example.com', type: 'TXT', value: 'two' }];
    const named = [txt('txt.example.com', ['one'], CLASS.IN, 0), txt('txt.example.com', ['three'], CLASS.IN, 0)];
    expect(run(named, [], everything, two)).toMatchObject({ rcode: 8 });
  });
});

describe('the reason for an owner that is no host name', () => {
  it('states the rule', () => {
    expect(unfitOwner(message([], [a('x@y.example.com', '192.0.2.1')]))).toMatchObject({
      why:
        'the update at x@y.example.com names no host name: a label may hold letters, digits, "-" and "_" only ' +
        '(and "*" as the whole first label)',
    });
  });
});

describe('forms found by mutation testing', () => {
  it('an add of type ANY is FORMERR even with data', () => {
    expect(run([], [{ ...a('x.example.com', '192.0.2.1'), type: TYPE_ANY }])).toMatchObject({
      rcode: RCODE_UPDATE.FORMERR,
      why: 'an add at x.example.com needs a type and data',
    });
  });

  it('the apex holds its SOA and NS, not every type', () => {
    expect(run([rr('example.com', T.TXT, CLASS.ANY)], [], everything, [])).toMatchObject({ rcode: 8 });
    expect(run([rr('example.com', T.TXT, CLASS.NONE)], [], everything, []).ok).toBe(true);
  });

  it('a record held twice is not two records named', () => {
    const twice = [...live, { entityID: '9', name: 'txt.example.com', type: 'TXT', value: 'one' }];
    const named = [txt('txt.example.com', ['one'], CLASS.IN, 0), txt('txt.example.com', ['two'], CLASS.IN, 0)];
    expect(run(named, [], everything, twice)).toMatchObject({ rcode: 8 });
  });

  it('a value prerequisite without data names no record', () => {
    expect(run([rr('txt.example.com', T.TXT, CLASS.IN)], [])).toEqual(
      refusal(RCODE_UPDATE.NXRRSET, EDE.INVALID_DATA, 'prerequisite txt.example.com has no data'),
    );
  });
});
