// At the unit level: every spelling of a registered secret (as a provider might repeat it back)
// is masked, and nothing else is.
import { describe, expect, it } from 'vitest';
import { redact, registerSecret, registerSecretUrl } from '../../../src/lib/redact.js';
import { parseStrictJson } from '../../../src/lib/strict-json.js';
import { refusalKind } from '../../../src/dyndns/refusal.js';
import { outsideText } from '../../../src/lib/outside-text.js';

registerSecret('my secret+pw/"x');
registerSecret('Kc4n~ary!Key(9)');
registerSecret('clé-ünïcode-✓');
registerSecretUrl('HTTPS://hc.example.com:443/ping-uuid-1/');

describe('redact', () => {
  it.each([
    ['raw', 'my secret+pw/"x'],
    ['form-encoded', 'my+secret%2Bpw%2F%22x'],
    ['percent-encoded, lower-case hex', 'my%20secret%2bpw%2f%22x'],
    ['JSON-escaped (PHP style)', 'my secret+pw\\/\\"x'],
    ['\\u escapes', '\\u006dy secret\\u002Bpw/\\u0022x'],
    ['XML-escaped', 'my secret+pw/&quot;x'],
    ['twice percent-encoded', 'my%2520secret%252Bpw%252F%2522x'],
    ['every character encoded', 'Kc4n%7Eary%21Key%289%29'],
    ['mixed', 'Kc4n~ary%21Key(9%29'],
    ['UTF-8 percent-encoded', encodeURIComponent('clé-ünïcode-✓')],
    [
      'unicode JSON escapes',
      JSON.stringify('clé-ünïcode-✓')
        .replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
        .slice(1, -1),
    ],
  ])('masks the %s spelling', (_name, spelling) => {
    expect(redact(`before ${spelling} after`)).toBe('before *** after');
  });

  it.each([
    ['normalised', 'https://hc.example.com/ping-uuid-1/start'],
    ['upper-case scheme and host', 'HTTPS://HC.EXAMPLE.COM/ping-uuid-1'],
    ['explicit port', 'https://hc.example.com:443/ping-uuid-1/fail'],
    ['host and path, as hints show it', 'use https://hc.example.com/ping-uuid-1'],
  ])('masks the ping URL %s', (_name, text) => {
    expect(redact(text)).not.toContain('ping-uuid-1');
  });

  it('masks every occurrence, in text with and without encoded characters', () => {
    expect(redact('Kc4n~ary!Key(9) then Kc4n~ary!Key(9)')).toBe('*** then ***');
    expect(redact('Kc4n~ary!Key(9) then Kc4n%7Eary!Key(9) 100%')).toBe('*** then *** 100%');
    expect(redact('hc.example.com/ping-uuid-1 and HC.Example.COM/ping-uuid-1')).not.toContain('ping-uuid-1');
    // A query string's bare & is no XML entity; an entity beside one still is.
    expect(redact('/json/?user=u&key=Kc4n~ary!Key(9)&lang=en')).toBe('/json/?user=u&key=***&lang=en');
    expect(redact('a=1&b=&#75;c4n~ary!Key(9)&c=&#x4B;c4n~ary!Key(9)')).toBe('a=1&b=***&c=***');
  });

  it('leaves other text alone, including other cases of a case-sensitive secret', () => {
    expect(redact('KC4N~ARY!KEY(9) and my secret pw')).toBe('KC4N~ARY!KEY(9) and my secret pw');
  });
});

describe('strict JSON', () => {
  it.each([
    ['{"a":1,"a":2}', /appears twice/],
    ['{"a":{"b":1,"\\u0062":2}}', /appears twice/],
    ['['.repeat(65) + ']'.repeat(65), /deeper than 64/],
    ['{"a":', /not JSON/],
    // Escaped quotes and backslashes before a quote, and an object of many keys (a Set, not a scan).
    ['{"x\\\\":1,"y\\"z":{"k":"v\\\\"},"x\\\\":2}', /appears twice/],
    [`{${Array.from({ length: 40 }, (_, i) => `"k${i}":${i}`).join(',')},"k3":0}`, /"k3" appears twice/],
    ['[{"a":1,"b":[{"a":1}],"c":"\\"","a":2}]', /appears twice/],
  ])('refuses %s', (text, message) => {
    expect(() => parseStrictJson(text)).toThrow(message);
  });
  it('reads the same key in different objects and keys inside strings', () => {
    expect(parseStrictJson('{"a":{"a":1},"b":[{"a":2},{"a":3}],"c":"{\\"a\\":1,\\"a\\":2}"}')).toMatchObject({
      a: { a: 1 },
    });
  });
  it('reads keys that differ only after an escape, objects of many keys and lists of objects', () => {
    expect(parseStrictJson('{"x\\\\":1,"x\\"":2,"x":{"x":"\\\\"}}')).toEqual({ 'x\\': 1, 'x"': 2, x: { x: '\\' } });
    const many = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [`k${i}`, { k0: i, inner: [{ k0: 1 }, { k0: 2 }] }]),
    );
    expect(parseStrictJson(JSON.stringify(many))).toEqual(many);
    const page = {
      dns: Array.from({ length: 1000 }, (_, i) => ({
        entityID: String(i),
        name: `h${i}.example.com`,
        value: 'say "hi" \\',
      })),
    };
    expect(parseStrictJson(JSON.stringify(page))).toEqual(page);
  });
});

describe('dynamic DNS refusal kind', () => {
  it.each([
    ['Host monkey.example.com not found', 'refused'],
    ['Host key.example.com not found', 'refused'],
    ['Incorrect IP address: 2001:db8::1', 'refused'],
    ['Incorrect data', 'auth'],
    ['Datos incorrectos.', 'auth'],
    ['Invalid user', 'auth'],
  ] as const)('%s -> %s', (message, kind) => {
    expect(refusalKind({ success: false, messages: [message] })).toBe(kind);
  });
});

describe('outside text', () => {
  it('escapes control characters and bounds the length', () => {
    expect(outsideText('a\nb\u001b[31m\u2028')).toBe('a\\nb\\x1b[31m\\u2028');
    expect(outsideText('x'.repeat(1000), 10)).toBe('xxxxxxxxxx… (990 more characters)');
  });
});
