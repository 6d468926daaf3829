// DHCID in an UPDATE (dhcid-rules.ts), each answer with its RCODE, EDE and reason: the forms of
// DHCID prerequisites and updates, the data's bounds, the prerequisites a kept DHCID decides, a
// delete of everything at a name, and the room left (records and bytes), counted on what the
// update adds, not on what is already kept.
import { describe, expect, it } from 'vitest';
import { EDE } from '../../../../src/dns/wire/edns.js';
import type { DhcidRecord } from '../../../../src/gateway/dhcid/store.js';
import { bytesOf, MAX_DHCID_PER_NAME } from '../../../../src/gateway/dhcid/store.js';
import { evaluateWithDhcid, TYPE_DHCID } from '../../../../src/gateway/update/dhcid-rules.js';
import { CLASS, TYPE_ANY, type UpdateMessage, type UpdateRecord } from '../../../../src/gateway/update/message.js';
import { RCODE_UPDATE, type Allowed } from '../../../../src/gateway/update/rules.js';
import type { LiveRecord } from '../../../../src/zone/record.js';

const ZONE = 'example.com';
const HOST = 'h.example.com';
const ONE = `000201${'11'.repeat(32)}`;
const TWO = `000201${'22'.repeat(32)}`;
const dhcid = (name: string, data: string, klass: number = CLASS.IN, ttl = 300): UpdateRecord => ({
  name,
  type: TYPE_DHCID,
  class: klass,
  ttl,
  data: { name, type: `TYPE${TYPE_DHCID}`, ttl, value: data },
});
const rr = (name: string, type: number, klass: number, ttl = 0): UpdateRecord => ({ name, type, class: klass, ttl });
const message = (prerequisites: UpdateRecord[], updates: UpdateRecord[]): UpdateMessage => ({
  id: 1,
  zone: { name: ZONE, type: 6, class: 1 },
  prerequisites,
  updates,
  edns: true,
});
function run(
  prerequisites: UpdateRecord[],
  updates: UpdateRecord[],
  o: { kept?: DhcidRecord[]; live?: LiveRecord[]; allowed?: Allowed; records?: number; bytes?: number } = {},
) {
  const held = new Map<string, DhcidRecord[]>();
  for (const r of o.kept ?? []) held.set(r.name, [...(held.get(r.name) ?? []), r]);
  return evaluateWithDhcid(message(prerequisites, updates), o.live ?? [], ZONE, o.allowed ?? (() => true), held, {
    records: o.records ?? 100,
    bytes: o.bytes ?? 1_000_000,
  });
}
const refusal = (rcode: number, ede: number, why: string | RegExp) => ({
  ok: false,
  rcode,
  ede,
  why: typeof why === 'string' ? why : expect.stringMatching(why),
});
const formerr = (why: string) => refusal(RCODE_UPDATE.FORMERR, EDE.OTHER, why);

describe('the forms of DHCID records', () => {
  it.each([
    ['with a TTL', dhcid(HOST, ONE, CLASS.IN, 60), 'prerequisite h.example.com has a TTL; prerequisites carry TTL 0'],
    [
      'of class IN without data',
      rr(HOST, TYPE_DHCID, CLASS.IN),
      'prerequisite h.example.com DHCID has the wrong form for class 1',
    ],
    [
      'of class ANY with data',
      dhcid(HOST, ONE, CLASS.ANY, 0),
      'prerequisite h.example.com DHCID has the wrong form for class 255',
    ],
    [
      'of class NONE with data',
      dhcid(HOST, ONE, CLASS.NONE, 0),
      'prerequisite h.example.com DHCID has the wrong form for class 254',
    ],
    ['of class CH', rr(HOST, TYPE_DHCID, 3), 'prerequisite h.example.com DHCID has the wrong form for class 3'],
  ])('a prerequisite %s is FORMERR', (_, prerequisite, why) => {
    expect(run([prerequisite], [])).toEqual(formerr(why));
  });

  it('a prerequisite outside the zone is NOTZONE; one whose data is out of bounds FORMERR (Invalid Data)', () => {
    expect(run([rr('h.example.org', TYPE_DHCID, CLASS.ANY)], [])).toEqual(
      refusal(
        RCODE_UPDATE.NOTZONE,
        EDE.NOT_AUTHORITATIVE,
        'prerequisite h.example.org is outside the zone example.com',
      ),
    );
    expect(run([dhcid(HOST, 'abcd', CLASS.IN, 0)], [])).toEqual(
      refusal(RCODE_UPDATE.FORMERR, EDE.INVALID_DATA, 'prerequisite h.example.com: DHCID data is 3 to 255 bytes'),
    );
    // Three bytes are enough.
    expect(run([dhcid(HOST, 'abcdef', CLASS.IN, 0)], [])).toMatchObject({ rcode: RCODE_UPDATE.NXRRSET });
  });

  it.each([
    ['an add without data', rr(HOST, TYPE_DHCID, CLASS.IN, 300), 1],
    ['a delete of the RRset with a TTL', rr(HOST, TYPE_DHCID, CLASS.ANY, 60), 255],
    ['a delete of the RRset with data', dhcid(HOST, ONE, CLASS.ANY, 0), 255],
    ['a delete of one record with a TTL', dhcid(HOST, ONE, CLASS.NONE, 60), 254],
    ['a delete of one record without data', rr(HOST, TYPE_DHCID, CLASS.NONE), 254],
    ['an update of class CH', dhcid(HOST, ONE, 3), 3],
  ])('%s is FORMERR', (_, update, klass) => {
    expect(run([], [update])).toEqual(
      formerr(`the DHCID update at h.example.com has the wrong form for class ${klass}`),
    );
  });

  it('an update outside the zone is NOTZONE; one whose data is out of bounds REFUSED (Invalid Data)', () => {
    expect(run([], [dhcid('h.example.org', ONE)])).toEqual(
      refusal(RCODE_UPDATE.NOTZONE, EDE.NOT_AUTHORITATIVE, 'h.example.org is outside the zone example.com'),
    );
    for (const data of ['abcd', 'ab'.repeat(256), `${ONE}x`])
      expect(run([], [dhcid(HOST, data)])).toEqual(
        refusal(RCODE_UPDATE.REFUSED, EDE.INVALID_DATA, 'h.example.com: DHCID data is 3 to 255 bytes'),
      );
    expect(run([], [dhcid(HOST, 'ab'.repeat(255))]).ok).toBe(true);
  });
});

describe('the prerequisites a kept DHCID decides', () => {
  const kept = [{ name: HOST, ttl: 300, data: ONE }];
  it('name each failure', () => {
    expect(run([rr('x.example.com', TYPE_DHCID, CLASS.ANY)], [], { kept })).toEqual(
      refusal(RCODE_UPDATE.NXRRSET, EDE.OTHER, 'prerequisite failed: x.example.com has no DHCID record'),
    );
    expect(run([rr(HOST, TYPE_DHCID, CLASS.NONE)], [], { kept })).toEqual(
      refusal(RCODE_UPDATE.YXRRSET, EDE.OTHER, 'prerequisite failed: h.example.com has a DHCID record'),
    );
    expect(run([rr(HOST, TYPE_ANY, CLASS.NONE)], [], { kept })).toEqual(
      refusal(
        RCODE_UPDATE.YXDOMAIN,
        EDE.OTHER,
        'prerequisite failed: h.example.com is in use (it holds a DHCID record)',
      ),
    );
    expect(run([dhcid(HOST, TWO, CLASS.IN, 0)], [], { kept })).toEqual(
      refusal(
        RCODE_UPDATE.NXRRSET,
        EDE.OTHER,
        'prerequisite failed: the DHCID record at h.example.com is not the one named (another client holds the name)',
      ),
    );
  });

  it('a name whose DHCID was deleted holds none', () => {
    const none = new Map([[HOST, []]]);
    const result = evaluateWithDhcid(message([rr(HOST, TYPE_ANY, CLASS.NONE)], []), [], ZONE, () => true, none, {
      records: 1,
      bytes: 1000,
    });
    expect(result.ok).toBe(true);
  });

  it('a value prerequisite on a name with two DHCID records names both, or fails', () => {
    const two = [...kept, { name: HOST, ttl: 300, data: TWO }];
    expect(run([dhcid(HOST, ONE, CLASS.IN, 0), dhcid(HOST, TWO, CLASS.IN, 0)], [], { kept: two }).ok).toBe(true);
    expect(run([dhcid(HOST, ONE, CLASS.IN, 0)], [], { kept: two })).toMatchObject({ rcode: RCODE_UPDATE.NXRRSET });
  });
});

describe('a delete of everything at a name', () => {
  const kept = [{ name: HOST, ttl: 300, data: ONE }];
  const aOnly: Allowed = (_owner, type) => type === 'A';
  it('needs the grant of DHCID only where a DHCID is kept, or added before it', () => {
    expect(run([], [rr(HOST, TYPE_ANY, CLASS.ANY)], { kept, allowed: aOnly })).toEqual(
      refusal(
        RCODE_UPDATE.REFUSED,
        EDE.PROHIBITED,
        'the key may not change DHCID at h.example.com, which a delete of everything there would remove',
      ),
    );
    expect(run([], [rr('other.example.com', TYPE_ANY, CLASS.ANY)], { kept, allowed: aOnly })).toMatchObject({
      ok: true,
    });
    // Deleted first in the same update, then the name holds none.
    const dhcidToo: Allowed = (_owner, type) => type === 'A' || type === 'DHCID';
    expect(
      run([], [rr(HOST, TYPE_DHCID, CLASS.ANY), rr(HOST, TYPE_ANY, CLASS.ANY)], { kept, allowed: dhcidToo }),
    ).toMatchObject({ ok: true, dhcid: new Map([[HOST, []]]) });
  });

  it('a DHCID update needs its own grant, naming the name', () => {
    expect(run([], [dhcid(HOST, ONE)], { allowed: () => false })).toEqual(
      refusal(RCODE_UPDATE.REFUSED, EDE.PROHIBITED, 'the key may not change DHCID at h.example.com'),
    );
  });
});

describe('the room left', () => {
  it(`refuses a name grown past ${MAX_DHCID_PER_NAME} records, naming it`, () => {
    const full = Array.from({ length: MAX_DHCID_PER_NAME }, (_, i) => ({
      name: HOST,
      ttl: 300,
      data: `0003${i.toString(16).padStart(2, '0')}${'11'.repeat(32)}`,
    }));
    expect(run([], [dhcid(HOST, ONE)], { kept: full })).toEqual(
      refusal(
        RCODE_UPDATE.REFUSED,
        EDE.PROHIBITED,
        `h.example.com would hold ${MAX_DHCID_PER_NAME + 1} DHCID records; the gateway keeps at most ` +
          `${MAX_DHCID_PER_NAME} at one name (a DHCP client has one)`,
      ),
    );
    // At the bound, a record replaced is no growth.
    expect(run([], [dhcid(HOST, full[0]!.data, CLASS.IN, 60)], { kept: full }).ok).toBe(true);
  });

  it('counts the records and bytes an update adds against the room left, and says how much is left', () => {
    expect(run([], [dhcid(HOST, ONE)], { records: 0 })).toEqual(
      refusal(
        RCODE_UPDATE.REFUSED,
        EDE.PROHIBITED,
        'the gateway keeps no more DHCID records for this zone (0 more at most); remove stale ones first',
      ),
    );
    expect(run([], [dhcid(HOST, ONE)], { records: -3 })).toMatchObject({
      why: expect.stringContaining('(0 more at most)'),
    });
    expect(run([], [dhcid(HOST, ONE)], { records: 1 }).ok).toBe(true);
    expect(run([], [dhcid(HOST, ONE)], { bytes: 10 })).toEqual(
      refusal(
        RCODE_UPDATE.REFUSED,
        EDE.PROHIBITED,
        'the gateway has no room for these DHCID records (10 bytes left of its file); remove stale ones first',
      ),
    );
    expect(run([], [dhcid(HOST, ONE)], { bytes: -5 })).toMatchObject({ why: expect.stringContaining('(0 bytes left') });
    // A replacement of the same size adds nothing, whatever room is left.
    const kept = [{ name: HOST, ttl: 300, data: ONE }];
    expect(run([], [rr(HOST, TYPE_DHCID, CLASS.ANY), dhcid(HOST, TWO)], { kept, records: 0, bytes: 0 }).ok).toBe(true);
    // One removed at one name and one added at another: no growth either.
    expect(
      run([], [rr(HOST, TYPE_DHCID, CLASS.ANY), dhcid('g.example.com', TWO)], { kept, records: 0, bytes: 1_000 }).ok,
    ).toBe(true);
  });
});

describe('edges found by mutation testing', () => {
  const kept = [{ name: HOST, ttl: 300, data: ONE }];
  const aAt = (klass: number, ttl: number, value?: string): UpdateRecord => ({
    name: HOST,
    type: 1,
    class: klass,
    ttl,
    ...(value ? { data: { name: HOST, type: 'A' as const, ttl, value } } : {}),
  });
  const live: LiveRecord[] = [{ entityID: '1', name: HOST, type: 'A', ttl: 300, value: '192.0.2.1' }];

  it('a kept DHCID makes its name in use, not every RRset there present', () => {
    expect(run([rr(HOST, 1, CLASS.ANY)], [], { kept })).toMatchObject({ rcode: RCODE_UPDATE.NXRRSET });
  });

  it('the other prerequisites keep their own forms: a value prerequisite on A, one without data', () => {
    expect(run([aAt(CLASS.IN, 0, '192.0.2.1')], [], { kept, live }).ok).toBe(true);
    expect(run([aAt(CLASS.IN, 0)], [], { kept, live })).toMatchObject({ rcode: RCODE_UPDATE.NXRRSET });
  });

  it('a value prerequisite naming as many DHCID records as kept, but others, fails', () => {
    const THREE = `000201${'33'.repeat(32)}`;
    const two = [...kept, { name: HOST, ttl: 300, data: TWO }];
    expect(run([dhcid(HOST, ONE, CLASS.IN, 0), dhcid(HOST, THREE, CLASS.IN, 0)], [], { kept: two })).toMatchObject({
      rcode: RCODE_UPDATE.NXRRSET,
    });
  });

  it('a delete of one RRset (A) leaves the DHCID; a CNAME elsewhere does not stop a DHCID add', () => {
    expect(run([], [rr(HOST, 1, CLASS.ANY)], { kept, live })).toMatchObject({ ok: true, dhcid: new Map() });
    const cname: LiveRecord[] = [{ entityID: '1', name: 'www.example.com', type: 'CNAME', value: 'example.com' }];
    expect(run([], [dhcid(HOST, ONE)], { live: cname })).toMatchObject({
      ok: true,
      dhcid: new Map([[HOST, [{ name: HOST, ttl: 300, data: ONE }]]]),
    });
  });

  it('keeps the largest TTL as it is', () => {
    expect(run([], [dhcid(HOST, ONE, CLASS.IN, 0x7fffffff)])).toMatchObject({
      dhcid: new Map([[HOST, [{ name: HOST, ttl: 0x7fffffff, data: ONE }]]]),
    });
  });

  it('an update of class CH is FORMERR, with TTL 0 and data too', () => {
    expect(run([], [dhcid(HOST, ONE, 3, 0)])).toMatchObject({ rcode: RCODE_UPDATE.FORMERR });
  });

  it('a name past the bound may have a record replaced; a zone past its room may replace and shrink', () => {
    const past = Array.from({ length: MAX_DHCID_PER_NAME + 1 }, (_, i) => ({
      name: HOST,
      ttl: 300,
      data: `0003${i.toString(16).padStart(2, '0')}${'11'.repeat(32)}`,
    }));
    const swap = [dhcid(HOST, past[0]!.data, CLASS.NONE, 0), dhcid(HOST, `0004${'11'.repeat(33)}`)];
    expect(run([], swap, { kept: past }).ok).toBe(true);
    const replace = [rr(HOST, TYPE_DHCID, CLASS.ANY), dhcid(HOST, TWO)];
    expect(run([], replace, { kept, records: -1, bytes: -1 }).ok).toBe(true);
  });

  it('an add that fits the bytes left exactly is taken', () => {
    const size = bytesOf(new Map([[HOST, [{ name: HOST, ttl: 300, data: ONE }]]]));
    expect(run([], [dhcid(HOST, ONE)], { bytes: size }).ok).toBe(true);
    expect(run([], [dhcid(HOST, ONE)], { bytes: size - 1 })).toMatchObject({ rcode: RCODE_UPDATE.REFUSED });
  });
});
