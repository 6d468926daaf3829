// Parameter declarations for the endpoint table, and the validation every call passes
// before anything is sent. The same declarations type the SDK's methods, drive
// `ddedge api --help`, and check the sandbox's requests.
import { ValidationError } from '../lib/errors.js';

type ParamType = 'string' | 'integer' | 'boolean' | 'enum';

export interface ParamSpec<T = unknown> {
  type: ParamType;
  required?: boolean;
  values?: readonly string[];
  default?: string | number | boolean;
  /** A pattern the value must match, with a description for messages. */
  format?: { pattern: RegExp; describe: string };
  min?: number;
  max?: number;
  describe?: string;
  /** Phantom: the TypeScript type of the value. */
  readonly __value?: T;
}

type ParamValue = string | number | boolean;
export type Params = Record<string, unknown>;

/** A rule between parameters ("one of domain or domainID", "required if …"). */
export interface Rule {
  describe: string;
  /** Returns the problem, or undefined when the params keep the rule. */
  check(params: Params): string | undefined;
}

export const str = (describe?: string, extra: Partial<ParamSpec<string>> = {}): ParamSpec<string> => ({
  type: 'string',
  describe,
  ...extra,
});
export const int = (describe?: string, extra: Partial<ParamSpec<number>> = {}): ParamSpec<number> => ({
  type: 'integer',
  describe,
  ...extra,
});
export const bool = (describe?: string, extra: Partial<ParamSpec<boolean>> = {}): ParamSpec<boolean> => ({
  type: 'boolean',
  describe,
  ...extra,
});
export const oneOf = <const V extends readonly string[]>(
  values: V,
  describe?: string,
  extra: Partial<ParamSpec<V[number]>> = {},
): ParamSpec<V[number]> => ({
  type: 'enum',
  values,
  describe,
  ...extra,
});
export const required = <S extends ParamSpec>(spec: S): S & { required: true } => ({ ...spec, required: true });

const pattern = (regex: RegExp, describe: string) => ({ format: { pattern: regex, describe } });
export const formats = {
  phone: pattern(/^\+\d{1,4}\.\d{4,14}$/, 'a phone number as +DD.DDDDDDDD'),
  country: pattern(/^[A-Z]{2}$/, 'a 2-letter country code (e.g. ES)'),
  date: pattern(/^(\d{8}|\d{4}-\d{2}-\d{2})$/, 'a date as YYYYMMDD or YYYY-MM-DD'),
  email: pattern(/^[^@\s]+@[^@\s]+\.[^@\s]+$/, 'an e-mail address'),
  domain: pattern(/^(?=.{1,253}$)([a-z0-9-]{1,63}\.)+[a-z0-9-]{2,63}$/i, 'a domain name'),
};

/** The TypeScript type a spec accepts. */
type ValueOf<S> = S extends ParamSpec<infer T> ? T : never;
type RequiredKeys<P> = { [K in keyof P]: P[K] extends { required: true } ? K : never }[keyof P];
type OptionalKeys<P> = Exclude<keyof P, RequiredKeys<P>>;
/** The params object of an endpoint: required specs required, the others optional. */
export type ParamsOf<P> = { [K in RequiredKeys<P>]: ValueOf<P[K]> } & { [K in OptionalKeys<P>]?: ValueOf<P[K]> };

const TRUE = new Set(['1', 'true', 'yes', 'on']);
const FALSE = new Set(['0', 'false', 'no', 'off']);

/**
 * Checks params against their specs and rules and returns them as the form fields the
 * provider expects (booleans as 1/0). Throws one ValidationError naming every problem.
 */
export function toFormFields(
  operation: string,
  specs: Record<string, ParamSpec>,
  params: Params,
  rules: readonly Rule[] = [],
): Record<string, string> {
  const problems: string[] = [];
  const fields: Record<string, string> = {};
  for (const name of Object.keys(params)) {
    // Own names only: "toString" or "constructor" are no parameters of any operation.
    if (!Object.hasOwn(specs, name) && params[name] !== undefined)
      problems.push(`unknown parameter "${name}"${nearest(name, Object.keys(specs))}`);
  }
  for (const [name, spec] of Object.entries(specs)) {
    const value = params[name];
    if (value === undefined || value === null || value === '') {
      if (spec.required) problems.push(`"${name}" is required`);
      continue;
    }
    if (typeof value === 'object') {
      problems.push(`"${name}" must be a ${spec.type === 'enum' ? 'string' : spec.type}, got an object`);
      continue;
    }
    const text = String(value);
    const problem = checkValue(name, spec, value as ParamValue, text);
    if (problem) problems.push(problem);
    else fields[name] = spec.type === 'boolean' ? (value === true || TRUE.has(text.toLowerCase()) ? '1' : '0') : text;
  }
  for (const rule of rules) {
    const problem = rule.check(params);
    if (problem) problems.push(problem);
  }
  if (problems.length) throw new ValidationError(operation, problems);
  return fields;
}

// Messages name the parameter and what it accepts, never the value given: a value may be
// key material (a private key pasted into the wrong parameter).
function checkValue(name: string, spec: ParamSpec, value: ParamValue, text: string): string | undefined {
  switch (spec.type) {
    case 'integer':
      if (!/^-?\d+$/.test(text)) return `"${name}" must be a whole number`;
      if (spec.min !== undefined && Number(text) < spec.min) return `"${name}" must be at least ${spec.min}`;
      if (spec.max !== undefined && Number(text) > spec.max) return `"${name}" must be at most ${spec.max}`;
      return undefined;
    case 'boolean':
      return typeof value === 'boolean' || TRUE.has(text.toLowerCase()) || FALSE.has(text.toLowerCase())
        ? undefined
        : `"${name}" must be a boolean (true/false, 1/0)`;
    case 'enum':
      return spec.values!.includes(text) ? undefined : `"${name}" must be one of ${spec.values!.join(', ')}`;
    case 'string':
      return spec.format && !spec.format.pattern.test(text) ? `"${name}" must be ${spec.format.describe}` : undefined;
  }
}

function nearest(name: string, names: string[]): string {
  const lower = name.toLowerCase();
  // The same name in another case is the one meant; else names a typo away (fitler: filter),
  // or that share its first four letters.
  const same = names.filter((n) => n.toLowerCase() === lower);
  const close = same.length
    ? same
    : names.filter((n) => typoDistance(n.toLowerCase(), lower) <= 2 || n.toLowerCase().startsWith(lower.slice(0, 4)));
  return close.length ? ` (did you mean ${close.slice(0, 3).join(', ')}?)` : '';
}

/** Edits between two names, a swap of neighbours counting as one (optimal string alignment). */
function typoDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

const given = (params: Params, name: string) =>
  params[name] !== undefined && params[name] !== null && params[name] !== '';

/** Exactly one of two parameters (most domain operations: `domain` or `domainID`). */
export const oneOfParams = (a: string, b: string): Rule => ({
  describe: `one of ${a} or ${b} is required`,
  check: (p) => (given(p, a) || given(p, b) ? undefined : `one of "${a}" or "${b}" is required`),
});

/** A parameter that becomes required when a condition on the others holds. */
export const requiredIf = (name: string, when: (p: Params) => boolean, describe: string): Rule => ({
  describe: `${name} is required ${describe}`,
  check: (p) => (when(p) && !given(p, name) ? `"${name}" is required ${describe}` : undefined),
});

/** A comma-separated list with a bounded number of items (nameservers: 2 to 7), or one of some keywords. */
export const listLength = (name: string, min: number, max: number, keywords: readonly string[] = []): Rule => ({
  describe:
    `${name}: ${keywords.length ? `${keywords.join(', ')}, or ` : ''}a comma-separated list of ${min} to ` + `${max}`,
  check: (p) => {
    if (!given(p, name)) return undefined;
    const text = String(p[name]);
    if (keywords.includes(text)) return undefined;
    const items = text
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (items.length >= min && items.length <= max) return undefined;
    return (
      `"${name}" must be ${keywords.length ? `${keywords.join(', ')}, or ` : ''}a comma-separated list of ` +
      `${min} to ${max} items, got ${items.length}`
    );
  },
});
