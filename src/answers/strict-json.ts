// JSON as answers must be: no key given twice (`{"success":false,"success":true}` is not
// "last one wins", it is malformed) and no nesting deeper than any answer has. Checked by
// one flat pass over the text before JSON.parse, so nothing recurses on a hostile depth.
import { AnswerShapeError, MAX_ANSWER_DEPTH } from './answer-shape.js';

export function parseStrictJson(text: string, maxDepth = MAX_ANSWER_DEPTH): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AnswerShapeError('the answer is not JSON');
  }
  checkKeysAndDepth(text, maxDepth);
  return value;
}

/** Past this many keys in one object, its keys are looked up in a Set rather than scanned. */
const SCAN_KEYS = 16;
const QUOTE = 34;
const BACKSLASH = 92;

/**
 * `text` is valid JSON here: only strings and brackets matter. A listing of 1,000 entries is
 * 1,000 small objects: their keys go on one stack (a Set only for a large object), and a string
 * is skipped with indexOf, so the check costs about what JSON.parse does, not several times it.
 */
function checkKeysAndDepth(text: string, maxDepth: number): void {
  // Per open container: where its keys start on the key stack (-1 for an array), and its Set once it has many.
  const starts: number[] = [];
  const sets: (Set<string> | undefined)[] = [];
  const keys: string[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let end = text.indexOf('"', i + 1);
      let escaped = false;
      // A quote after an odd run of backslashes is inside the string.
      for (;;) {
        let back = end - 1;
        while (text.charCodeAt(back) === BACKSLASH) back--;
        if ((end - 1 - back) % 2 === 0) break;
        escaped = true;
        end = text.indexOf('"', end + 1);
      }
      if (expectKey && starts.length && starts[starts.length - 1]! >= 0) {
        for (let k = i + 1; !escaped && k < end; k++) escaped = text.charCodeAt(k) === BACKSLASH;
        const key = escaped ? (JSON.parse(text.slice(i, end + 1)) as string) : text.slice(i + 1, end);
        addKey(key, starts, sets, keys);
        expectKey = false;
      }
      i = end;
    } else if (c === 123 || c === 91) {
      // { or [
      if (starts.length >= maxDepth) throw new AnswerShapeError(`the answer is nested deeper than ${maxDepth} levels`);
      starts.push(c === 123 ? keys.length : -1);
      sets.push(undefined);
      expectKey = c === 123;
    } else if (c === 125 || c === 93) {
      // } or ]
      const start = starts.pop()!;
      sets.pop();
      if (start >= 0) keys.length = start;
      expectKey = false;
    } else if (c === 44) {
      // ,
      expectKey = starts.length > 0 && starts[starts.length - 1]! >= 0;
    }
  }
}

function addKey(key: string, starts: number[], sets: (Set<string> | undefined)[], keys: string[]): void {
  const top = starts.length - 1;
  const start = starts[top]!;
  let set = sets[top];
  if (!set && keys.length - start >= SCAN_KEYS) set = sets[top] = new Set(keys.slice(start));
  const twice = set ? set.has(key) : keys.indexOf(key, start) >= 0;
  if (twice) throw new AnswerShapeError(`the key ${JSON.stringify(key.slice(0, 40))} appears twice in one object`);
  keys.push(key);
  set?.add(key);
}
