// A zone in BIND's canonical form: the SOA's TTL read as the provider's default, and the
// in-zone name servers' addresses left to the provider.
import { describe, expect, it } from 'vitest';
import { atProviderDefault, providerGlue, type BindForm } from '../../../src/zone/bind-form.js';
import type { LiveRecord, ZoneRecord } from '../../../src/zone/record.js';

const form: BindForm = { defaultTtl: 300, nameServers: new Set(['ns1.example.com']) };

describe('providerGlue', () => {
  const glue: ZoneRecord = { name: 'ns1.example.com', type: 'A', ttl: 300, value: '192.0.2.53' };

  it('leaves to the provider the address of an in-zone name server the zone holds none for', () => {
    expect(providerGlue(glue, form, [])).toBe('left to the provider (the address of its name server ns1.example.com)');
    expect(providerGlue({ ...glue, type: 'AAAA', value: '2001:db8::53' }, form, [])).toContain('ns1.example.com');
  });

  it('plans it as any record when the zone holds an address there, or it is no name server address', () => {
    expect(
      providerGlue(glue, form, [{ name: 'ns1.example.com', type: 'AAAA', value: '2001:db8::53', entityID: '1' }]),
    ).toBeUndefined();
    expect(providerGlue({ ...glue, name: 'www.example.com' }, form, [])).toBeUndefined();
    expect(providerGlue({ ...glue, type: 'TXT', value: 'x' }, form, [])).toBeUndefined();
  });
});

describe('atProviderDefault', () => {
  const live: LiveRecord[] = [
    { name: 'www.example.com', type: 'A', value: '192.0.2.1', entityID: '1' },
    { name: 'pinned.example.com', type: 'A', ttl: 300, value: '192.0.2.2', entityID: '2' },
  ];

  it('reads a TTL equal to the default as no TTL where the provider holds the record at its default', () => {
    const wanted: ZoneRecord[] = [
      { name: 'www.example.com', type: 'A', ttl: 300, value: '192.0.2.1' },
      { name: 'pinned.example.com', type: 'A', ttl: 300, value: '192.0.2.2' },
      { name: 'new.example.com', type: 'A', ttl: 300, value: '192.0.2.3' },
      { name: 'other.example.com', type: 'A', ttl: 60, value: '192.0.2.4' },
    ];
    expect(atProviderDefault(live, wanted, 300)).toEqual([
      { name: 'www.example.com', type: 'A', value: '192.0.2.1' },
      wanted[1],
      wanted[2],
      wanted[3],
    ]);
  });

  it('changes nothing when no live record is at the default', () => {
    const wanted: ZoneRecord[] = [{ name: 'pinned.example.com', type: 'A', ttl: 300, value: '192.0.2.2' }];
    expect(atProviderDefault(live.slice(1), wanted, 300)).toBe(wanted);
  });
});
