// --ignore patterns as users write them ("*", "*.sub", "legacy-*"), matched in linear time.
import { describe, expect, it } from 'vitest';
import { ownership } from '../../../../src/zone/plan/ownership.js';

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

// Patterns with several '*' once made the regular expression backtrack (3.8 s for one
// label). They are matched left to right, each piece found once: linear in the name.
describe('--ignore patterns match in linear time', () => {
  it('many stars against a long name that almost matches: answered at once (a backtracking match takes longer than the test may run)', () => {
    const stars = `${'*a'.repeat(12)}*b`;
    const name = `${'a'.repeat(63)}.${'a'.repeat(63)}.${'a'.repeat(63)}.${Z}`;
    for (let i = 0; i < 100; i++) expect(owner(stars)({ name, type: 'A' })).toBeUndefined();
    expect(owner(stars)({ name: `${'a'.repeat(63)}.b.${Z}`, type: 'A' })).toBe(`--ignore ${stars}`);
  });

  it('means what the regular expression meant: * any run of characters, dots included, the rest literal', () => {
    const cases: [string, string, boolean][] = [
      ['legacy*', `legacy.${Z}`, true],
      ['legacy*', `legacy.sub.${Z}`, true],
      ['legacy*', `old-legacy.${Z}`, false],
      ['*db*', `x.db1.${Z}`, true],
      ['*db*', `x.d-b.${Z}`, false],
      ['a*b*c', `abc.${Z}`, true],
      ['a*b*c', `axxbyyc.${Z}`, true],
      ['a*b*c', `acb.${Z}`, false],
      ['a*a', `a.${Z}`, false],
      ['a*a', `aa.${Z}`, true],
      ['a**b', `ab.${Z}`, true],
      ['*.x', `x.${Z}`, false],
      ['*.x', `y.x.${Z}`, true],
      ['*', Z, true],
      ['*', `deep.er.${Z}`, true],
      [`*.${Z}.`, `w.${Z}`, true],
      ['*-*-*', `a-b-c.${Z}`, true],
      ['*-*-*', `a-b.${Z}`, false],
    ];
    for (const [pattern, name, matches] of cases)
      expect(owner(pattern)({ name, type: 'TXT' }), `${pattern} ~ ${name}`).toBe(
        matches ? `--ignore ${pattern}` : undefined,
      );
  });
});

describe('a type the provider names', () => {
  // Found by an attack: the provider's type went into the plan as it was, line breaks and all.
  it('is shown with its control characters escaped in the reason, so it cannot forge a line of the plan', () => {
    const reason = owner()({ name: `x.${Z}`, type: 'PTR\n  create evil' });
    expect(reason).toBe('type PTR\\010  create evil is not managed by ddedge');
  });
});
