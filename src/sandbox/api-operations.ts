// The registrar API operations the sandbox serves, each a function of the model and the
// request's fields. Parameters are checked against the same endpoint table the client uses.
import { findOperation } from '../api/endpoints/index.js';
import type { DnsEntry } from '../api/endpoints/service.js';
import { toFormFields } from '../api/params.js';
import { ValidationError } from '../errors.js';
import { familyOfAddress } from '../ip/address.js';
import { findService, type SandboxModel } from './model.js';

export class SandboxApiError extends Error {
  constructor(
    readonly code: number,
    readonly codeMessage: string,
    readonly messages: string[] = [],
  ) {
    super(codeMessage);
  }
}

export interface OperationRequest {
  fields: Record<string, string>;
  model: SandboxModel;
  callerAddress: string;
}

interface Operation {
  /** Changes the model: the sandbox saves it afterwards. */
  writes?: boolean;
  handle(request: OperationRequest): unknown;
}

const DEFAULT_PAGE_LENGTH = 1000;

function page<T>(items: T[], fields: Record<string, string>) {
  const pageLength = Number(fields.pageLength ?? DEFAULT_PAGE_LENGTH);
  const pageNumber = Number(fields.page ?? 1);
  const slice = items.slice((pageNumber - 1) * pageLength, pageNumber * pageLength);
  return { slice, queryInfo: { page: pageNumber, pageLength, results: slice.length, total: items.length } };
}

function serviceOf(request: OperationRequest) {
  const found = findService(request.model, request.fields.serviceName);
  if (!found) throw new SandboxApiError(4001, 'Service not found', [`service ${request.fields.serviceName} not found`]);
  return found;
}

function entityOf(request: OperationRequest): { entry: DnsEntry; list: DnsEntry[] } {
  const list = serviceOf(request).dns;
  const entry = list.find((e) => e.entityID === request.fields.entityID);
  if (!entry) throw new SandboxApiError(4002, 'Service entity not found', [`entity ${request.fields.entityID} not found`]);
  return { entry, list };
}

function checkValue(type: string, value: string): void {
  if ((type === 'A' && familyOfAddress(value) !== 4) || (type === 'AAAA' && familyOfAddress(value) !== 6)) {
    throw new SandboxApiError(105, 'Syntax error: invalid parameter', [`value "${value}" is not valid for a ${type} entry`]);
  }
}

export const OPERATIONS: Record<string, Operation> = {
  'tool/hello': {
    handle: ({ callerAddress }) => ({ ip: callerAddress, lang: 'en', version: SANDBOX_API_VERSION }),
  },
  'service/list': {
    handle: (request) => {
      const { fields, model } = request;
      const matching = model.services.filter((s) => (!fields.name || s.name === fields.name) && (!fields.word || s.name.includes(fields.word)) && (!fields.status || s.status === fields.status));
      const { slice, queryInfo } = page(matching, fields);
      return { queryInfo, services: slice.map(({ name, status, type, productkey, tsExpir }) => ({ name, status, type, productkey, tsExpir })) };
    },
  },
  'service/dnslist': {
    handle: (request) => {
      const { fields } = request;
      const entries = serviceOf(request).dns.filter(
        (e) => (!fields.filter || e.name.includes(fields.filter)) && (!fields.filterType || e.type === fields.filterType) && (!fields.filterValue || e.value.includes(fields.filterValue)),
      );
      const { slice, queryInfo } = page(entries, fields);
      return { queryInfo, dns: slice };
    },
  },
  'service/dnscreate': {
    writes: true,
    handle: (request) => {
      const { fields, model } = request;
      const zone = serviceOf(request);
      checkValue(fields.type!, fields.value!);
      const name = fields.name!.toLowerCase();
      const full = name === zone.name || name.endsWith(`.${zone.name}`) ? name : `${name}.${zone.name}`;
      const priority = fields.priority ?? (fields.type === 'MX' || fields.type === 'SRV' ? '10' : '-');
      const entry: DnsEntry = { entityID: String(model.nextEntityId++), name: full, type: fields.type!, ttl: fields.ttl ?? '-', priority, value: fields.value! };
      zone.dns.push(entry);
      return { dns: [entry] };
    },
  },
  'service/dnsupdate': {
    writes: true,
    handle: (request) => {
      const { entry } = entityOf(request);
      checkValue(entry.type, request.fields.value!);
      entry.value = request.fields.value!;
      if (request.fields.ttl) entry.ttl = request.fields.ttl;
      if (request.fields.priority) entry.priority = request.fields.priority;
      return { dns: [entry] };
    },
  },
};

export const SANDBOX_API_VERSION = '1.0.26';

/**
 * Validates the fields against the same endpoint table the SDK uses, then runs the
 * operation. Operations of the table that the sandbox does not emulate yet answer 104.
 */
export function runOperation(name: string, request: OperationRequest): { data: unknown; writes: boolean } {
  const [module = '', action = ''] = name.split('/');
  const declared = findOperation(module, action);
  if (!declared || declared.endpoint.action !== action) throw new SandboxApiError(102, 'Object action invalid', ['invalid object/action']);
  const operation = OPERATIONS[name];
  if (!operation) throw new SandboxApiError(104, 'Object action not implemented', [`the sandbox does not emulate ${name} yet`]);
  const { apiuser: _u, apipasswd: _p, 'output-format': _f, 'output-pretty': _pr, ...params } = request.fields;
  try {
    toFormFields(name, declared.endpoint.params, params, declared.endpoint.rules);
  } catch (error) {
    if (error instanceof ValidationError) throw new SandboxApiError(101, 'Syntax error: parameter fault', error.problems);
    throw error;
  }
  return { data: operation.handle(request), writes: Boolean(operation.writes) };
}
