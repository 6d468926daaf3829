// The table is the SDK, the command and the sandbox: it must hold every operation of the
// spec, each callable with valid parameters.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API, findOperation, operations } from '../../../../src/api/endpoints/index.js';
import { sampleParams } from '../../../helpers/sample-params.js';

// The provider's spec, copied into docs/spec/ so the repository stands alone; when the
// workplace's shared/spec/ is beside the checkout, the copy must still match it.
const SPEC_DIR = new URL('../../../../docs/spec/', import.meta.url);
const SHARED_SPEC_DIR = new URL('../../../../../shared/spec/', import.meta.url);
function specOperations(): Set<string> {
  const found = new Set<string>();
  for (const file of ['api-core.md', 'api-hosting-ssl-dyndns.md']) {
    const text = readFileSync(new URL(file, SPEC_DIR), 'utf8');
    for (const m of text.matchAll(/`\/(tool|account|domain|contact|service|ssl)\/([a-z]+)\/?`/g))
      found.add(`${m[1]}/${m[2]}`);
  }
  return found;
}

describe('the endpoint table', () => {
  it('holds exactly the operations of the spec: 99, per module 6, 3, 26, 4, 47, 13', () => {
    const spec = specOperations();
    const table = new Set(operations().map((o) => `${o.module}/${o.endpoint.action}`));
    expect(
      [...spec].filter((op) => !table.has(op)),
      'in the spec, missing from the table',
    ).toEqual([]);
    expect(
      [...table].filter((op) => !spec.has(op)),
      'in the table, not in the spec',
    ).toEqual([]);
    expect(table.size).toBe(99);
    expect(Object.fromEntries(Object.entries(API).map(([m, ops]) => [m, Object.keys(ops).length]))).toEqual({
      tool: 6,
      account: 3,
      domain: 26,
      contact: 4,
      service: 47,
      ssl: 13,
    });
  });

  it.skipIf(!existsSync(SHARED_SPEC_DIR))('docs/spec/ is the same as shared/spec/', () => {
    for (const file of ['api-core.md', 'api-hosting-ssl-dyndns.md']) {
      expect(readFileSync(new URL(file, SPEC_DIR), 'utf8'), file).toBe(
        readFileSync(new URL(file, SHARED_SPEC_DIR), 'utf8'),
      );
    }
  });

  it('finds an operation by the API name and by the SDK method name', () => {
    expect(findOperation('domain', 'getinfo')?.method).toBe('getInfo');
    expect(findOperation('domain', 'getInfo')?.endpoint.action).toBe('getinfo');
    expect(findOperation('domain', 'nope')).toBeUndefined();
  });

  it.each(operations().map((o) => [`${o.module}/${o.endpoint.action}`, o] as const))(
    '%s can be given valid parameters',
    (name, o) => {
      expect(() => sampleParams(name, o.endpoint)).not.toThrow();
    },
  );

  it('never marks an operation that spends balance as safe to repeat', () => {
    const spending = operations().filter((o) => o.endpoint.spends);
    expect(spending.map((o) => `${o.module}/${o.endpoint.action}`).sort()).toEqual(
      [
        'domain/create',
        'domain/renew',
        'domain/transfer',
        'service/create',
        'service/renew',
        'service/upgrade',
        'ssl/create',
        'ssl/multidomainaddsan',
        'ssl/renew',
      ].sort(),
    );
    for (const o of operations()) {
      if (/^(create|renew|transfer|upgrade)$|create$/.test(o.endpoint.action))
        expect(o.endpoint.idempotent, `${o.module}/${o.endpoint.action}`).toBeFalsy();
    }
  });

  it('every list operation names the key of its items', () => {
    const lists = operations().filter((o) => 'pageLength' in o.endpoint.params);
    expect(lists.length).toBeGreaterThan(10);
    for (const o of lists) expect(o.endpoint.listKey, `${o.module}/${o.endpoint.action}`).toBeTruthy();
  });
});
