// The TTL of a record a gateway door replaces without naming one (the dyndns2 door's "the host's
// address is now X"): the TTL its RRset has, an RRset deleted earlier in the same update
// included, so the provider's default stays the default (no TTL sent) and an explicit TTL stays
// explicit; a new RRset gets the provider's default. An add that names a TTL (nsupdate's) sets it.
import { describe, expect, it } from 'vitest';
import { TYPE_CODES } from '../../../../src/dns/wire/types.js';
import { CLASS, type UpdateMessage, type UpdateRecord } from '../../../../src/gateway/update/message.js';
import { evaluateUpdate } from '../../../../src/gateway/update/rules.js';
import type { LiveRecord } from '../../../../src/zone/record.js';

const ZONE = 'example.com';
const live: LiveRecord[] = [
  { entityID: '1', name: 'default.example.com', type: 'A', value: '192.0.2.1' },
  { entityID: '2', name: 'explicit.example.com', type: 'A', ttl: 600, value: '192.0.2.2' },
  { entityID: '3', name: 'three.example.com', type: 'A', ttl: 300, value: '192.0.2.3' },
  { entityID: '4', name: 'mixed.example.com', type: 'A', ttl: 600, value: '192.0.2.4' },
  { entityID: '5', name: 'mixed.example.com', type: 'A', ttl: 900, value: '192.0.2.5' },
  { entityID: '6', name: 'served.example.com', type: 'A', value: '192.0.2.6' },
  { entityID: '7', name: 'served.example.com', type: 'A', ttl: 300, value: '192.0.2.7' },
];
const deleteA = (name: string): UpdateRecord => ({ name, type: TYPE_CODES.A, class: CLASS.ANY, ttl: 0 });
/** An add without a TTL of its own: the gateway's doors only (a wire message always names one). */
const addHeld = (name: string, value: string): UpdateRecord => ({
  name,
  type: TYPE_CODES.A,
  class: CLASS.IN,
  ttl: 0,
  ttlAsHeld: true,
  data: { name, type: 'A', ttl: 0, value },
});
const addNamed = (name: string, value: string, ttl: number): UpdateRecord => ({
  name,
  type: TYPE_CODES.A,
  class: CLASS.IN,
  ttl,
  data: { name, type: 'A', ttl, value },
});
const ttls = (...updates: UpdateRecord[]) => {
  const message: UpdateMessage = {
    id: 1,
    zone: { name: ZONE, type: 6, class: 1 },
    prerequisites: [],
    updates,
    edns: false,
  };
  const result = evaluateUpdate(message, live, ZONE, () => true);
  if (!result.ok) throw new Error(result.why);
  return Object.fromEntries(result.wanted.map((r) => [`${r.name} ${r.value}`, r.ttl]));
};

describe('a replaced RRset keeps the TTL the provider holds', () => {
  it("the provider's default stays the default through a delete and an add in one update", () => {
    expect(ttls(deleteA('default.example.com'), addHeld('default.example.com', '192.0.2.9'))).toMatchObject({
      'default.example.com 192.0.2.9': undefined,
    });
  });

  it('an explicit TTL stays explicit, 300 included', () => {
    const wanted = ttls(
      deleteA('explicit.example.com'),
      addHeld('explicit.example.com', '192.0.2.9'),
      deleteA('three.example.com'),
      addHeld('three.example.com', '192.0.2.9'),
    );
    expect(wanted['explicit.example.com 192.0.2.9']).toBe(600);
    expect(wanted['three.example.com 192.0.2.9']).toBe(300);
  });

  it('an add beside records kept (no delete) takes their TTL', () => {
    const wanted = ttls(addHeld('explicit.example.com', '192.0.2.9'), addHeld('default.example.com', '192.0.2.9'));
    expect(wanted['explicit.example.com 192.0.2.9']).toBe(600);
    expect('default.example.com 192.0.2.9' in wanted && wanted['default.example.com 192.0.2.9']).toBeUndefined();
  });

  it('after several deletes, the TTL of the RRset last deleted; a delete of the last record deletes its RRset too', () => {
    const wanted = ttls(
      deleteA('default.example.com'),
      addNamed('default.example.com', '192.0.2.8', 900),
      deleteA('default.example.com'),
      addHeld('default.example.com', '192.0.2.9'),
      { ...addNamed('explicit.example.com', '192.0.2.2', 0), class: CLASS.NONE },
      addHeld('explicit.example.com', '192.0.2.9'),
    );
    expect(wanted['default.example.com 192.0.2.9']).toBe(900);
    expect(wanted['explicit.example.com 192.0.2.9']).toBe(600);
    expect('default.example.com 192.0.2.8' in wanted).toBe(false);
  });

  it('records of differing TTLs: the first explicit one; a default beside an explicit 300: 300, as served', () => {
    const wanted = ttls(
      deleteA('mixed.example.com'),
      addHeld('mixed.example.com', '192.0.2.9'),
      deleteA('served.example.com'),
      addHeld('served.example.com', '192.0.2.9'),
    );
    expect(wanted['mixed.example.com 192.0.2.9']).toBe(600);
    expect(wanted['served.example.com 192.0.2.9']).toBe(300);
  });

  it('a delete of every RRset at the name keeps the TTL of each: the default, or an explicit one', () => {
    const any = (name: string): UpdateRecord => ({ name, type: 255, class: CLASS.ANY, ttl: 0 });
    const wanted = ttls(
      any('default.example.com'),
      addHeld('default.example.com', '192.0.2.9'),
      any('explicit.example.com'),
      addHeld('explicit.example.com', '192.0.2.9'),
    );
    expect('default.example.com 192.0.2.9' in wanted).toBe(true);
    expect(wanted['default.example.com 192.0.2.9']).toBeUndefined();
    expect(wanted['explicit.example.com 192.0.2.9']).toBe(600);
  });

  it("a new RRset gets the provider's default (no TTL)", () => {
    const wanted = ttls(deleteA('new.example.com'), addHeld('new.example.com', '192.0.2.9'));
    expect('new.example.com 192.0.2.9' in wanted).toBe(true);
    expect(wanted['new.example.com 192.0.2.9']).toBeUndefined();
  });

  it('an add that names a TTL sets it, on a record that had the default too (as nsupdate asks)', () => {
    expect(ttls(deleteA('default.example.com'), addNamed('default.example.com', '192.0.2.9', 300))).toMatchObject({
      'default.example.com 192.0.2.9': 300,
    });
    expect(ttls(addNamed('new.example.com', '192.0.2.9', 300))).toMatchObject({ 'new.example.com 192.0.2.9': 300 });
  });
});
