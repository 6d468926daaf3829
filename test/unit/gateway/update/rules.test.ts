// RFC 2136's meaning of an UPDATE against a zone as the provider holds it: the five
// prerequisite forms, the four update forms, CNAME exclusivity, grants, and the forms that are
// FORMERR, NOTZONE or REFUSED. The wire reading (update/message.ts) is exercised by nsupdate.
import { describe, expect, it } from 'vitest';
import type { DnsRecord } from '../../../../src/dns/wire/types.js';
import { CLASS, TYPE_ANY, type UpdateMessage, type UpdateRecord } from '../../../../src/gateway/update/message.js';
import { evaluateUpdate, type Allowed } from '../../../../src/gateway/update/rules.js';
import type { LiveRecord } from '../../../../src/zone/record.js';

const ZONE = 'example.com';
const live: LiveRecord[] = [
  { entityID: '1', name: 'example.com', type: 'A', ttl: 300, value: '192.0.2.10' },
  { entityID: '2', name: 'www.example.com', type: 'CNAME', value: 'example.com' },
  { entityID: '3', name: 'example.com', type: 'MX', priority: 10, value: 'mail.example.com' },
  { entityID: '4', name: 'txt.example.com', type: 'TXT', value: 'one' },
  { entityID: '5', name: 'txt.example.com', type: 'TXT', value: 'two' },
];
const T = { A: 1, CNAME: 5, MX: 15, TXT: 16, PTR: 12 };
const a = (name: string, value: string, ttl = 60): UpdateRecord => ({
  name,
  type: T.A,
  class: CLASS.IN,
  ttl,
  data: { name, type: 'A', ttl, value },
});
const txt = (name: string, value: string, klass: number = CLASS.IN, ttl = 60): UpdateRecord => ({
  name,
  type: T.TXT,
  class: klass,
  ttl,
  data: { name, type: 'TXT', ttl, value: [value] } as DnsRecord,
});
const rr = (name: string, type: number, klass: number): UpdateRecord => ({ name, type, class: klass, ttl: 0 });
const message = (prerequisites: UpdateRecord[], updates: UpdateRecord[]): UpdateMessage => ({
  id: 1,
  zone: { name: ZONE, type: 6, class: 1 },
  prerequisites,
  updates,
  edns: false,
});
const everything: Allowed = () => true;
const run = (prerequisites: UpdateRecord[], updates: UpdateRecord[], allowed = everything) =>
  evaluateUpdate(message(prerequisites, updates), live, ZONE, allowed);
const values = (result: ReturnType<typeof run>, name: string) =>
  result.ok
    ? result.wanted
        .filter((r) => r.name === name)
        .map((r) => `${r.type} ${r.value}`)
        .sort()
    : result;

describe('prerequisites (RFC 2136 2.4)', () => {
  it('checks the five forms', () => {
    expect(run([rr('example.com', TYPE_ANY, CLASS.ANY)], []).ok).toBe(true); // name in use
    expect(run([rr('nope.example.com', TYPE_ANY, CLASS.ANY)], [])).toMatchObject({ ok: false, rcode: 3 });
    expect(run([rr('txt.example.com', T.TXT, CLASS.ANY)], []).ok).toBe(true); // RRset exists
    expect(run([rr('txt.example.com', T.A, CLASS.ANY)], [])).toMatchObject({ ok: false, rcode: 8 });
    expect(run([rr('new.example.com', TYPE_ANY, CLASS.NONE)], []).ok).toBe(true); // name not in use
    expect(run([rr('www.example.com', TYPE_ANY, CLASS.NONE)], [])).toMatchObject({ ok: false, rcode: 6 });
    expect(run([rr('txt.example.com', T.A, CLASS.NONE)], []).ok).toBe(true); // RRset does not exist
    expect(run([rr('txt.example.com', T.TXT, CLASS.NONE)], [])).toMatchObject({ ok: false, rcode: 7 });
    // Value-dependent: exactly the records named.
    expect(run([txt('txt.example.com', 'one', CLASS.IN, 0), txt('txt.example.com', 'two', CLASS.IN, 0)], []).ok).toBe(
      true,
    );
    expect(run([txt('txt.example.com', 'one', CLASS.IN, 0)], [])).toMatchObject({ ok: false, rcode: 8 });
    expect(run([rr('example.com', 6, CLASS.ANY)], []).ok).toBe(true); // the SOA is the provider's, always there
  });

  it('refuses prerequisites with a TTL or outside the zone', () => {
    expect(run([{ ...rr('example.com', TYPE_ANY, CLASS.ANY), ttl: 5 }], [])).toMatchObject({ ok: false, rcode: 1 });
    expect(run([rr('example.org', TYPE_ANY, CLASS.ANY)], [])).toMatchObject({ ok: false, rcode: 10 });
  });
});

describe('updates (RFC 2136 3.4.2)', () => {
  it('adds, replaces a duplicate, deletes one record, an RRset, and every RRset at a name', () => {
    expect(
      values(run([], [a('new.example.com', '192.0.2.5'), a('new.example.com', '192.0.2.6')]), 'new.example.com'),
    ).toEqual(['A 192.0.2.5', 'A 192.0.2.6']);
    const dup = run([], [a('example.com', '192.0.2.10', 120)]);
    expect(dup.ok && dup.wanted.filter((r) => r.name === 'example.com' && r.type === 'A')).toEqual([
      { name: 'example.com', type: 'A', ttl: 120, value: '192.0.2.10' },
    ]);
    expect(values(run([], [txt('txt.example.com', 'one', CLASS.NONE, 0)]), 'txt.example.com')).toEqual(['TXT two']);
    expect(values(run([], [txt('txt.example.com', 'absent', CLASS.NONE, 0)]), 'txt.example.com')).toEqual([
      'TXT one',
      'TXT two',
    ]);
    expect(values(run([], [rr('txt.example.com', T.TXT, CLASS.ANY)]), 'txt.example.com')).toEqual([]);
    expect(values(run([], [rr('example.com', TYPE_ANY, CLASS.ANY)]), 'example.com')).toEqual([]);
    // In order: delete the set, then add (lego's present).
    expect(
      values(run([], [rr('txt.example.com', T.TXT, CLASS.ANY), txt('txt.example.com', 'three')]), 'txt.example.com'),
    ).toEqual(['TXT three']);
  });

  it('keeps a CNAME alone at its name: the add that would break it is ignored', () => {
    expect(values(run([], [a('www.example.com', '192.0.2.7')]), 'www.example.com')).toEqual(['CNAME example.com']);
    const cname: UpdateRecord = {
      name: 'txt.example.com',
      type: T.CNAME,
      class: CLASS.IN,
      ttl: 60,
      data: { name: 'txt.example.com', type: 'CNAME', ttl: 60, value: 'example.com' },
    };
    expect(values(run([], [cname]), 'txt.example.com')).toEqual(['TXT one', 'TXT two']);
  });

  it('refuses what the key may not do, types the provider cannot hold, and names outside the zone', () => {
    const acmeOnly = (owner: string, type: string) => type === 'TXT' && owner.startsWith('_acme-challenge.');
    expect(run([], [txt('_acme-challenge.example.com', 'token')], acmeOnly).ok).toBe(true);
    expect(run([], [a('www2.example.com', '192.0.2.8')], acmeOnly)).toMatchObject({ ok: false, rcode: 5, ede: 18 });
    // A delete of every RRset at a name: allowed when every type there may be changed (as BIND).
    expect(run([], [rr('txt.example.com', TYPE_ANY, CLASS.ANY)], acmeOnly)).toMatchObject({ ok: false, rcode: 5 });
    expect(run([], [rr('example.com', TYPE_ANY, CLASS.ANY)], (_o, type) => type === 'A')).toMatchObject({
      ok: false,
      rcode: 5,
    });
    expect(run([], [rr('example.com', TYPE_ANY, CLASS.ANY)], (_o, type) => type === 'A' || type === 'MX').ok).toBe(
      true,
    );
    const ptr: UpdateRecord = {
      name: 'p.example.com',
      type: T.PTR,
      class: CLASS.IN,
      ttl: 60,
      data: { name: 'p.example.com', type: 'PTR', ttl: 60, value: 'x.example.com' },
    };
    expect(run([], [ptr])).toMatchObject({ ok: false, rcode: 5, ede: 21 });
    expect(run([], [a('www.example.org', '192.0.2.9')])).toMatchObject({ ok: false, rcode: 10 });
    expect(run([], [{ ...rr('x.example.com', T.A, CLASS.ANY), ttl: 9 }])).toMatchObject({ ok: false, rcode: 1 });
  });
});
