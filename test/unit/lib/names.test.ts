// The one names module: the provider's canonical form, the key names compare by, label-wise
// zone membership, the agent's host-name rule and the registered domain.
import { describe, expect, it } from 'vitest';
import {
  absoluteName,
  asciiName,
  atOrBelow,
  below,
  canonicalName,
  isHostName,
  lowerName,
  normaliseHost,
  relativeName,
  sameName,
} from '../../../src/lib/names.js';
import { registeredDomain } from '../../../src/lib/registered-domain.js';

describe("canonicalName: the provider's form (lower case, ASCII, IDN in punycode, no trailing dot)", () => {
  it.each([
    ['www.example.com', 'www.example.com'],
    ['WWW.Example.COM', 'www.example.com'],
    ['www.example.com.', 'www.example.com'],
    ['www.Bücher.example.', 'www.xn--bcher-kva.example'],
    ['*.example.com', '*.example.com'],
    ['_acme-challenge.example.com', '_acme-challenge.example.com'],
    ['localhost', 'localhost'],
  ])('%j -> %j', (name, canonical) => expect(canonicalName(name)).toBe(canonical));

  it.each([
    '',
    '.',
    'a..b',
    '.example.com',
    'www.*.example.com',
    '-www.example.com',
    'x y.example.com',
    'exa\tmple.com',
    'exä\tmple.com',
    `${'a'.repeat(64)}.com`,
    `${'a.'.repeat(127)}com`,
  ])('not a name: %j', (name) => expect(canonicalName(name)).toBeUndefined());
});

describe('normaliseHost: a configured host as the provider writes it, or its text for the host check to refuse', () => {
  it('lower case, punycode, no trailing dot', () => {
    expect(normaliseHost('Home.Bücher.example.')).toBe('home.xn--bcher-kva.example');
  });
  it('keeps a name with a tab or line break as it is (lower case), never another host', () => {
    expect(normaliseHost('Ho\tme.example.com')).toBe('ho\tme.example.com');
    expect(isHostName(normaliseHost('ho\tme.example.com'))).toBe(false);
  });
  it('keeps what is not a name at all', () => expect(normaliseHost('x y.com')).toBe('x y.com'));
});

describe('lowerName and sameName: names compare without case and without a trailing dot', () => {
  it('lowerName', () => {
    expect(lowerName('WWW.Example.COM.')).toBe('www.example.com');
    expect(lowerName('www.example.com')).toBe('www.example.com');
    expect(lowerName('.')).toBe('');
    expect(lowerName('a\\.B.')).toBe('a\\.b');
  });
  it('sameName', () => {
    expect(sameName('WWW.example.com.', 'www.EXAMPLE.com')).toBe(true);
    expect(sameName('www.example.com', 'www.example.org')).toBe(false);
  });
});

describe('atOrBelow and below: label by label, never a suffix of text', () => {
  it('the zone itself and names below it', () => {
    expect(atOrBelow('example.com', 'example.com')).toBe(true);
    expect(atOrBelow('www.example.com', 'example.com')).toBe(true);
    expect(atOrBelow('a.b.example.com', 'example.com')).toBe(true);
    expect(below('www.example.com', 'example.com')).toBe(true);
    expect(below('example.com', 'example.com')).toBe(false);
  });
  it("a name that only ends with the zone's text is not in it", () => {
    expect(atOrBelow('notexample.com', 'example.com')).toBe(false);
    expect(below('notexample.com', 'example.com')).toBe(false);
    expect(atOrBelow('example.com', 'www.example.com')).toBe(false);
    expect(atOrBelow('com', 'example.com')).toBe(false);
  });
  it('an escaped dot does not end a label; an escaped backslash before a dot does not escape it', () => {
    expect(atOrBelow('x\\.example.com', 'example.com')).toBe(false);
    expect(below('x\\.example.com', 'example.com')).toBe(false);
    expect(atOrBelow('x\\\\.example.com', 'example.com')).toBe(true);
    expect(atOrBelow('x\\.example.com', 'com')).toBe(true);
  });
});

describe('master-file names against an origin', () => {
  it('absoluteName', () => {
    expect(absoluteName('@', 'example.com.')).toBe('example.com.');
    expect(absoluteName('www', 'example.com.')).toBe('www.example.com.');
    expect(absoluteName('www.example.org.', 'example.com.')).toBe('www.example.org.');
  });
  it('relativeName, label by label', () => {
    expect(relativeName('example.com', 'example.com')).toBe('@');
    expect(relativeName('www.example.com', 'example.com')).toBe('www');
    expect(relativeName('notexample.com', 'example.com')).toBe('notexample.com.');
  });
});

describe("isHostName: the agent's rule for a host it updates", () => {
  it.each(['example.com', 'home.example.com', 'xn--bcher-kva.example', 'a-b.example.co.uk', '1.example.com'])(
    '%j is one',
    (name) => expect(isHostName(name)).toBe(true),
  );
  it.each([
    'localhost',
    'example.com.',
    'Example.com',
    'a..b',
    '-a.example.com',
    'a-.example.com',
    '_acme.example.com',
    '*.example.com',
    '1.2.3.4',
    `${'a'.repeat(64)}.com`,
    `${'a.'.repeat(126)}com`,
  ])('%j is not', (name) => expect(isHostName(name)).toBe(false));
});

describe('registeredDomain', () => {
  it.each([
    ['home.example.com', 'example.com'],
    ['example.com', 'example.com'],
    ['a.b.example.co.uk', 'example.co.uk'],
    ['co.uk', 'co.uk'],
    ['nas.example.com.es', 'example.com.es'],
  ])('%j -> %j', (host, domain) => expect(registeredDomain(host)).toBe(domain));
});

describe('names at the edges of their rules', () => {
  const label = (n: number) => 'a'.repeat(n);
  // 63 + 1 + 63 + 1 + 63 + 1 + 61 = 253 characters.
  const longest = `${label(63)}.${label(63)}.${label(63)}.${label(61)}`;

  it('canonicalName: a wildcard, a name of 253 characters and a label of Unicode alone, also when case must change', () => {
    expect(canonicalName('*.Example.com')).toBe('*.example.com');
    expect(canonicalName(longest.toUpperCase())).toBe(longest);
    expect(canonicalName(`${longest.toUpperCase()}a`)).toBeUndefined();
    expect(canonicalName('ü.example')).toBe('xn--tda.example');
  });

  it('canonicalName, asciiName: a character that becomes `*` only in its ASCII form (U+FF0A, U+FE61) is no wildcard', () => {
    for (const star of ['\uff0a', '\ufe61']) {
      expect(canonicalName(`${star}.lan.example.com`), star).toBeUndefined();
      expect(canonicalName(`a${star}b.example.com`), star).toBeUndefined();
      expect(asciiName(`${star}.example.com`), star).toBeUndefined();
    }
    expect(asciiName('*.example.com')).toBe('*.example.com');
    expect(canonicalName('*.ü.example')).toBe('*.xn--tda.example');
  });

  it('below: a backslash at the very start escapes the dot after it', () => {
    expect(below('\\.example.com', 'example.com')).toBe(false);
  });

  it('isHostName: 253 characters; a top label of digits and letters is one, of digits alone is not', () => {
    expect(isHostName(longest)).toBe(true);
    expect(isHostName(`${longest}a`)).toBe(false);
    expect(isHostName('example.a1')).toBe(true);
    expect(isHostName('example.1a')).toBe(true);
    expect(isHostName('example.12')).toBe(false);
    expect(isHostName('a.1.com')).toBe(true);
  });
});
