// The help texts of `ddedge api`: the whole API (modules), one module (its actions), one
// operation (its parameters). Read from the endpoint table, so they cannot drift.
import { API, operations, type Operation } from '../api/endpoints/index.js';
import { SETTINGS, type Setting } from '../config/settings.js';
import { API_CONNECTION } from './command-settings.js';

export const isHelp = (arg: string): boolean => arg === '--help' || arg === '-h';

export const moduleNames = (): string[] => Object.keys(API);

const VALUES = `Values: --name value or --name=value; the argument after a parameter is its value even when it
begins with "-" (PEM text, negative numbers, "-all"). --name @FILE reads the value from a file and
--name @- from standard input (one trailing line break removed; at most 1 MiB); @@text is the
literal "@text". Error messages name a parameter and its position, never its value.`;

export function describeApi(): string {
  const modules = moduleNames().map((m) => {
    const count = operations().filter((o) => o.module === m).length;
    return `  ${m.padEnd(10)} ${String(count).padStart(2)} operations   ddedge api ${m} --help`;
  });
  return (
    `ddedge api <module> <action> [--<param> <value> …] [--all] [--raw]\n` +
    `ddedge api list [--json]          every operation with its parameters\n` +
    `ddedge api <module> --help        the actions of a module\n` +
    `ddedge api <module> <action> --help   the parameters of one operation\n\n` +
    `Calls any registrar API operation by the API's own names and prints responseData as ` +
    `JSON.\n\nModules:\n${modules.join('\n')}\n\n` +
    `${VALUES}\n\n${connection()}`
  );
}

export function describeModule(module: string): string {
  const rows = operations()
    .filter((o) => o.module === module)
    .map((o) => `  ${o.endpoint.action.padEnd(26)} ${o.endpoint.describe}`);
  return (
    `ddedge api ${module} <action> [--<param> <value> …]\n\nActions:\n${rows.join('\n')}\n\nddedge api ` +
    `${module} <action> --help shows the parameters of one.\n`
  );
}

export function describeOperation({ module, method, endpoint }: Operation): string {
  const rows = Object.entries(endpoint.params).map(([name, spec]) => {
    const allowed = spec.values
      ? ` one of: ${spec.values.join(', ')}`
      : spec.format
        ? ` ${spec.format.describe}`
        : spec.min !== undefined
          ? ` at least ${spec.min}`
          : '';
    return (
      `  --${name.padEnd(26)} ${spec.required ? 'required' : 'optional'}  ${spec.type}${allowed}` +
      `${spec.describe ? `  (${spec.describe})` : ''}`
    );
  });
  const rules = (endpoint.rules ?? []).map((r) => `  - ${r.describe}`);
  const notes = [
    endpoint.listKey ? '  --all follows every page' : '',
    endpoint.spends
      ? '  spends account balance; never retried'
      : endpoint.idempotent
        ? '  safe to repeat: retried on network errors and 5xx'
        : '',
  ].filter(Boolean);
  return (
    `ddedge api ${module} ${endpoint.action} [--<param> <value> …]   (SDK: ` +
    `registrar.${module}.${method}())\n\n${endpoint.describe}\n\n` +
    `Parameters:\n${rows.join('\n') || '  (none)'}\n` +
    (rules.length ? `\nRules:\n${rules.join('\n')}\n` : '') +
    (notes.length ? `\n${notes.join('\n')}\n` : '') +
    `\n${VALUES}\n\n${connection()}`
  );
}

const OUTPUT =
  'Output: responseData as JSON (pretty on a terminal); --raw prints the whole envelope; ' +
  '--all follows every page of a list.\n';

/** The connection's rows of the settings table: their flags, then their variables ([_FILE] for a secret). */
const connection = (): string => {
  const rows = API_CONNECTION.map((name): Setting => SETTINGS[name]);
  const flags = rows.map((s) => `--${s.flag}`).join(', ');
  const variables = rows.map((s) => `${s.env}${s.credential ? '[_FILE]' : ''}`).join(', ');
  return `Connection: ${flags} (or ${variables}), --${SETTINGS.timeout.flag}\n` + OUTPUT;
};
