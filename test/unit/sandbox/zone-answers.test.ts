// How the sandbox's name server reads zone entries: the provider's value formats, entries it
// cannot serve left out, relative names, CNAME loops bounded, and serials that move.
import { describe, expect, it } from 'vitest';
import type { DnsEntry } from '../../../src/api/endpoints/service.js';
import { recordOfEntry } from '../../../src/zone/provider/entry-records.js';
import { ModelZones } from '../../../src/sandbox/dns/model-zones.js';
import { demoModel } from '../../../src/sandbox/model.js';

const entry = (type: string, value: string, extra: Partial<DnsEntry> = {}): DnsEntry => ({
  entityID: '1',
  name: 'x.example.com',
  type,
  ttl: '-',
  priority: '-',
  value,
  ...extra,
});
const A = 1;
const TXT = 16;
const SOA = 6;

describe('zone entries as records', () => {
  it("reads the provider's value formats", () => {
    expect(recordOfEntry(entry('MX', 'mail.example.com.', { priority: '5', ttl: '3600' }), 'x')).toEqual({
      name: 'x',
      type: 'MX',
      ttl: 3600,
      value: { preference: 5, exchange: 'mail.example.com' },
    });
    expect(recordOfEntry(entry('MX', 'mail.example.com'), 'x')!.value).toEqual({
      preference: 10,
      exchange: 'mail.example.com',
    });
    expect(recordOfEntry(entry('SRV', '5 5060 sip.example.com', { priority: '20' }), 'x')!.value).toEqual({
      priority: 20,
      weight: 5,
      port: 5060,
      target: 'sip.example.com',
    });
    expect(recordOfEntry(entry('SRV', '1 2 3 t.example.com'), 'x')!.value).toEqual({
      priority: 1,
      weight: 2,
      port: 3,
      target: 't.example.com',
    });
    expect(recordOfEntry(entry('CAA', '128 iodef "mailto:a@example.com"'), 'x')!.value).toEqual({
      flags: 128,
      tag: 'iodef',
      value: 'mailto:a@example.com',
    });
    expect(recordOfEntry(entry('TXT', 'y'.repeat(300)), 'x')!.value).toEqual(['y'.repeat(255), 'y'.repeat(45)]);
    expect(recordOfEntry(entry('AAAA', '2001:DB8::1'), 'x')!.value).toBe('2001:DB8::1');
  });

  it('leaves out entries the wire cannot carry', () => {
    for (const [type, value] of [
      ['A', '2001:db8::1'],
      ['AAAA', '192.0.2.1'],
      ['SRV', '5 sip.example.com'],
      ['SRV', 'a b c d'],
      ['SRV', '1 70000 t.example.com'],
      ['CAA', 'issue letsencrypt.org'],
      ['CNAME', 'a..b'],
      ['HINFO', 'x'],
    ]) {
      expect(recordOfEntry(entry(type!, value!), 'x'), `${type} ${value}`).toBeUndefined();
    }
  });
});

describe('zone answers', () => {
  it('reads relative names and @ as the provider does, and skips broken entries without failing the answer', () => {
    const model = demoModel();
    const zone = model.services[0]!;
    zone.dns.push(
      entry('A', '198.51.100.7', { name: 'rel' }),
      entry('TXT', 'apex text', { name: '@' }),
      entry('A', 'not-an-address', { name: 'rel' }),
    );
    const zones = new ModelZones(model, { A: '127.0.0.1' });
    expect(zones.answer('rel.example.com', A).answers).toEqual([
      { name: 'rel.example.com', type: 'A', ttl: 300, value: '198.51.100.7' },
    ]);
    expect(zones.answer('example.com', TXT).answers.map((r) => r.value)).toEqual([['v=spf1 mx -all'], ['apex text']]);
  });

  it('bounds a CNAME loop', () => {
    const model = demoModel();
    model.services[0]!.dns.push(
      entry('CNAME', 'b.example.com', { name: 'a.example.com' }),
      entry('CNAME', 'a.example.com', { name: 'b.example.com' }),
    );
    const answer = new ModelZones(model, { A: '127.0.0.1' }).answer('a.example.com', A);
    expect(answer.rcode).toBe(0);
    expect(answer.answers.length).toBe(9);
  });

  it("uses the zone's own apex NS records instead of ns1.<zone>, and moves the serial only on change", () => {
    const model = demoModel();
    const zones = new ModelZones(model, { A: '127.0.0.1' });
    const serial = () => (zones.answer('example.com', SOA).answers[0]!.value as { serial: number }).serial;
    const first = serial();
    expect(serial()).toBe(first);
    model.services[0]!.dns.push(entry('NS', 'ns1.dondominio.com', { name: 'example.com' }));
    expect(serial()).toBe(first + 1);
    const ns = zones.answer('example.com', 2);
    expect(ns.answers.map((r) => r.value)).toEqual(['ns1.dondominio.com']);
    expect(ns.additional).toEqual([]);
    expect(zones.answer('ns1.example.com', A).rcode).toBe(3);
  });

  it('refers names at and below a delegation to its name servers, with glue, not authoritatively', () => {
    const model = demoModel();
    model.services[0]!.dns.push(
      entry('NS', 'ns.lab.example.com', { name: 'lab.example.com' }),
      entry('NS', 'ns.elsewhere.net', { name: 'lab.example.com' }),
      entry('A', '192.0.2.53', { name: 'ns.lab.example.com' }),
      entry('CNAME', 'host.lab.example.com', { name: 'to-lab.example.com' }),
    );
    const zones = new ModelZones(model, { A: '127.0.0.1' });
    for (const name of ['lab.example.com', 'deep.host.lab.example.com', 'ns.lab.example.com']) {
      const referral = zones.answer(name, A);
      expect(referral, name).toMatchObject({ rcode: 0, authoritative: false, answers: [] });
      expect(referral.authority.map((r) => [r.name, r.type, r.value])).toEqual([
        ['lab.example.com', 'NS', 'ns.lab.example.com'],
        ['lab.example.com', 'NS', 'ns.elsewhere.net'],
      ]);
      expect(referral.additional).toEqual([{ name: 'ns.lab.example.com', type: 'A', ttl: 300, value: '192.0.2.53' }]);
    }
    const viaCname = zones.answer('to-lab.example.com', A);
    expect(viaCname).toMatchObject({
      authoritative: true,
      answers: [{ type: 'CNAME' }],
      authority: [{ type: 'NS' }, { type: 'NS' }],
    });
    expect(zones.answer('example.com', A).authoritative).toBe(true);
  });
});
