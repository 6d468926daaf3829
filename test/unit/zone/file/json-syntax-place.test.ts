// A JSON zone file that is not JSON: where it breaks, even where JSON.parse does not say, and the
// reason on one line with none of the file's characters raw (V8 quotes the text it could not parse).
import { describe, expect, it } from 'vitest';
import { parseJsonText } from '../../../../src/zone/file/json-form.js';
import { jsonSyntaxPlace } from '../../../../src/zone/file/json-syntax-place.js';
import { ZoneFileError } from '../../../../src/zone/zone-file-error.js';

function problem(text: string): ZoneFileError {
  try {
    parseJsonText(text, 'z.json');
  } catch (error) {
    if (error instanceof ZoneFileError) return error;
    throw error;
  }
  throw new Error('parsed');
}

const place = (text: string) => {
  const { line, column } = problem(text);
  return `${line}:${column}`;
};

describe('a JSON zone file that is not valid JSON', () => {
  it('a trailing comma is placed at what follows it', () => {
    expect(place('[{"name":"a","type":"A","value":"192.0.2.1"},\n]')).toBe('2:1');
    expect(place('[{"name":"a","type":"A",}]')).toBe('1:25');
  });

  it('a file that ends too soon is placed at its end', () => {
    expect(place('[')).toBe('1:2');
    expect(place('[\n  {"name": "a"')).toBe('2:15');
    expect(place('[{"name":"a')).toBe('1:12');
  });

  it('other tokens no JSON value has there are placed where they are', () => {
    expect(place('[1, 2, x]')).toBe('1:8');
    expect(place('[tru]')).toBe('1:2');
    expect(place('[{a: 1}]')).toBe('1:3');
    expect(place('[{"a" 1}]')).toBe('1:7');
    expect(place('[01]')).toBe('1:3');
    expect(place('[1.]')).toBe('1:4');
    expect(place('["a\\q"]')).toBe('1:5');
    expect(place('[1] [2]')).toBe('1:5');
  });

  it('a place JSON.parse names is kept', () => {
    expect(place('[{"name":"a" "type":"A"}]')).toBe('1:14');
  });

  it("the reason is one line and shows none of the file's characters raw", () => {
    for (const text of ['[1,2,\x1b]0;PWNED\x07]', '[1,2,\n\n\n]', '[{"value":"CANARY-s3cr3t"},]']) {
      const { message, reason } = problem(text);
      expect(message).not.toMatch(/[\x00-\x1f\x7f]/);
      expect(reason).toMatch(/^not valid JSON \(/);
      expect(reason).not.toContain('CANARY');
      expect(reason).not.toContain('PWNED');
    }
  });
});

describe('the syntax scan on its own', () => {
  it('finds nothing wrong in JSON', () => {
    for (const text of ['[]', ' [ {"a": [1, -2.5e+3, true, false, null, "\\u00e9\\n"]}, {} ] ', '"x"', '0'])
      expect(jsonSyntaxPlace(text)).toBeUndefined();
  });

  it('places each kind of break', () => {
    expect(jsonSyntaxPlace('[1,]')).toBe(3);
    expect(jsonSyntaxPlace('{"a":1,}')).toBe(7);
    expect(jsonSyntaxPlace('[1 2]')).toBe(3);
    expect(jsonSyntaxPlace('{"a" 1}')).toBe(5);
    expect(jsonSyntaxPlace('{1:2}')).toBe(1);
    expect(jsonSyntaxPlace('[01]')).toBe(2);
    expect(jsonSyntaxPlace('[-]')).toBe(1);
    expect(jsonSyntaxPlace('["a\tb"]')).toBe(3);
    expect(jsonSyntaxPlace('["\\u12"]')).toBe(2);
    expect(jsonSyntaxPlace('[1]]')).toBe(3);
    expect(jsonSyntaxPlace('["abc')).toBe(5);
    expect(jsonSyntaxPlace('')).toBe(0);
  });

  it('scans a deep nesting without recursion', () => {
    expect(jsonSyntaxPlace('['.repeat(1_000_000))).toBe(1_000_000);
  });
});
