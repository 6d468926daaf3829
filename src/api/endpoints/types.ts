import type { ParamSpec } from '../params.js';

/** One API operation, declared once: the SDK, `ddedge api` and the sandbox all read it. */
export interface Endpoint {
  describe: string;
  params: Record<string, ParamSpec>;
  /** For list operations: the responseData key that holds the page's items. */
  listKey?: string;
  /** Safe to repeat: reads, and writes that set a value to a given value. */
  idempotent?: boolean;
}

export type Module = Record<string, Endpoint>;

export const paging = {
  pageLength: { type: 'integer', min: 1, describe: 'results per page (default 1000)' },
  page: { type: 'integer', min: 1, describe: 'page number (default 1)' },
} as const satisfies Record<string, ParamSpec>;
