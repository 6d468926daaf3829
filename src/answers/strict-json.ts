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

/** `text` is valid JSON here: only strings and brackets matter. */
function checkKeysAndDepth(text: string, maxDepth: number): void {
  // One entry per open container: the keys seen in an object, null for an array.
  const open: (Set<string> | null)[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const keys = open.at(-1);
      if (keys && expectKey) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (keys.has(key)) throw new AnswerShapeError(`the key ${JSON.stringify(key.slice(0, 40))} appears twice in one object`);
        keys.add(key);
        expectKey = false;
      }
      i = end;
    } else if (c === '{' || c === '[') {
      if (open.length >= maxDepth) throw new AnswerShapeError(`the answer is nested deeper than ${maxDepth} levels`);
      open.push(c === '{' ? new Set() : null);
      expectKey = c === '{';
    } else if (c === '}' || c === ']') {
      open.pop();
      expectKey = false;
    } else if (c === ',') {
      expectKey = open.at(-1) instanceof Set;
    }
  }
}
