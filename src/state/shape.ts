// The shape a state file must have, field by field: each file type declares one, and the one
// reader (state-file.ts) runs it on what it parsed. A value of the wrong type anywhere (a history
// entry with "new": 5) is damage, never half-trusted. The messages name the field by our own
// names and positions only (`entries[3].new is not a string`, `records[#2]`), never by a key or
// a value taken from the file: a file that is a link to a secret must not be quoted.

/** A shape check failed: `message` names the field, nothing of the file's content. */
export class ShapeError extends Error {}

/**
 * Checks `value` found at `at` (a path of our own words, '' for the whole file); returns it
 * typed, or throws ShapeError.
 */
export type Shape<T> = (value: unknown, at: string) => T;

const fail = (at: string, what: string): never => {
  throw new ShapeError(`${at || 'the file'} is not ${what}`);
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const text: Shape<string> = (value, at) => (typeof value === 'string' ? value : fail(at, 'a string'));

/** A finite number at least `min`. */
export const number =
  (min = -Infinity): Shape<number> =>
  (value, at) =>
    typeof value === 'number' && Number.isFinite(value) && value >= min
      ? value
      : fail(at, min === -Infinity ? 'a number' : `a number of at least ${min}`);

/** A whole number from `min` to `max`. */
export const whole =
  (min: number, max = Number.MAX_SAFE_INTEGER): Shape<number> =>
  (value, at) =>
    Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max
      ? (value as number)
      : fail(at, `a whole number from ${min} to ${max}`);

/** One of the given values (said as a list of our own words). */
export const oneOf =
  <V extends string | number>(...values: V[]): Shape<V> =>
  (value, at) =>
    values.includes(value as V) ? (value as V) : fail(at, `one of ${values.join(', ')}`);

/** A string matching `pattern` (described as `what`). */
export const matching =
  (pattern: RegExp, what: string): Shape<string> =>
  (value, at) =>
    typeof value === 'string' && pattern.test(value) ? value : fail(at, what);

/** A field that may be absent. */
interface Optional<T> {
  optional: Shape<T>;
}
export const optional = <T>(shape: Shape<T>): Optional<T> => ({ optional: shape });

type Fields = Record<string, Shape<unknown> | Optional<unknown>>;
type Required<F extends Fields> = {
  [K in keyof F as F[K] extends Shape<unknown> ? K : never]: F[K] extends Shape<infer T> ? T : never;
};
type Optionals<F extends Fields> = {
  [K in keyof F as F[K] extends Optional<unknown> ? K : never]?: F[K] extends Optional<infer T> ? T : never;
};
type ShapeOf<F extends Fields> = Required<F> & Optionals<F>;

/**
 * An object with these fields (each checked; an optional one when present). Fields it does not
 * name are left as they are: a newer version's additions are not damage.
 */
export const object =
  <F extends Fields>(fields: F): Shape<ShapeOf<F>> =>
  (value, at) => {
    if (!isObject(value)) return fail(at, 'an object');
    for (const [name, shape] of Object.entries(fields)) {
      const field = at ? `${at}.${name}` : name;
      if (typeof shape === 'function') shape(value[name], field);
      else if (value[name] !== undefined) shape.optional(value[name], field);
    }
    return value as ShapeOf<F>;
  };

/** A list of at most `max` items of `item`. */
export const list =
  <T>(item: Shape<T>, max = Infinity): Shape<T[]> =>
  (value, at) => {
    if (!Array.isArray(value)) return fail(at, 'a list');
    if (value.length > max) return fail(at, `a list of at most ${max} items`);
    value.forEach((v, i) => {
      item(v, `${at || 'the file'}[${i}]`);
    });
    return value as T[];
  };

/** A fixed list: one shape per position. */
export const tuple =
  <T extends unknown[]>(...items: { [K in keyof T]: Shape<T[K]> }): Shape<T> =>
  (value, at) => {
    if (!Array.isArray(value) || value.length !== items.length) return fail(at, `a list of ${items.length}`);
    items.forEach((item, i) => {
      item(value[i], `${at || 'the file'}[${i}]`);
    });
    return value as T;
  };

/** An object used as a table: each key passes `key` and each value `item` (named by position: `at[#3]`). */
export const table =
  <T>(item: Shape<T>, key?: Shape<string>): Shape<Record<string, T>> =>
  (value, at) => {
    if (!isObject(value)) return fail(at, 'an object');
    Object.entries(value).forEach(([k, v], i) => {
      const entry = `${at || 'the file'}[#${i + 1}]`;
      key?.(k, `the key of ${entry}`);
      item(v, entry);
    });
    return value as Record<string, T>;
  };

/** `shape`, then a rule between its fields that a per-field check cannot say. */
export const where =
  <T>(shape: Shape<T>, rule: (value: T) => boolean, what: string): Shape<T> =>
  (value, at) => {
    const checked = shape(value, at);
    return rule(checked) ? checked : fail(at, what);
  };
