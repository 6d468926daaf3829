// Parameter declarations for the endpoint table, and the validation every call passes
// before anything is sent. The same declarations drive `ddedge api --help` and the sandbox.
import { ValidationError } from '../errors.js';

export type ParamType = 'string' | 'integer' | 'boolean' | 'enum';

export interface ParamSpec {
  type: ParamType;
  required?: boolean;
  values?: readonly string[];
  default?: string | number | boolean;
  /** A pattern the value must match, with a description for messages. */
  format?: { pattern: RegExp; describe: string };
  min?: number;
  describe?: string;
}

export type ParamValue = string | number | boolean;
export type Params = Record<string, ParamValue | undefined>;

export const str = (describe?: string, extra: Partial<ParamSpec> = {}): ParamSpec => ({ type: 'string', describe, ...extra });
export const int = (describe?: string, extra: Partial<ParamSpec> = {}): ParamSpec => ({ type: 'integer', describe, ...extra });
export const bool = (describe?: string, extra: Partial<ParamSpec> = {}): ParamSpec => ({ type: 'boolean', describe, ...extra });
export const oneOf = (values: readonly string[], describe?: string, extra: Partial<ParamSpec> = {}): ParamSpec => ({ type: 'enum', values, describe, ...extra });
export const required = (spec: ParamSpec): ParamSpec => ({ ...spec, required: true });

const TRUE = new Set(['1', 'true', 'yes', 'on']);
const FALSE = new Set(['0', 'false', 'no', 'off']);

/**
 * Checks params against their specs and returns them as the form fields the provider
 * expects (booleans as 1/0). Throws one ValidationError naming every problem.
 */
export function toFormFields(operation: string, specs: Record<string, ParamSpec>, params: Params): Record<string, string> {
  const problems: string[] = [];
  const fields: Record<string, string> = {};
  for (const name of Object.keys(params)) {
    if (!(name in specs) && params[name] !== undefined) problems.push(`unknown parameter "${name}" (accepted: ${Object.keys(specs).join(', ') || 'none'})`);
  }
  for (const [name, spec] of Object.entries(specs)) {
    const value = params[name];
    if (value === undefined || value === '') {
      if (spec.required) problems.push(`"${name}" is required`);
      continue;
    }
    const text = String(value);
    switch (spec.type) {
      case 'integer':
        if (!/^-?\d+$/.test(text)) problems.push(`"${name}" must be a whole number, got "${text}"`);
        else if (spec.min !== undefined && Number(text) < spec.min) problems.push(`"${name}" must be at least ${spec.min}, got ${text}`);
        else fields[name] = text;
        break;
      case 'boolean':
        if (typeof value === 'boolean' || TRUE.has(text.toLowerCase()) || FALSE.has(text.toLowerCase())) {
          fields[name] = value === true || TRUE.has(text.toLowerCase()) ? '1' : '0';
        } else problems.push(`"${name}" must be a boolean (true/false, 1/0), got "${text}"`);
        break;
      case 'enum':
        if (!spec.values!.includes(text)) problems.push(`"${name}" must be one of ${spec.values!.join(', ')}, got "${text}"`);
        else fields[name] = text;
        break;
      case 'string':
        if (spec.format && !spec.format.pattern.test(text)) problems.push(`"${name}" must be ${spec.format.describe}, got "${text}"`);
        else fields[name] = text;
        break;
    }
  }
  if (problems.length) throw new ValidationError(operation, problems);
  return fields;
}
