// --ignore patterns as users write them (zone review, issue 10).
import { describe, expect, it } from 'vitest';
import { ownership } from '../../src/zone/ownership.js';

const Z = 'example.com';
const owner = (...ignore: string[]) => ownership({ zone: Z, hosts: [], ignore });

describe('--ignore patterns', () => {
  it('a bare "*" matches every name of the zone, the apex too ("--ignore \'*:TXT\'" keeps the apex SPF)', () => {
    expect(owner('*:TXT')({ name: Z, type: 'TXT' })).toBe('--ignore *:TXT');
    expect(owner('*:TXT')({ name: `a.b.${Z}`, type: 'TXT' })).toBe('--ignore *:TXT');
    expect(owner('*:TXT')({ name: Z, type: 'A' })).toBeUndefined();
    expect(owner('*')({ name: Z, type: 'MX' })).toBe('--ignore *');
    expect(owner(`*.${Z}.`)({ name: Z, type: 'MX' })).toBe(`--ignore *.${Z}.`);
  });

  it('"*.sub" still means names below sub, not sub itself; "legacy-*" a prefix', () => {
    expect(owner('*.sub')({ name: `x.sub.${Z}`, type: 'A' })).toBe('--ignore *.sub');
    expect(owner('*.sub')({ name: `sub.${Z}`, type: 'A' })).toBeUndefined();
    expect(owner('legacy-*')({ name: `legacy-1.${Z}`, type: 'A' })).toBe('--ignore legacy-*');
    expect(owner('legacy-*')({ name: `legacy.${Z}`, type: 'A' })).toBeUndefined();
  });
});
