// The small vocabulary every answer reader is written in. A reader takes what a provider
// decoded (JSON or XML) and returns typed values, or throws AnswerShapeError naming the
// path that is wrong. Nothing past a reader ever calls String() on a provider's object or
// reads a list that may be something else: an object where text belongs (`{"toString":1}`)
// is malformed, never a stack trace, and a missing list is malformed, never empty.

export class AnswerShapeError extends Error {}

/** Deeper nesting than any documented answer has: refused before anything recurses on it. */
export const MAX_ANSWER_DEPTH = 64;

export type Fields = Record<string, unknown>;

export const isFields = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Scalars read as text: XML gives everything as text, JSON answers give numbers for ids. */
export function readText(value: unknown, path: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return String(value);
  throw new AnswerShapeError(`${path} is ${describe(value)}, not text`);
}

export function readOptionalText(value: unknown, path: string): string | undefined {
  return value === undefined || value === null ? undefined : readText(value, path);
}

export function readFields(value: unknown, path: string): Fields {
  if (!isFields(value)) throw new AnswerShapeError(`${path} is ${describe(value)}, not an object`);
  return value;
}

/**
 * A list. In XML answers an empty list is an empty element, read as ''; `xml` accepts that
 * (and only that) as the empty list.
 */
export function readList(value: unknown, path: string, xml = false): unknown[] {
  if (Array.isArray(value)) return value;
  if (xml && value === '') return [];
  throw new AnswerShapeError(`${path} is ${describe(value)}, not a list`);
}

/** Messages: a list of texts, one text, or absent. */
export function readTextList(value: unknown, path: string): string[] {
  if (value === undefined || value === null || value === '') return [];
  if (Array.isArray(value)) return value.map((v, i) => readText(v, `${path}[${i}]`));
  return [readText(value, path)];
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'missing';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
