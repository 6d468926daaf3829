// The one reader of JSON state files, apart from any file: what a reader that may not write the
// file does with damage (says it, leaves the file), how each refusal is chosen, and the words of
// a shape check (our own names and positions, never a key or a value of the file).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/lib/errors.js';
import { list, object, oneOf, optional, table, text, whole, type Shape } from '../../../src/state/shape.js';
import { readStateFile, type StateFileType } from '../../../src/state/state-file.js';
import { tempDir } from '../../helpers/cli.js';

const shape = object({
  version: oneOf(1),
  items: list(object({ name: text, count: optional(whole(0)) })),
  seen: table(text),
});
const TYPE: StateFileType<unknown> = { maxBytes: 1024, shape };
const GOOD = '{"version":1,"items":[{"name":"a"},{"name":"b","count":2}],"seen":{"x":"y"}}';

function fileWith(content: string): string {
  const path = join(tempDir('ddedge-state-file-'), 'file.json');
  writeFileSync(path, content);
  return path;
}

const reasonOf = (check: Shape<unknown>, value: unknown): string => {
  try {
    check(value, '');
  } catch (error) {
    return (error as Error).message;
  }
  return 'no damage';
};

describe('readStateFile', () => {
  it('reads a good file whole, and a missing one as nothing', () => {
    expect(readStateFile(fileWith(GOOD), TYPE, { setAside: true })).toEqual({ value: JSON.parse(GOOD) });
    expect(readStateFile(join(tempDir(), 'none.json'), TYPE, { setAside: true })).toEqual({});
  });

  it('for a reader that may not write the file: says the damage and leaves the file where it is', () => {
    const path = fileWith(GOOD.replace('"count":2', '"count":-2'));
    const loaded = readStateFile(path, TYPE, { setAside: false });
    const why = `items[1].count is not a whole number from 0 to ${Number.MAX_SAFE_INTEGER}`;
    expect(loaded.damage).toBe(`${path} is damaged (${why})`);
    expect(existsSync(path)).toBe(true);
    expect(existsSync(`${path}.damaged`)).toBe(false);
  });

  it('sets aside what it read, and hands back its text (for a file that salvages)', () => {
    const path = fileWith('{"version":1,');
    const loaded = readStateFile(path, TYPE, { setAside: true });
    expect(loaded.damage).toBe(`${path} is damaged (not valid JSON at position 13); set aside as ${path}.damaged`);
    expect(loaded.text).toBe('{"version":1,');
    expect(readFileSync(`${path}.damaged`, 'utf8')).toBe('{"version":1,');
  });

  it("refuses as its file's type says: only what cannot be read at all, or any damage", () => {
    const huge = () => fileWith(`${GOOD}${' '.repeat(2048)}`);
    const wrong = () => fileWith('[]');
    const unusable = { ...TYPE, refuse: 'unusable' as const };
    const always = { ...TYPE, refuse: 'always' as const, advice: 'remove it' };
    expect(() => readStateFile(huge(), unusable, { setAside: true })).toThrow(ConfigError);
    const setAside = readStateFile(wrong(), unusable, { setAside: true }).damage;
    expect(setAside).toMatch(/is damaged \(the file is not an object\); set aside as/);
    const path = wrong();
    const refusal = `${path} is damaged (the file is not an object); remove it`;
    expect(() => readStateFile(path, always, { setAside: true })).toThrow(refusal);
    expect(readFileSync(path, 'utf8')).toBe('[]');
    const tooLarge = readStateFile(huge(), TYPE, { setAside: false }).damage;
    expect(tooLarge).toMatch(/is damaged \(\d+ bytes, too large to be ddedge's\)$/);
  });
});

describe('a shape check', () => {
  it('names the field by our words and positions, never by what the file holds', () => {
    expect(reasonOf(shape, JSON.parse(GOOD))).toBe('no damage');
    expect(reasonOf(shape, { version: 2 })).toBe('version is not one of 1');
    const items = [{ name: 'a' }, { name: 5 }];
    expect(reasonOf(shape, { version: 1, items, seen: {} })).toBe('items[1].name is not a string');
    const seen = { 'secret-key': 'y', 'other-secret': 7 };
    expect(reasonOf(shape, { version: 1, items: [], seen })).toBe('seen[#2] is not a string');
    expect(reasonOf(table(text, oneOf('x')), { 'secret-key': 'y' })).toBe('the key of the file[#1] is not one of x');
    expect(reasonOf(list(text, 1), ['a', 'b'])).toBe('the file is not a list of at most 1 items');
  });

  it('leaves fields it does not name as they are (a newer version may add some)', () => {
    expect(reasonOf(shape, { ...JSON.parse(GOOD), added: { anything: [1] } })).toBe('no damage');
  });
});
