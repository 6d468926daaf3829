// The strict reading of an answer: its quick proof (keys counted in the parsed value and in the
// text) accepts only what the scan of the text accepts, and leaves every refusal to it.
import { afterEach, describe, expect, it } from 'vitest';
import { parseStrictJson } from '../../../src/lib/strict-json.js';

const nested = (depth: number, inner = '') => '['.repeat(depth) + inner + ']'.repeat(depth);
const objects = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

describe('strict JSON, hostile texts', () => {
  it.each([
    // A key twice, however it is spaced before its colon.
    ['{"a":1,"a" :2}', /"a" appears twice/],
    ['{"a":1,"a"\t:2}', /"a" appears twice/],
    ['{"a":1,"a"\r\n :2}', /"a" appears twice/],
    ['{ "a" : 1 , "a" : 2 }', /"a" appears twice/],
    // A string that looks like a key's end makes the count unequal: the scan decides.
    ['{"a":"x\\":","a":2}', /"a" appears twice/],
    ['{"v":":1","w":"::1","v":3}', /"v" appears twice/],
    // The same key spelled with an escape.
    ['{"ab":1,"a\\u0062":2}', /appears twice/],
    ['{"__proto__":1,"__proto__":2}', /"__proto__" appears twice/],
    // In a listing's shape, deep in its pages.
    [
      `{"dns":[${Array.from({ length: 50 }, (_, i) => `{"entityID":"${i}","name":"h${i}"}`).join(',')},` +
        '{"entityID":"x","name":"a","entityID":"y"}]}',
      /"entityID" appears twice/,
    ],
    // Deeper than allowed, with and without keys, and empty containers at the bottom.
    [nested(65), /deeper than 64/],
    [nested(64, '{}'), /deeper than 64/],
    [objects(65), /deeper than 64/],
    // Both faults: the scan's order (the first in the text) names the error, as before.
    [`{"a":1,"a":${nested(70)}}`, /"a" appears twice/],
    [`{"b":${nested(70)},"a":1,"a":2}`, /deeper than 64/],
    ['{"a":1', /not JSON/],
    ['{"a":"\u0000"}', /not JSON/],
  ])('refuses %s', (text, message) => {
    expect(() => parseStrictJson(text)).toThrow(message);
  });

  it.each([
    [nested(64)],
    [objects(64)],
    // Huge and odd numbers are numbers.
    ['{"n":1e400,"m":123456789012345678901234567890,"o":-0.0e-999}'],
    // Lone surrogates and replacement characters (bytes that were not UTF-8) are text.
    ['{"s":"\\ud800","t":"\ufffd\ufffd"}'],
    // Strings that look like a key's end, and colons in values (IPv6, URLs).
    ['{"a":"x\\":","b":"\\"  :","c":"::1","d":"https://x:443/"}'],
    ['  {"a" :\n1 ,\t"b"\r\n:\n[ {"a" : 2} ] }  '],
    ['"just a string"'],
    ['42'],
    ['[]'],
  ])('reads %s as JSON.parse does', (text) => {
    expect(parseStrictJson(text)).toEqual(JSON.parse(text));
  });

  it('reads a deeper limit and refuses past it', () => {
    expect(parseStrictJson(nested(3), 3)).toEqual(JSON.parse(nested(3)));
    expect(() => parseStrictJson(nested(4), 3)).toThrow(/deeper than 3/);
  });

  describe('with a polluted prototype', () => {
    afterEach(() => {
      delete (Object.prototype as Record<string, unknown>).polluted;
    });
    it('still refuses a key twice', () => {
      (Object.prototype as Record<string, unknown>).polluted = 1;
      expect(() => parseStrictJson('{"a":1,"a":2}')).toThrow(/"a" appears twice/);
      expect(parseStrictJson('{"a":1}')).toEqual({ a: 1 });
    });
  });
});
