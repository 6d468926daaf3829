// DHCID in an UPDATE, judged against the records the gateway keeps beside the provider's zone:
// the prerequisite forms on DHCID and on names holding only a DHCID, the update forms, grants
// (BIND's rule for a delete of everything at a name), the forms that are FORMERR, NOTZONE or
// REFUSED, the bound, and Kea's exact sequences (RFC 4703: add, replace, remove in two steps).
import { describe, expect, it } from 'vitest';
import type { DnsRecord } from '../../../../src/dns/wire/types.js';
import { evaluateWithDhcid, TYPE_DHCID } from '../../../../src/gateway/update/dhcid-rules.js';
import type { DhcidRecord } from '../../../../src/gateway/dhcid/store.js';
import { CLASS, TYPE_ANY, type UpdateMessage, type UpdateRecord } from '../../../../src/gateway/update/message.js';
import type { Allowed } from '../../../../src/gateway/update/rules.js';
import type { LiveRecord, ZoneRecord } from '../../../../src/zone/record.js';

const ZONE = 'example.com';
const HOST = 'laptop.dhcp.example.com';
const ONE = `000201${'11'.repeat(32)}`;
const TWO = `000201${'22'.repeat(32)}`;
const T = { A: 1, AAAA: 28, CNAME: 5, PTR: 12, TXT: 16 };

const dhcid = (name: string, data: string, klass: number = CLASS.IN, ttl = 300): UpdateRecord => ({
  name,
  type: TYPE_DHCID,
  class: klass,
  ttl,
  data: { name, type: `TYPE${TYPE_DHCID}`, ttl, value: data },
});
const a = (name: string, value: string, klass: number = CLASS.IN, ttl = 300): UpdateRecord => ({
  name,
  type: T.A,
  class: klass,
  ttl,
  data: { name, type: 'A', ttl, value },
});
const rr = (name: string, type: number, klass: number): UpdateRecord => ({ name, type, class: klass, ttl: 0 });
const held = (name: string, data: string, ttl = 300): DhcidRecord => ({ name, ttl, data });
const message = (prerequisites: UpdateRecord[], updates: UpdateRecord[]): UpdateMessage => ({
  id: 1,
  zone: { name: ZONE, type: 6, class: 1 },
  prerequisites,
  updates,
  edns: false,
});
const everything: Allowed = () => true;
/** As `grant "dhcp" subdomain dhcp.example.com A AAAA DHCID;` allows. */
const dhcpKey: Allowed = (owner, type) =>
  (owner === 'dhcp.example.com' || owner.endsWith('.dhcp.example.com')) && ['A', 'AAAA', 'DHCID'].includes(type);

/** Evaluates with `kept` as the records held; `dhcid` of the result is every record held after it, in order. */
function run(
  prerequisites: UpdateRecord[],
  updates: UpdateRecord[],
  o: { live?: LiveRecord[]; kept?: DhcidRecord[]; allowed?: Allowed; spare?: number; spareBytes?: number } = {},
) {
  const held = new Map<string, DhcidRecord[]>();
  for (const r of o.kept ?? []) held.set(r.name, [...(held.get(r.name) ?? []), r]);
  const result = evaluateWithDhcid(message(prerequisites, updates), o.live ?? [], ZONE, o.allowed ?? everything, held, {
    records: o.spare ?? 100,
    bytes: o.spareBytes ?? 1_000_000,
  });
  return result.ok ? { ...result, dhcid: [...new Map([...held, ...result.dhcid]).values()].flat() } : result;
}
const names = (records: ZoneRecord[]) => records.map((r) => `${r.name} ${r.type} ${r.value}`).sort();

describe('prerequisites on DHCID and on names holding one', () => {
  const kept = [held(HOST, ONE)];
  it('RRset exists / does not exist (value-independent)', () => {
    expect(run([rr(HOST, TYPE_DHCID, CLASS.ANY)], [], { kept }).ok).toBe(true);
    expect(run([rr('other.dhcp.example.com', TYPE_DHCID, CLASS.ANY)], [], { kept })).toMatchObject({
      ok: false,
      rcode: 8,
    });
    expect(run([rr('other.dhcp.example.com', TYPE_DHCID, CLASS.NONE)], [], { kept }).ok).toBe(true);
    expect(run([rr(HOST, TYPE_DHCID, CLASS.NONE)], [], { kept })).toMatchObject({ ok: false, rcode: 7 });
  });
  it('exactly these values (value-dependent): the same client passes, another fails with NXRRSET', () => {
    expect(run([dhcid(HOST, ONE, CLASS.IN, 0)], [], { kept }).ok).toBe(true);
    expect(run([dhcid(HOST, TWO, CLASS.IN, 0)], [], { kept })).toMatchObject({ ok: false, rcode: 8 });
    expect(run([dhcid(HOST, ONE, CLASS.IN, 0), dhcid(HOST, TWO, CLASS.IN, 0)], [], { kept })).toMatchObject({
      ok: false,
      rcode: 8,
    });
    expect(run([dhcid('none.dhcp.example.com', ONE, CLASS.IN, 0)], [], { kept })).toMatchObject({
      ok: false,
      rcode: 8,
    });
  });
  it('a name holding only a DHCID is in use: NXDOMAIN prerequisite fails (YXDOMAIN), YXDOMAIN holds', () => {
    expect(run([rr(HOST, TYPE_ANY, CLASS.NONE)], [], { kept })).toMatchObject({ ok: false, rcode: 6 });
    expect(run([rr(HOST, TYPE_ANY, CLASS.ANY)], [], { kept }).ok).toBe(true);
    // Names without a DHCID are judged on the provider's zone, as before.
    expect(run([rr('free.dhcp.example.com', TYPE_ANY, CLASS.NONE)], [], { kept }).ok).toBe(true);
    expect(run([rr('free.dhcp.example.com', TYPE_ANY, CLASS.ANY)], [], { kept })).toMatchObject({
      ok: false,
      rcode: 3,
    });
  });
  it('the other prerequisites still see the provider zone', () => {
    const live: LiveRecord[] = [{ entityID: '1', name: HOST, type: 'A', ttl: 300, value: '192.0.2.1' }];
    expect(run([rr(HOST, T.A, CLASS.NONE)], [], { kept, live })).toMatchObject({ ok: false, rcode: 7 });
    expect(run([rr(HOST, T.AAAA, CLASS.NONE), dhcid(HOST, ONE, CLASS.IN, 0)], [], { kept, live }).ok).toBe(true);
  });
});

describe('updates of DHCID', () => {
  it('adds one (a second add of the same value replaces it, with the new TTL), deletes one, the RRset, everything at a name', () => {
    const added = run([], [dhcid(HOST, ONE), dhcid(HOST, ONE, CLASS.IN, 600), a(HOST, '192.0.2.1')]);
    expect(added).toMatchObject({ ok: true, dhcid: [held(HOST, ONE, 600)] });
    expect(added.ok && names(added.wanted)).toEqual([`${HOST} A 192.0.2.1`]);
    const kept = [held(HOST, ONE), held(HOST, TWO), held('b.dhcp.example.com', ONE)];
    expect(run([], [dhcid(HOST, TWO, CLASS.NONE, 0)], { kept })).toMatchObject({
      ok: true,
      dhcid: [held(HOST, ONE), held('b.dhcp.example.com', ONE)],
    });
    expect(run([], [rr(HOST, TYPE_DHCID, CLASS.ANY)], { kept })).toMatchObject({
      ok: true,
      dhcid: [held('b.dhcp.example.com', ONE)],
    });
    const live: LiveRecord[] = [{ entityID: '1', name: HOST, type: 'A', ttl: 300, value: '192.0.2.1' }];
    const gone = run([], [rr(HOST, TYPE_ANY, CLASS.ANY)], { kept, live });
    expect(gone).toMatchObject({ ok: true, dhcid: [held('b.dhcp.example.com', ONE)] });
    expect(gone.ok && gone.wanted).toEqual([]);
  });
  it('a TTL with the top bit set is kept as 0 (RFC 2181 8), so the file stays one the store reads', () => {
    expect(run([], [dhcid(HOST, ONE, CLASS.IN, 0x80000000)])).toMatchObject({ ok: true, dhcid: [held(HOST, ONE, 0)] });
  });
  it('in order: an add then a delete of everything at the name leaves nothing; the reverse leaves the add', () => {
    expect(run([], [dhcid(HOST, ONE), rr(HOST, TYPE_ANY, CLASS.ANY)])).toMatchObject({ ok: true, dhcid: [] });
    expect(run([], [rr(HOST, TYPE_ANY, CLASS.ANY), dhcid(HOST, ONE)], { kept: [held(HOST, TWO)] })).toMatchObject({
      ok: true,
      dhcid: [held(HOST, ONE)],
    });
  });
  it('an add beside a CNAME is ignored (RFC 2136 3.4.2.2)', () => {
    const live: LiveRecord[] = [{ entityID: '1', name: 'www.example.com', type: 'CNAME', value: 'example.com' }];
    expect(run([], [dhcid('www.example.com', ONE)], { live })).toMatchObject({ ok: true, dhcid: [] });
  });
});

describe('grants', () => {
  it('DHCID needs a grant that covers it; a key without one is REFUSED and nothing changes', () => {
    const aOnly: Allowed = (_owner, type) => type === 'A';
    expect(run([], [a(HOST, '192.0.2.1'), dhcid(HOST, ONE)], { allowed: aOnly })).toMatchObject({
      ok: false,
      rcode: 5,
      why: expect.stringMatching(/DHCID/),
    });
    expect(run([], [dhcid(HOST, ONE)], { allowed: dhcpKey }).ok).toBe(true);
    expect(run([], [dhcid('laptop.example.com', ONE)], { allowed: dhcpKey })).toMatchObject({ ok: false, rcode: 5 });
  });
  it('a delete of everything at a name: allowed when the key may change every type there (BIND), refused otherwise', () => {
    const live: LiveRecord[] = [{ entityID: '1', name: HOST, type: 'A', ttl: 300, value: '192.0.2.1' }];
    expect(run([], [rr(HOST, TYPE_ANY, CLASS.ANY)], { live, kept: [held(HOST, ONE)], allowed: dhcpKey })).toMatchObject(
      { ok: true, wanted: [], dhcid: [] },
    );
    const withTxt: LiveRecord[] = [...live, { entityID: '2', name: HOST, type: 'TXT', value: 'not the key’s' }];
    expect(
      run([], [rr(HOST, TYPE_ANY, CLASS.ANY)], { live: withTxt, kept: [held(HOST, ONE)], allowed: dhcpKey }),
    ).toMatchObject({ ok: false, rcode: 5 });
    // A type the update itself adds there counts too.
    const txt: UpdateRecord = {
      name: HOST,
      type: T.TXT,
      class: CLASS.IN,
      ttl: 60,
      data: { name: HOST, type: 'TXT', ttl: 60, value: ['x'] } as DnsRecord,
    };
    expect(run([], [txt, rr(HOST, TYPE_ANY, CLASS.ANY)], { allowed: (o, t) => t === 'TXT' || dhcpKey(o, t) }).ok).toBe(
      true,
    );
    expect(
      run([], [rr(HOST, TYPE_ANY, CLASS.ANY)], { allowed: (o, t) => t !== 'TXT' && dhcpKey(o, t), live: withTxt }),
    ).toMatchObject({ ok: false, rcode: 5 });
    // A kept DHCID counts as a type there: a key granted A only may not delete it with the name.
    expect(
      run([], [rr(HOST, TYPE_ANY, CLASS.ANY)], {
        live,
        kept: [held(HOST, ONE)],
        allowed: (o, t) => t === 'A' && dhcpKey(o, t),
      }),
    ).toMatchObject({ ok: false, rcode: 5, why: expect.stringMatching(/may not change DHCID/) });
  });
});

describe('forms and bounds', () => {
  it('FORMERR for malformed DHCID prerequisites and updates, NOTZONE outside the zone, REFUSED for bad data', () => {
    expect(run([dhcid(HOST, ONE, CLASS.IN, 60)], [])).toMatchObject({ ok: false, rcode: 1 });
    expect(run([{ ...dhcid(HOST, ONE, CLASS.ANY, 0) }], [])).toMatchObject({ ok: false, rcode: 1 });
    expect(run([rr(HOST, TYPE_DHCID, 3)], [])).toMatchObject({ ok: false, rcode: 1 });
    expect(run([rr('x.example.org', TYPE_DHCID, CLASS.ANY)], [])).toMatchObject({ ok: false, rcode: 10 });
    expect(run([], [dhcid('x.example.org', ONE)])).toMatchObject({ ok: false, rcode: 10 });
    expect(run([], [rr(HOST, TYPE_DHCID, CLASS.IN)])).toMatchObject({ ok: false, rcode: 1 });
    expect(run([], [dhcid(HOST, ONE, CLASS.ANY, 0)])).toMatchObject({ ok: false, rcode: 1 });
    expect(run([], [rr(HOST, TYPE_DHCID, CLASS.NONE)])).toMatchObject({ ok: false, rcode: 1 });
    expect(run([], [dhcid(HOST, '0002')])).toMatchObject({ ok: false, rcode: 5 });
    expect(run([], [dhcid(HOST, 'ab'.repeat(256))])).toMatchObject({ ok: false, rcode: 5 });
  });
  it('other types the provider cannot hold stay REFUSED with an EDE (Not Supported)', () => {
    const ptr: UpdateRecord = {
      name: HOST,
      type: T.PTR,
      class: CLASS.IN,
      ttl: 60,
      data: { name: HOST, type: 'PTR', ttl: 60, value: 'x.example.com' },
    };
    expect(run([], [ptr, dhcid(HOST, ONE)])).toMatchObject({ ok: false, rcode: 5, ede: 21 });
  });
  it('refuses an add past the room left, but still lets records be removed or replaced', () => {
    const kept = [held(HOST, ONE), held('b.dhcp.example.com', ONE)];
    expect(run([], [dhcid('c.dhcp.example.com', ONE)], { kept, spare: 0 })).toMatchObject({
      ok: false,
      rcode: 5,
      why: expect.stringMatching(/no more DHCID records/),
    });
    expect(
      run([], [dhcid('c.dhcp.example.com', ONE), dhcid('d.dhcp.example.com', ONE)], { kept, spare: 1 }),
    ).toMatchObject({ ok: false, rcode: 5 });
    expect(run([], [dhcid('c.dhcp.example.com', ONE)], { kept, spare: 1 }).ok).toBe(true);
    expect(run([], [rr(HOST, TYPE_DHCID, CLASS.ANY)], { kept, spare: 0 }).ok).toBe(true);
    expect(run([], [rr(HOST, TYPE_DHCID, CLASS.ANY), dhcid(HOST, TWO)], { kept, spare: 0 })).toMatchObject({
      ok: true,
      dhcid: [held(HOST, TWO), held('b.dhcp.example.com', ONE)],
    });
  });
});

describe("Kea's sequences (RFC 4703, kea-dhcp-ddns NameAddTransaction / NameRemoveTransaction)", () => {
  const kea = {
    add: (address: string, id: string) =>
      [[rr(HOST, TYPE_ANY, CLASS.NONE)], [a(HOST, address), dhcid(HOST, id)]] as const,
    replace: (address: string, id: string) =>
      [
        [rr(HOST, TYPE_ANY, CLASS.ANY), dhcid(HOST, id, CLASS.IN, 0)],
        [rr(HOST, T.A, CLASS.ANY), a(HOST, address)],
      ] as const,
    removeAddress: (address: string, id: string) =>
      [[dhcid(HOST, id, CLASS.IN, 0)], [a(HOST, address, CLASS.NONE, 0)]] as const,
    removeName: (id: string) =>
      [
        [dhcid(HOST, id, CLASS.IN, 0), rr(HOST, T.A, CLASS.NONE), rr(HOST, T.AAAA, CLASS.NONE)],
        [rr(HOST, TYPE_ANY, CLASS.ANY)],
      ] as const,
  };
  /** Runs a step on the zone as the steps before left it; returns the outcome. */
  function step(
    state: { live: LiveRecord[]; kept: DhcidRecord[] },
    [prerequisites, updates]: readonly [readonly UpdateRecord[], readonly UpdateRecord[]],
  ) {
    const result = run([...prerequisites], [...updates], { ...state, allowed: dhcpKey });
    if (result.ok) {
      state.live = result.wanted.map((r, i) => ({ ...r, entityID: String(i) }));
      state.kept = result.dhcid;
    }
    return result;
  }

  it('add, renew by replace, a second client refused, then the remove in two steps', () => {
    const state = { live: [] as LiveRecord[], kept: [] as DhcidRecord[] };
    expect(step(state, kea.add('192.0.2.50', ONE)).ok).toBe(true);
    expect(state.kept).toEqual([held(HOST, ONE)]);
    // Renewal: the add fails (the name is in use), Kea then replaces.
    expect(step(state, kea.add('192.0.2.51', ONE))).toMatchObject({ ok: false, rcode: 6 });
    expect(step(state, kea.replace('192.0.2.51', ONE)).ok).toBe(true);
    expect(names(state.live as ZoneRecord[])).toEqual([`${HOST} A 192.0.2.51`]);
    // Another client: the add fails, and so does the replace (NXRRSET): the name stays the first's.
    expect(step(state, kea.add('192.0.2.99', TWO))).toMatchObject({ ok: false, rcode: 6 });
    expect(step(state, kea.replace('192.0.2.99', TWO))).toMatchObject({ ok: false, rcode: 8 });
    expect(step(state, kea.removeAddress('192.0.2.51', TWO))).toMatchObject({ ok: false, rcode: 8 });
    expect(names(state.live as ZoneRecord[])).toEqual([`${HOST} A 192.0.2.51`]);
    // The first client's remove: its address, then the name with its DHCID.
    expect(step(state, kea.removeName(ONE))).toMatchObject({ ok: false, rcode: 7 });
    expect(step(state, kea.removeAddress('192.0.2.51', ONE)).ok).toBe(true);
    expect(step(state, kea.removeName(ONE)).ok).toBe(true);
    expect(state).toEqual({ live: [], kept: [] });
    expect(step(state, kea.add('192.0.2.99', TWO)).ok).toBe(true);
  });
});
