// Valid parameters for any operation, derived from its declaration: required parameters get
// a sample of their type and format, then whatever the rules still ask for is filled in.
import type { Endpoint } from '../../src/api/endpoints/types.js';
import { toFormFields, type Params, type ParamSpec } from '../../src/api/params.js';
import { ValidationError } from '../../src/lib/errors.js';

function sampleValue(name: string, spec: ParamSpec): string {
  if (spec.values) return spec.values[0]!;
  if (spec.type === 'integer') return String(Math.max(spec.min ?? 1, 1));
  if (spec.type === 'boolean') return 'true';
  const describe = spec.format?.describe ?? '';
  if (describe.includes('phone')) return '+34.912345678';
  if (describe.includes('country')) return 'ES';
  if (describe.includes('date')) return '2027-01-31';
  if (describe.includes('e-mail')) return 'admin@example.com';
  if (describe.includes('domain')) return 'example.com';
  if (describe.includes('http, https, dns')) return 'dns';
  if (/nameservers/i.test(name)) return 'ns1.example.net,ns2.example.net';
  return `sample-${name}`;
}

export function sampleParams(operation: string, endpoint: Endpoint): Params {
  const params: Params = {};
  for (const [name, spec] of Object.entries(endpoint.params)) if (spec.required) params[name] = sampleValue(name, spec);
  for (let round = 0; round < 10; round++) {
    try {
      toFormFields(operation, endpoint.params, params, endpoint.rules);
      return params;
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      const missing = error.problems
        .flatMap((p) => [...p.matchAll(/"(\w+)"/g)].map((m) => m[1]!))
        .filter((n) => n in endpoint.params && params[n] === undefined);
      if (!missing.length) throw error;
      // "one of A or B": the first is enough.
      const oneOf = error.problems.find((p) => p.startsWith('one of'));
      const fill = oneOf ? [missing[0]!] : missing;
      for (const name of fill) params[name] = sampleValue(name, endpoint.params[name]!);
    }
  }
  throw new Error(`could not build valid params for ${operation}`);
}
