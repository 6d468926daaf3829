// ddedge api <module> <action> [--<param> <value> …]: any operation of the table, by the
// API's own names. ddedge api list: every operation. ddedge api <m> <a> --help: its
// parameters. Values are validated before anything is sent (exit 2).
import { ApiClient } from '../../api/client.js';
import { findOperation, operations, type Operation } from '../../api/endpoints/index.js';
import type { Params } from '../../api/params.js';
import { ConfigError } from '../../errors.js';
import { SETTINGS } from '../../config/settings.js';
import { nearestNames, type CommandContext } from '../registry.js';
import { printJson, setup } from '../setup.js';

/** The settings `ddedge api` reads; anything else after the action is an API parameter. */
const CONNECTION_FLAGS = new Set(['api-url', 'api-user', 'api-password', 'timeout', 'log-level', 'log-format', 'env-file']);
const OWN_FLAGS = new Set(['all', 'raw', 'json', 'help']);

export async function run(context: CommandContext): Promise<number> {
  const [module, action, ...rest] = context.positionals;
  if (!module || module === 'list') return listOperations(context);
  if (!action) throw new ConfigError(`api: give an action: ddedge api ${module} <action> (see ddedge api list)`);
  const operation = findOperation(module, action);
  if (!operation) {
    const all = operations().map((o) => `${o.module} ${o.endpoint.action}`);
    const near = nearestNames(`${module} ${action}`, all).concat(all.filter((n) => n.endsWith(` ${action.toLowerCase()}`)));
    throw new ConfigError(`api: unknown operation "${module} ${action}"${near.length ? `; did you mean ${[...new Set(near)].slice(0, 4).join(', ')}?` : ''} (see ddedge api list)`);
  }
  const { connection, params, own } = splitArguments(rest);
  if (own.has('help')) {
    context.io.stdout(describeOperation(operation));
    return 0;
  }
  const { config, logger } = await setup({ ...context, flags: connection }, 'state');
  if (!config.api.user || !config.api.password) {
    throw new ConfigError('api: set DDEDGE_API_USER and DDEDGE_API_PASSWORD (or --api-user, DDEDGE_API_PASSWORD_FILE, the api-password credential)');
  }
  const client = new ApiClient({ url: config.api.url, user: config.api.user, password: config.api.password, timeoutMs: config.timeoutMs, logger });
  try {
    const { endpoint } = operation;
    if (own.has('all')) {
      if (!endpoint.listKey) throw new ConfigError(`api: --all is for list operations; ${operation.module} ${endpoint.action} is not one`);
      const items: unknown[] = [];
      for await (const page of client.pages(operation.module, endpoint, params)) {
        items.push(...page.items);
        if (context.io.isTTY) context.io.stderr(`\rpage ${page.queryInfo.page}: ${items.length} of ${page.queryInfo.total}`);
      }
      if (context.io.isTTY) context.io.stderr('\n');
      printJson(context, { [endpoint.listKey]: items, queryInfo: { page: 1, pageLength: items.length, results: items.length, total: items.length } });
    } else if (own.has('raw')) {
      printJson(context, await client.callRaw(operation.module, endpoint, params));
    } else {
      printJson(context, await client.call(operation.module, endpoint, params));
    }
    return 0;
  } finally {
    await client.close();
  }
}

/** --name value, --name=value, and a bare --flag (true) for booleans. */
function splitArguments(args: string[]): { connection: Record<string, string | true>; params: Params; own: Set<string> } {
  const connection: Record<string, string | true> = {};
  const params: Params = {};
  const own = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-h') {
      own.add('help');
      continue;
    }
    if (!arg.startsWith('--')) throw new ConfigError(`api: unexpected "${arg}"; parameters are given as --name value`);
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
    let value: string | undefined = eq > 0 ? arg.slice(eq + 1) : undefined;
    if (OWN_FLAGS.has(name) && value === undefined) {
      own.add(name);
      continue;
    }
    let bare = false;
    if (value === undefined) {
      const next = args[i + 1];
      bare = next === undefined || next.startsWith('--');
      value = bare ? 'true' : (i++, next);
    }
    // A bare connection flag stays bare: the configuration refuses a setting without its value.
    if (CONNECTION_FLAGS.has(name)) connection[name] = bare ? true : value!;
    else params[name] = value;
  }
  return { connection, params, own };
}

function listOperations(context: CommandContext): number {
  const all = operations();
  if (context.positionals.includes('--json')) {
    printJson(context, all.map((o) => ({ module: o.module, action: o.endpoint.action, method: o.method, describe: o.endpoint.describe, params: Object.keys(o.endpoint.params) })));
    return 0;
  }
  let text = '';
  for (const o of all) {
    const params = Object.entries(o.endpoint.params)
      .filter(([name]) => !/^(alt_(name|validation)_\d+|jobs\w+)$/.test(name) || /_1$/.test(name))
      .map(([name, spec]) => (spec.required ? name : `[${name}]`));
    text += `${`${o.module} ${o.endpoint.action}`.padEnd(32)} ${o.endpoint.describe}\n${' '.repeat(33)}${params.join(' ') || '(no parameters)'}\n`;
  }
  context.io.stdout(`${all.length} operations (ddedge api <module> <action> --help for one):\n\n${text}`);
  return 0;
}

function describeOperation({ module, method, endpoint }: Operation): string {
  const rows = Object.entries(endpoint.params).map(([name, spec]) => {
    const allowed = spec.values ? ` one of: ${spec.values.join(', ')}` : spec.format ? ` ${spec.format.describe}` : spec.min !== undefined ? ` at least ${spec.min}` : '';
    return `  --${name.padEnd(26)} ${spec.required ? 'required' : 'optional'}  ${spec.type}${allowed}${spec.describe ? `  (${spec.describe})` : ''}`;
  });
  const rules = (endpoint.rules ?? []).map((r) => `  - ${r.describe}`);
  const notes = [
    endpoint.listKey ? '  --all follows every page' : '',
    endpoint.spends ? '  spends account balance; never retried' : endpoint.idempotent ? '  safe to repeat: retried on network errors and 5xx' : '',
  ].filter(Boolean);
  return (
    `ddedge api ${module} ${endpoint.action} [--<param> <value> …]   (SDK: registrar.${module}.${method}())\n\n${endpoint.describe}\n\n` +
    `Parameters:\n${rows.join('\n') || '  (none)'}\n` +
    (rules.length ? `\nRules:\n${rules.join('\n')}\n` : '') +
    (notes.length ? `\n${notes.join('\n')}\n` : '') +
    `\nConnection: --api-url, --api-user, --api-password (or ${SETTINGS.apiUrl.env}, ${SETTINGS.apiUser.env}, ${SETTINGS.apiPassword.env}[_FILE]), --timeout\n` +
    `Output: responseData as JSON (pretty on a terminal); --raw prints the whole envelope.\n`
  );
}
