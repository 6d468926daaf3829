// Routes /<module>/<action>/ to the emulated operation, after checking the fields against
// the same endpoint table the SDK uses, so the two cannot drift.
import { findOperation } from '../api/endpoints/index.js';
import { toFormFields } from '../api/params.js';
import { ValidationError } from '../lib/errors.js';
import { accountOps } from './ops/account.js';
import { SandboxApiError, type OperationRequest, type Operations } from './ops/common.js';
import { contactOps } from './ops/contact.js';
import { domainOps } from './ops/domain.js';
import { serviceOps } from './ops/service.js';
import { sslOps } from './ops/ssl.js';
import { toolOps } from './ops/tool.js';

export { SandboxApiError, type OperationRequest };
export { SANDBOX_API_VERSION } from './version.js';

export const OPERATIONS: Record<string, Operations> = {
  tool: toolOps,
  account: accountOps,
  domain: domainOps,
  contact: contactOps,
  service: serviceOps,
  ssl: sslOps,
};

export function runOperation(name: string, request: OperationRequest): { data: unknown; writes: boolean } {
  const [module = '', action = ''] = name.split('/');
  const declared = findOperation(module, action);
  if (!declared || declared.endpoint.action !== action)
    throw new SandboxApiError(102, 'Object action invalid', ['invalid object/action']);
  const operation = OPERATIONS[module]?.[action];
  if (!operation)
    throw new SandboxApiError(104, 'Object action not implemented', [`the sandbox does not emulate ${name}`]);
  const { apiuser: _u, apipasswd: _p, 'output-format': _f, 'output-pretty': _pr, ...params } = request.fields;
  try {
    toFormFields(name, declared.endpoint.params, params, declared.endpoint.rules);
  } catch (error) {
    if (error instanceof ValidationError)
      throw new SandboxApiError(101, 'Syntax error: parameter fault', error.problems);
    throw error;
  }
  return { data: operation.handle(request), writes: Boolean(operation.writes) };
}
