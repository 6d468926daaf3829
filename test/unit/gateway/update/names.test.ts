// Owner names the provider cannot hold: a label with a dot in it (`\.`, as BIND reads it), a
// space, an "@" or bytes that are not a host name's. As text such a name can pass the zone and
// grant checks (`x\.y.dyn.example.com` ends with `.dyn.example.com`), so it is refused by its
// labels, with the rule the zone reader applies (src/lib/names.ts), before anything is read.
import { describe, expect, it } from 'vitest';
import { EDE } from '../../../../src/dns/wire/edns.js';
import { grantCovers } from '../../../../src/gateway/keys/grants.js';
import { CLASS, type UpdateMessage, type UpdateRecord } from '../../../../src/gateway/update/message.js';
import { evaluateUpdate, RCODE_UPDATE, unfitOwner } from '../../../../src/gateway/update/rules.js';

const ZONE = 'example.com';
const a = (name: string): UpdateRecord => ({
  name,
  type: 1,
  class: CLASS.IN,
  ttl: 60,
  data: { name, type: 'A', ttl: 60, value: '192.0.2.1' },
});
const inUse = (name: string): UpdateRecord => ({ name, type: 255, class: CLASS.ANY, ttl: 0 });
const message = (prerequisites: UpdateRecord[], updates: UpdateRecord[]): UpdateMessage => ({
  id: 1,
  zone: { name: ZONE, type: 6, class: 1 },
  prerequisites,
  updates,
  edns: true,
});

describe('owner names that are not host names', () => {
  it.each([
    ['a label holding a dot', 'x\\.y.dyn.example.com'],
    ['a space', 'x\\032y.example.com'],
    ['an "@"', 'x@y.example.com'],
    ['a byte above 127', 'caf\\195\\169.example.com'],
    ['a backslash', 'x\\\\y.example.com'],
    ['a "*" inside a label', 'x*.example.com'],
    ['a "*" label that is not the leftmost', 'a.*.example.com'],
    ['a label starting with a hyphen', '-x.example.com'],
    ['a control byte', 'x\\010y.example.com'],
  ])('refuses an update at a name with %s, naming it, with EDE Invalid Data', (_, name) => {
    const refusal = unfitOwner(message([], [a('ok.example.com'), a(name)]));
    expect(refusal).toMatchObject({ ok: false, rcode: RCODE_UPDATE.REFUSED, ede: EDE.INVALID_DATA });
    expect(refusal && !refusal.ok && refusal.why).toContain(name);
    // The prescan of evaluateUpdate refuses it the same way, whatever the zone holds and the key may do.
    expect(evaluateUpdate(message([], [a(name)]), [], ZONE, () => true)).toEqual(refusal);
  });

  it('refuses a prerequisite at such a name too', () => {
    expect(unfitOwner(message([inUse('x\\.y.example.com')], [a('ok.example.com')]))).toMatchObject({
      ok: false,
      rcode: RCODE_UPDATE.REFUSED,
      ede: EDE.INVALID_DATA,
    });
  });

  it('lets host names, service labels, a leftmost "*", punycode and the apex through', () => {
    const names = [
      'example.com',
      'home.example.com',
      '_acme-challenge.www.example.com',
      '_sip._tcp.example.com',
      '*.example.com',
      '*.dyn.example.com',
      'xn--caf-dma.example.com',
      'a-b.c1.example.com',
    ];
    expect(unfitOwner(message(names.map(inUse), names.map(a)))).toBeUndefined();
  });
});

describe('a grant covers names below its name label by label, not by the end of their text', () => {
  const grant = (rule: 'subdomain' | 'wildcard' | 'zonesub', name: string) => ({
    key: 'k',
    rule,
    name,
    types: [],
    line: 1,
  });
  it('x\\.example.com (one label "x.example" under com) is not below example.com', () => {
    expect(grantCovers(grant('wildcard', 'example.com'), 'com', 'x\\.example.com', 'A')).toBe(false);
    expect(grantCovers(grant('subdomain', 'example.com'), 'com', 'x\\.example.com', 'A')).toBe(false);
    expect(grantCovers(grant('zonesub', 'example.com'), 'example.com', 'x\\.example.com', 'A')).toBe(false);
  });
  it('nor is notexample.com; www.example.com is', () => {
    expect(grantCovers(grant('wildcard', 'example.com'), 'com', 'notexample.com', 'A')).toBe(false);
    expect(grantCovers(grant('wildcard', 'example.com'), 'com', 'www.example.com', 'A')).toBe(true);
    expect(grantCovers(grant('subdomain', 'example.com'), 'com', 'example.com', 'A')).toBe(true);
  });
});
