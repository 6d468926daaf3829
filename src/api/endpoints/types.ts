import { int, type Params, type ParamSpec, type Rule } from '../params.js';
import { describedParams } from './param-notes.js';

/**
 * One API operation, declared once: the SDK's typed methods, client-side validation,
 * `ddedge api`, `ddedge api list` and the sandbox's routing all read it.
 */
export interface Endpoint<P extends Record<string, ParamSpec> = Record<string, ParamSpec>, R = unknown> {
  /** The API's own name, as in /<module>/<action>/. */
  action: string;
  describe: string;
  params: P;
  rules?: readonly Rule[];
  /** For list operations: the responseData key that holds the page's items. */
  listKey?: string;
  /** Safe to repeat (reads, and writes that set a value to a given value): retried on transport errors and 5xx. */
  idempotent?: boolean;
  /** Spends account balance. Never retried. */
  spends?: boolean;
  /** Contact roles the SDK accepts as objects (or contact IDs), flattened to <role>Contact<Field>. */
  contactRoles?: readonly string[];
  /** Turns SDK-level parameters (such as dnssetzone's records) into the API's, before validation. */
  prepare?: (params: Params) => Params;
  readonly __result?: R;
}

export type ResultOf<E> = E extends Endpoint<Record<string, ParamSpec>, infer R> ? R : never;

/** Declares an endpoint with its result type; parameters are inferred, literally, for the SDK's types. */
export const op =
  <R = Record<string, unknown>>() =>
  <const P extends Record<string, ParamSpec>>(endpoint: Omit<Endpoint<P, R>, '__result'>): Endpoint<P, R> => ({
    ...endpoint,
    params: describedParams(endpoint.params),
  });

export const paging = {
  pageLength: int('results per page (default 1000)', { min: 1 }),
  page: int('page number (default 1)', { min: 1 }),
};

export interface QueryInfo {
  page: number;
  pageLength: number;
  results: number;
  total: number;
}
