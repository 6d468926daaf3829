// A provider entry read two ways: as the zone engine's record (zone plan, zone apply, the
// gateway) and as the DNS answer a name server gives for it (the sandbox's name server). One
// mapping reads both, so the two agree on every field the provider keeps its own way: the
// default priority of MX and SRV, an SRV's priority (its own field, or in front of the value),
// and the empty TXT.
import { describe, expect, it } from 'vitest';
import type { DnsEntry } from '../../../../src/api/endpoints/service.js';
import { recordOfEntry } from '../../../../src/zone/provider/entry-records.js';
import { fromProvider } from '../../../../src/zone/provider/provider-mapping.js';

const Z = 'example.com';
const entry = (type: string, value: string, priority = '-', ttl = '-'): DnsEntry => ({
  entityID: '1',
  name: `x.${Z}`,
  type,
  ttl,
  priority,
  value,
});

/** The zone's record in the answer's terms: priority, then the value's words. */
function asZoneReads(e: DnsEntry): string {
  const r = fromProvider(e, Z);
  return [r.priority ?? '', r.value].join(' ').trim();
}

function asServed(e: DnsEntry): string {
  const answer = recordOfEntry(e, `x.${Z}`)!;
  const v = answer.value as unknown;
  if (answer.type === 'MX')
    return `${(v as { preference: number }).preference} ${(v as { exchange: string }).exchange}`;
  if (answer.type === 'SRV') {
    const s = v as { priority: number; weight: number; port: number; target: string };
    return `${s.priority} ${s.weight} ${s.port} ${s.target}`;
  }
  if (answer.type === 'TXT') return (v as string[]).join('');
  return String(v);
}

describe('one mapping of provider entries', () => {
  const cases: [string, DnsEntry][] = [
    ['an MX at the default priority', entry('MX', 'mail.example.com')],
    ['an MX at its own priority', entry('MX', 'mail.example.com', '20')],
    ['an SRV at the default priority', entry('SRV', '5 5060 sip.example.com')],
    ['an SRV at its own priority', entry('SRV', '5 5060 sip.example.com', '20')],
    ['an SRV with its priority in front', entry('SRV', '1 5 5060 sip.example.com')],
    [
      "an SRV with a priority in front and in its field (the field is the provider's)",
      entry('SRV', '1 5 5060 sip.example.com', '20'),
    ],
    ['the empty TXT', entry('TXT', '""')],
  ];
  for (const [what, e] of cases) {
    it(`reads ${what} the same for the zone and for the name server`, () => {
      expect(asServed(e)).toBe(asZoneReads(e));
    });
  }

  it("serves the zone's reading of an SRV whose priority is in its field and in front of the value", () => {
    expect(fromProvider(entry('SRV', '1 5 5060 sip.example.com', '20'), Z)).toMatchObject({
      priority: 20,
      value: '5 5060 sip.example.com',
    });
    expect(recordOfEntry(entry('SRV', '1 5 5060 sip.example.com', '20'), `x.${Z}`)!.value).toEqual({
      priority: 20,
      weight: 5,
      port: 5060,
      target: 'sip.example.com',
    });
  });
});
