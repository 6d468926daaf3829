// The sandbox's name server reads a zone's entries only after the model changed, whatever
// changed it: between changes a question costs O(answer), not O(zone) (it used to fingerprint
// every entry on every question: about 120 queries a second at 50,000 entries).
import { describe, expect, it } from 'vitest';
import type { DnsEntry } from '../../../src/api/endpoints/service.js';
import { ModelZones } from '../../../src/sandbox/dns/model-zones.js';
import { demoModel } from '../../../src/sandbox/model.js';

const A = 1;
const SOA = 6;

/** Entries that count every read of their fields. */
function countedEntries(n: number, reads: { count: number }): DnsEntry[] {
  return Array.from(
    { length: n },
    (_, i) =>
      new Proxy(
        {
          entityID: String(1000 + i),
          name: `h${i}.example.com`,
          type: 'A',
          ttl: '-',
          priority: '-',
          value: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
        },
        {
          get(target, key) {
            reads.count++;
            return target[key as keyof DnsEntry];
          },
        },
      ),
  );
}

describe('a zone read only after a change', () => {
  it('answers 1,000 questions about a 50,000-entry zone without reading an entry', () => {
    const model = demoModel();
    const reads = { count: 0 };
    model.services[0]!.dns.push(...countedEntries(50_000, reads));
    const zones = new ModelZones(model, { A: '127.0.0.1' });
    expect(zones.answer('h7.example.com', A).answers[0]!.value).toBe('10.0.0.7');
    reads.count = 0;
    for (let i = 0; i < 1000; i++) expect(zones.answer(`h${i * 37}.example.com`, A).answers).toHaveLength(1);
    expect(reads.count).toBe(0);
  });

  it('sees every kind of change: an entry pushed, spliced out, edited in place, the list replaced, a new service', () => {
    const model = demoModel();
    const zones = new ModelZones(model, { A: '127.0.0.1' });
    const serial = () => (zones.answer('example.com', SOA).answers[0]!.value as { serial: number }).serial;
    const address = (name: string) => zones.answer(name, A).answers[0]?.value;
    const start = serial();
    const service = model.services[0]!;
    service.dns.push({
      entityID: '90',
      name: 'new.example.com',
      type: 'A',
      ttl: '-',
      priority: '-',
      value: '192.0.2.90',
    });
    expect(address('new.example.com')).toBe('192.0.2.90');
    service.dns.find((e) => e.name === 'new.example.com')!.value = '192.0.2.91';
    expect(address('new.example.com')).toBe('192.0.2.91');
    service.dns.splice(
      service.dns.findIndex((e) => e.name === 'new.example.com'),
      1,
    );
    expect(zones.answer('new.example.com', A).rcode).toBe(3);
    service.dns = [
      { entityID: '91', name: 'only.example.com', type: 'A', ttl: '-', priority: '-', value: '192.0.2.92' },
    ];
    expect(address('only.example.com')).toBe('192.0.2.92');
    service.dns[0]!.value = '192.0.2.93';
    expect(address('only.example.com')).toBe('192.0.2.93');
    expect(serial()).toBe(start + 5);
    model.services.push({
      ...(JSON.parse(JSON.stringify(model.services[1]!)) as (typeof model.services)[number]),
      name: 'example.org',
      dns: [{ entityID: '92', name: 'example.org', type: 'A', ttl: '-', priority: '-', value: '192.0.2.94' }],
    });
    expect(address('example.org')).toBe('192.0.2.94');
    // The model still reads and serialises as plain data.
    expect(JSON.parse(JSON.stringify(model)).services[0].dns).toEqual([
      { entityID: '91', name: 'only.example.com', type: 'A', ttl: '-', priority: '-', value: '192.0.2.93' },
    ]);
  });
});
