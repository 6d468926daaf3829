// The whole registrar API: six modules, 99 operations. Loaded only by the SDK, `ddedge api`
// and the sandbox; a cycle never parses it.
import { account } from './account.js';
import { contact } from './contact.js';
import { domain } from './domain.js';
import { service } from './service.js';
import { ssl } from './ssl.js';
import { tool } from './tool.js';
import type { Endpoint } from './types.js';

export const API = { tool, account, domain, contact, service, ssl };
export type Api = typeof API;
export type ModuleName = keyof Api;

export interface Operation {
  module: ModuleName;
  /** The SDK method name (camelCase). */
  method: string;
  endpoint: Endpoint;
}

/** Every operation, in table order. */
export function operations(): Operation[] {
  return (Object.keys(API) as ModuleName[]).flatMap((module) =>
    Object.entries(API[module] as Record<string, Endpoint>).map(([method, endpoint]) => ({ module, method, endpoint })),
  );
}

/** Finds an operation by the API's own action name (`getinfo`) or the SDK's method name (`getInfo`). */
export function findOperation(module: string, action: string): Operation | undefined {
  return operations().find(
    (o) => o.module === module && (o.endpoint.action === action.toLowerCase() || o.method === action),
  );
}
