// JSON as answers must be: no key given twice (`{"success":false,"success":true}` is not
// "last one wins", it is malformed) and no nesting deeper than any answer has. Proved after
// JSON.parse by counting keys (the parsed value's, a walk no deeper than the limit, against the
// text's); where that proves nothing, decided by one flat pass over the text, which recurses on
// nothing, and whose errors are the ones given.
import { AnswerShapeError, MAX_ANSWER_DEPTH } from './answer-shape.js';

export function parseStrictJson(text: string, maxDepth = MAX_ANSWER_DEPTH): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AnswerShapeError('the answer is not JSON');
  }
  // The quick proof first; where it proves nothing (a key given twice, or only a string that
  // looks like a key's end), the scan of the text decides, and says what is wrong.
  if (!provedSound(text, value, maxDepth)) checkKeysAndDepth(text, maxDepth);
  return value;
}

/**
 * Whether `value` (JSON.parse of `text`) provably had no key twice in one object and no nesting
 * deeper than `maxDepth`. Every key of the text ends in a quote and a colon (keyEndsUpTo), and one that is
 * not a key's end lies inside a string, so the text's matches are at least its keys; the parsed
 * objects' own keys are at most the text's keys, fewer exactly when one object gave a key twice
 * (the last one wins). Equal counts prove that none did. False proves nothing either way.
 */
function provedSound(text: string, value: unknown, maxDepth: number): boolean {
  // An inherited key (a polluted prototype) is no key of the text, and for-in would count it: no proof then.
  if (hasEnumerableKey(Object.prototype)) return false;
  const keys = typeof value === 'object' && value !== null ? ownKeysWithin(value, 0, maxDepth) : 0;
  if (keys < 0) return false;
  return keyEndsUpTo(text, keys) === keys;
}

/**
 * The colons of `text` with a quote before them (JSON allows only its four spaces between a key's closing quote and
 * its colon), counted up to one more than `most`: every key of the text ends so, and a match that is not a key's end
 * lies inside a string. Found with indexOf: a regular expression run 600,000 times over a listing took twice as
 * long.
 */
function keyEndsUpTo(text: string, most: number): number {
  let ends = 0;
  for (let colon = text.indexOf(':'); colon !== -1 && ends <= most; colon = text.indexOf(':', colon + 1)) {
    let before = colon - 1;
    let c = text.charCodeAt(before);
    // Bounded by the start of the text: charCodeAt(-1) is NaN, no space.
    while (c === 32 || c === 9 || c === 10 || c === 13) c = text.charCodeAt(--before);
    if (c === QUOTE) ends++;
  }
  return ends;
}

function hasEnumerableKey(object: object): boolean {
  for (const _ in object) return true;
  return false;
}

/**
 * The keys of every object in `value` (JSON.parse's, whose objects inherit only from Object.prototype, which has no
 * enumerable key here: every key for-in gives is the object's own), or -1 past `maxDepth` (so the walk's depth is
 * bounded). A value that is not an object is looked at where it stands: a page of 1,000 entries holds 6,000 strings.
 */
function ownKeysWithin(value: object, depth: number, maxDepth: number): number {
  if (depth >= maxDepth) return -1;
  let keys = 0;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item !== 'object' || item === null) continue;
      const inner = ownKeysWithin(item, depth + 1, maxDepth);
      if (inner < 0) return -1;
      keys += inner;
    }
    return keys;
  }
  const object = value as Record<string, unknown>;
  for (const key in object) {
    keys++;
    const item = object[key];
    if (typeof item !== 'object' || item === null) continue;
    const inner = ownKeysWithin(item, depth + 1, maxDepth);
    if (inner < 0) return -1;
    keys += inner;
  }
  return keys;
}

/** Past this many keys in one object, or once one of its keys has an escape, its keys go in a Set. */
const SCAN_KEYS = 16;
const QUOTE = 34;
const BACKSLASH = 92;

/**
 * `text` is valid JSON here: only strings and brackets matter. A listing of 1,000 entries is
 * 1,000 small objects: a string is skipped with indexOf, and a key is compared where it stands
 * in the text with the few keys before it in its object (a Set of decoded keys only for a large
 * object or an escaped key), so the check makes no string per key and costs less than JSON.parse.
 */
function checkKeysAndDepth(text: string, maxDepth: number): void {
  const keys: Keys = { from: [], to: [], starts: [], sets: [] };
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let end = text.indexOf('"', i + 1);
      // A quote after an odd run of backslashes is inside the string.
      for (;;) {
        let back = end - 1;
        while (text.charCodeAt(back) === BACKSLASH) back--;
        if ((end - 1 - back) % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      if (expectKey && keys.starts.length && keys.starts[keys.starts.length - 1]! >= 0) {
        addKey(text, i + 1, end, keys);
        expectKey = false;
      }
      i = end;
    } else if (c === 123 || c === 91) {
      // { or [
      if (keys.starts.length >= maxDepth)
        throw new AnswerShapeError(`the answer is nested deeper than ${maxDepth} levels`);
      keys.starts.push(c === 123 ? keys.from.length : -1);
      keys.sets.push(undefined);
      expectKey = c === 123;
    } else if (c === 125 || c === 93) {
      // } or ]
      const start = keys.starts.pop()!;
      keys.sets.pop();
      if (start >= 0) keys.from.length = keys.to.length = start;
      expectKey = false;
    } else if (c === 44) {
      // ,
      expectKey = keys.starts.length > 0 && keys.starts[keys.starts.length - 1]! >= 0;
    }
  }
}

/** The keys of the open objects, as ranges of the text (inside the quotes), and where each object's begin. */
interface Keys {
  from: number[];
  to: number[];
  /** Per open container: the index of its first key in from/to, -1 for a list. */
  starts: number[];
  sets: (Set<string> | undefined)[];
}

function addKey(text: string, from: number, to: number, keys: Keys): void {
  const top = keys.starts.length - 1;
  const start = keys.starts[top]!;
  let set = keys.sets[top];
  if (!set && (keys.from.length - start >= SCAN_KEYS || hasEscape(text, from, to))) {
    set = keys.sets[top] = new Set();
    for (let k = start; k < keys.from.length; k++) set.add(keyText(text, keys.from[k]!, keys.to[k]!));
  }
  if (set) {
    const key = keyText(text, from, to);
    if (set.has(key)) throw twice(key);
    set.add(key);
  } else {
    // Unescaped keys only: equal as written is equal as read.
    for (let k = start; k < keys.from.length; k++)
      if (sameText(text, keys.from[k]!, keys.to[k]!, from, to)) throw twice(text.slice(from, to));
  }
  keys.from.push(from);
  keys.to.push(to);
}

function hasEscape(text: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (text.charCodeAt(k) === BACKSLASH) return true;
  return false;
}

const keyText = (text: string, from: number, to: number): string =>
  hasEscape(text, from, to) ? (JSON.parse(text.slice(from - 1, to + 1)) as string) : text.slice(from, to);

function sameText(text: string, aFrom: number, aTo: number, bFrom: number, bTo: number): boolean {
  if (aTo - aFrom !== bTo - bFrom) return false;
  for (let k = 0; k < aTo - aFrom; k++) if (text.charCodeAt(aFrom + k) !== text.charCodeAt(bFrom + k)) return false;
  return true;
}

const twice = (key: string) =>
  new AnswerShapeError(`the key ${JSON.stringify(key.slice(0, 40))} appears twice in one object`);
