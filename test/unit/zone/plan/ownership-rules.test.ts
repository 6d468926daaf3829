// The ownership policy's rules one at a time: --ignore's grammar and names, the ACME challenges
// a caller made, and who the keeper names.
import { describe, expect, it } from 'vitest';
import { keeper, ownership, parseIgnore, providerOwnership } from '../../../../src/zone/plan/ownership.js';

const Z = 'example.com';

describe('parseIgnore', () => {
  it.each(['a:b:c', ':TXT', 'www:-TXT', 'www:TXT-'])('%j is not NAME or NAME:TYPE', (text) => {
    expect(() => parseIgnore(text, Z)).toThrow(
      `--ignore: "${text}" is not NAME or NAME:TYPE (e.g. --ignore 'legacy*' or --ignore @:TXT)`,
    );
  });

  it('refuses what is not a name, and a Unicode label with a star', () => {
    expect(() => parseIgnore('bad name', Z)).toThrow('--ignore: "bad name" is not a name or a pattern of one');
    expect(() => parseIgnore('bü*', Z)).toThrow(
      /^--ignore: "bü\*": a pattern with \* is matched against the names the provider keeps: write its Unicode labels in punycode \(xn--\.\.\.\)$/,
    );
  });

  it('reads names relative, absolute and Unicode, and types in any case', () => {
    expect(parseIgnore('www.example.com.', Z).matches(`www.${Z}`)).toBe(true);
    expect(parseIgnore('Bücher', Z).matches(`xn--bcher-kva.${Z}`)).toBe(true);
    expect(parseIgnore('Legacy*', Z).matches(`legacy1.${Z}`)).toBe(true);
    expect(parseIgnore('www:txt', Z).type).toBe('TXT');
  });

  it('a bare star is every name of the zone, the apex included, and nothing outside it', () => {
    const rule = parseIgnore('*', Z);
    expect(rule.matches(Z)).toBe(true);
    expect(rule.matches(`a.${Z}`)).toBe(true);
    expect(rule.matches('example.org')).toBe(false);
  });
});

describe('the ACME challenges kept', () => {
  const challenge = `_acme-challenge.www.${Z}`;
  it('only those a caller made, by name and value, as TXT', () => {
    const owner = ownership({
      zone: Z,
      hosts: [],
      acmeMade: [
        { name: challenge, value: 'tok' },
        { name: `_acme-challenge.${Z}`, value: 'other' },
      ],
    });
    expect(owner({ name: challenge, type: 'TXT', value: 'tok' } as { name: string; type: string })).toBe(
      'an ACME challenge (_acme-challenge TXT)',
    );
    expect(owner({ name: challenge, type: 'TXT', value: 'new' } as { name: string; type: string })).toBeUndefined();
    expect(owner({ name: `x.${Z}`, type: 'TXT', value: 'tok' } as { name: string; type: string })).toBeUndefined();
    expect(owner({ name: challenge, type: 'CNAME', value: 'tok' } as { name: string; type: string })).toBeUndefined();
  });

  it('unset, every _acme-challenge TXT, the bare name too', () => {
    const owner = ownership({ zone: Z, hosts: [] });
    expect(owner({ name: '_acme-challenge', type: 'TXT' })).toBe('an ACME challenge (_acme-challenge TXT)');
    expect(owner({ name: challenge, type: 'TXT' })).toBe('an ACME challenge (_acme-challenge TXT)');
    expect(owner({ name: `x${challenge}`, type: 'TXT' })).toBeUndefined();
  });
});

describe('keeper: who keeps a record', () => {
  it('names the keeper with the reason', () => {
    const keeps = keeper({
      zone: Z,
      hosts: [`home.${Z}`],
      ignore: ['www'],
      agent: { file: '/s/state.json', records: [{ name: `lan.${Z}`, type: 'AAAA' }] },
    });
    expect(keeps({ name: Z, type: 'SOA' })).toStrictEqual({ by: 'provider', reason: 'left to the provider (SOA)' });
    expect(keeps({ name: Z, type: 'NS' })).toStrictEqual({ by: 'provider', reason: 'left to the provider (apex NS)' });
    expect(keeps({ name: `home.${Z}`, type: 'A' })).toStrictEqual({
      by: 'agent',
      reason: "one of the agent's hosts, DDEDGE_HOSTS or --host",
    });
    expect(keeps({ name: `lan.${Z}`, type: 'AAAA' })).toStrictEqual({
      by: 'agent',
      reason: "one of the agent's hosts, recorded in /s/state.json",
    });
    expect(keeps({ name: `_acme-challenge.${Z}`, type: 'TXT' })).toStrictEqual({
      by: 'acme',
      reason: 'an ACME challenge (_acme-challenge TXT)',
    });
    expect(keeps({ name: `www.${Z}`, type: 'A' })).toStrictEqual({ by: 'ignore', reason: '--ignore www' });
    expect(keeps({ name: `other.${Z}`, type: 'A' })).toBeUndefined();
  });

  it("providerOwnership: only the provider's own records", () => {
    const owner = providerOwnership(Z);
    expect(owner({ name: Z, type: 'SOA' })).toBe('left to the provider (SOA)');
    expect(owner({ name: `home.${Z}`, type: 'A' })).toBeUndefined();
  });
});
