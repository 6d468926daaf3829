// ddedge api <module> <action> [--<param> <value> …]: any operation of the table, by the
// API's own names. ddedge api list: every operation. ddedge api <m> <a> --help: its
// parameters. Values are validated before anything is sent (exit 2).
import type { ApiClient } from '../../api/client.js';
import { findOperation, operations, type Operation } from '../../api/endpoints/index.js';
import type { Params } from '../../api/params.js';
import { apiClientFrom } from '../../config/api-client.js';
import { requireApiCredentials } from '../../config/api-credentials.js';
import { ConfigError, ValidationError } from '../../lib/errors.js';
import type { CommandContext } from '../command.js';
import { nearestNames } from '../../lib/nearest-names.js';
import { printJson, setup } from '../setup.js';
import { parseApiArguments, withPositions } from '../api-arguments.js';
import { describeApi, describeModule, describeOperation, isHelp, moduleNames } from '../api-help.js';

export async function run(context: CommandContext): Promise<number> {
  const [module, action, ...rest] = context.positionals;
  if (!module || module === 'list') return listOperations(context);
  if (isHelp(module)) return print(context, describeApi());
  if (!moduleNames().includes(module)) {
    const near = nearestNames(module, moduleNames());
    throw new ConfigError(
      `api: ${looksLikeName(module) ? `"${module}"` : 'argument 2'} is not a module ` +
        `(${moduleNames().join(', ')})${near.length ? `; did you mean ${near.join(' or ')}?` : ''}`,
    );
  }
  if (!action)
    throw new ConfigError(
      `api: give an action: ddedge api ${module} <action> (ddedge api ${module} --help lists them)`,
    );
  if (isHelp(action)) return print(context, describeModule(module));
  const operation = findOperation(module, action);
  if (!operation) {
    const all = operations().map((o) => `${o.module} ${o.endpoint.action}`);
    const near = nearestNames(`${module} ${action}`, all).concat(
      all.filter((n) => n.endsWith(` ${action.toLowerCase()}`)),
    );
    if (!looksLikeName(action))
      throw new ConfigError(`api: argument 3 is not an action of ${module} (ddedge api ${module} --help lists them)`);
    throw new ConfigError(
      `api: unknown operation "${module} ` +
        `${action}"${near.length ? `; did you mean ${[...new Set(near)].slice(0, 4).join(', ')}?` : ''} (ddedge api ` +
        `${module} --help lists them)`,
    );
  }
  const { connection, params, own, positions } = await parseApiArguments(rest, operation.endpoint.params, 3);
  if (own.has('help')) return print(context, describeOperation(operation));
  const { config, logger } = await setup({ ...context, flags: connection }, 'state');
  requireApiCredentials(config, 'api');
  const client = apiClientFrom(config, logger);
  try {
    return await callOperation(context, client, operation, params, own);
  } catch (error) {
    // Validation runs before anything is sent; its problems name parameters, never values.
    if (error instanceof ValidationError)
      throw new ValidationError(
        error.operation,
        error.problems.map((p) => withPositions(p, positions)),
      );
    throw error;
  } finally {
    await client.close();
  }
}

async function callOperation(
  context: CommandContext,
  client: ApiClient,
  operation: Operation,
  params: Params,
  own: Set<string>,
): Promise<number> {
  const { endpoint } = operation;
  if (own.has('all')) {
    if (!endpoint.listKey)
      throw new ConfigError(`api: --all is for list operations; ${operation.module} ${endpoint.action} is not one`);
    const items: unknown[] = [];
    for await (const page of client.pages(operation.module, endpoint, params)) {
      items.push(...page.items);
      if (context.io.isTTY)
        context.io.stderr(`\rpage ${page.queryInfo.page}: ${items.length} of ${page.queryInfo.total}`);
    }
    if (context.io.isTTY) context.io.stderr('\n');
    printJson(context, {
      [endpoint.listKey]: items,
      queryInfo: { page: 1, pageLength: items.length, results: items.length, total: items.length },
    });
  } else if (own.has('raw')) {
    printJson(context, await client.callRaw(operation.module, endpoint, params));
  } else {
    printJson(context, await client.call(operation.module, endpoint, params));
  }
  return 0;
}

function listOperations(context: CommandContext): number {
  const all = operations();
  if (context.positionals.includes('--json')) {
    printJson(
      context,
      all.map((o) => ({
        module: o.module,
        action: o.endpoint.action,
        method: o.method,
        describe: o.endpoint.describe,
        params: Object.keys(o.endpoint.params),
      })),
    );
    return 0;
  }
  let text = '';
  for (const o of all) {
    const params = Object.entries(o.endpoint.params)
      .filter(([name]) => !/^(alt_(name|validation)_\d+|jobs\w+)$/.test(name) || /_1$/.test(name))
      .map(([name, spec]) => (spec.required ? name : `[${name}]`));
    text +=
      `${`${o.module} ${o.endpoint.action}`.padEnd(32)} ` +
      `${o.endpoint.describe}\n${' '.repeat(33)}${params.join(' ') || '(no parameters)'}\n`;
  }
  context.io.stdout(`${all.length} operations (ddedge api <module> <action> --help for one):\n\n${text}`);
  return 0;
}

function print(context: CommandContext, text: string): number {
  context.io.stdout(text);
  return 0;
}

/** Whether a module or action as typed may be repeated: anything else may be a value put in its place. */
const looksLikeName = (text: string): boolean => /^[A-Za-z][A-Za-z0-9_-]{0,39}$/.test(text);
