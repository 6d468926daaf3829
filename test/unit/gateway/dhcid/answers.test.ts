// The DHCID records kept, as the records answered: type 49 in RFC 3597's form, data as it is.
import { describe, expect, it } from 'vitest';
import { dhcidAnswers } from '../../../../src/gateway/dhcid/answers.js';
import type { DhcidRecord } from '../../../../src/gateway/dhcid/store.js';

describe('dhcidAnswers', () => {
  it('answers each kept DHCID as TYPE49 with its name, TTL and data', () => {
    const kept: DhcidRecord[] = [
      { name: 'pc.example.com', ttl: 300, data: '000101aa' },
      { name: 'tv.example.com', ttl: 60, data: '000201bb' },
    ];
    expect(dhcidAnswers(kept)).toEqual([
      { name: 'pc.example.com', type: 'TYPE49', ttl: 300, value: '000101aa' },
      { name: 'tv.example.com', type: 'TYPE49', ttl: 60, value: '000201bb' },
    ]);
  });
});
