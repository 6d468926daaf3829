// The arguments of `ddedge api <module> <action> …`: --name value, --name=value, a bare
// --flag for booleans, @FILE and @- (standard input) for values, as curl takes them.
// A value may begin with "-" (PEM text, negative numbers, TXT values like "-all"): the
// argument after a parameter is its value, whatever it looks like. Messages name a
// parameter and its position on the command line, never its value (it may be key material).
import { open } from 'node:fs/promises';
import type { ParamSpec } from '../api/params.js';
import { fileFlagOf, SETTINGS, type Setting } from '../config/settings.js';
import { ConfigError } from '../lib/errors.js';
import { API_COMMAND_SETTINGS } from './command-settings.js';
import { namesFlag } from './dash-values.js';
import { nearestNames } from '../lib/nearest-names.js';

/**
 * The flags of the settings `ddedge api` reads itself (its rows of the settings table, a secret's
 * file flag with its row), and the dotenv file; anything else after the action is an API parameter.
 */
export const CONNECTION_FLAGS: ReadonlySet<string> = new Set([
  ...API_COMMAND_SETTINGS.flatMap((name) => {
    const setting: Setting = SETTINGS[name];
    return [setting.flag, fileFlagOf(setting) ?? []].flat();
  }),
  'env-file',
  'dotenv',
]);
/** `ddedge api`'s own switches. */
export const OWN_FLAGS = new Set(['all', 'raw', 'json', 'help']);

/** A value read from a file or standard input is capped: it is a key, a CSR, a text, not a dump. */
export const MAX_VALUE_FILE_BYTES = 1024 * 1024;

const BOOLEAN_WORDS = /^(1|0|true|false|yes|no|on|off)$/i;
/** What a parameter name can look like; anything else was a value given without its flag. */
const NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

export interface ApiArguments {
  connection: Record<string, string>;
  params: Record<string, string>;
  own: Set<string>;
  /** Where each parameter was given, as the 1-based position after `ddedge`, for messages. */
  positions: Map<string, number>;
}

export interface ArgumentSources {
  readFile(path: string): Promise<string>;
  readStdin(): Promise<string>;
}

/**
 * `args` are the arguments after the action; `offset` is how many came before them after
 * `ddedge` (3 for `api <module> <action>`), so positions match what the user typed.
 */
export async function parseApiArguments(args: string[], specs: Record<string, ParamSpec>, offset: number, sources: ArgumentSources = fileSources): Promise<ApiArguments> {
  const entries: [string, string, number][] = [];
  const connection: Record<string, string> = {};
  const own = new Set<string>();
  const positions = new Map<string, number>();
  let stdinTaken: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const position = offset + i + 1;
    if (arg === '-h') {
      own.add('help');
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') ? (eq > 0 ? arg.slice(2, eq) : arg.slice(2)) : '';
    if (!NAME.test(name)) {
      throw new ConfigError(`api: argument ${position} is not a parameter name; give parameters as --name value (the value follows its name; see ddedge api <module> <action> --help)`);
    }
    if (!Object.hasOwn(specs, name) && !OWN_FLAGS.has(name) && !CONNECTION_FLAGS.has(name)) {
      // Not a parameter of this operation: a mistyped switch or connection flag says so here
      // (unknown parameters are refused by validation, with the nearest parameter names).
      const near = nearestNames(name, [...OWN_FLAGS, ...CONNECTION_FLAGS]);
      if (near.length) throw new ConfigError(`api: --${name} (argument ${position}) is not a parameter of this operation; did you mean ${near.map((n) => `--${n}`).join(' or ')}?`);
    }
    const inline = eq > 0 ? arg.slice(eq + 1) : undefined;
    const isSwitch = OWN_FLAGS.has(name) || (Object.hasOwn(specs, name) && specs[name]!.type === 'boolean');
    let value: string;
    if (inline !== undefined) value = inline;
    else if (isSwitch) {
      const next = args[i + 1];
      value = next !== undefined && BOOLEAN_WORDS.test(next) ? (i++, next) : 'true';
    } else {
      // A value may look like anything, except the name of a flag this command knows: then
      // the value was forgotten (`--api-password --api-user u` must not send "--api-user").
      if (i + 1 >= args.length || namesFlag(args[i + 1]!, (n) => CONNECTION_FLAGS.has(n) || OWN_FLAGS.has(n) || Object.hasOwn(specs, n))) throw new ConfigError(`api: --${name} (argument ${position}) needs a value`);
      value = args[++i]!;
    }
    if (OWN_FLAGS.has(name)) {
      if (!BOOLEAN_WORDS.test(value)) throw new ConfigError(`api: --${name} (argument ${position}) is a switch: give it alone, or =true / =false`);
      if (/^(1|true|yes|on)$/i.test(value)) own.add(name);
      continue;
    }
    if (CONNECTION_FLAGS.has(name)) {
      connection[name] = value;
      continue;
    }
    if (positions.has(name)) throw new ConfigError(`api: --${name} is given twice (arguments ${positions.get(name)} and ${position})`);
    positions.set(name, position);
    if (value.startsWith('@@')) value = value.slice(1);
    else if (value === '@-') {
      if (stdinTaken) throw new ConfigError(`api: --${name} (argument ${position}) and --${stdinTaken} both read standard input (@-); only one can`);
      stdinTaken = name;
      value = capped(name, position, 'standard input', await sources.readStdin());
    } else if (value.startsWith('@') && value.length > 1) {
      const path = value.slice(1);
      let text: string;
      try {
        text = await sources.readFile(path);
      } catch (error) {
        throw new ConfigError(`api: --${name} (argument ${position}): cannot read the file "${path}": ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`);
      }
      value = capped(name, position, `the file "${path}"`, text);
    }
    entries.push([name, value, position]);
  }
  // fromEntries makes own properties even of names such as __proto__, so validation sees them.
  return { connection, params: Object.fromEntries(entries.map(([n, v]) => [n, v])), own, positions };
}

/** A file's text as the value: one trailing line break removed, as `$(cat file)` would. */
function capped(name: string, position: number, where: string, text: string): string {
  if (Buffer.byteLength(text) > MAX_VALUE_FILE_BYTES) throw new ConfigError(`api: --${name} (argument ${position}): ${where} is larger than ${MAX_VALUE_FILE_BYTES / 1024 / 1024} MiB`);
  return text.replace(/\r?\n$/, '');
}

const fileSources: ArgumentSources = {
  readFile: async (path) => {
    const handle = await open(path, 'r');
    try {
      return await readStream(handle.createReadStream({ autoClose: false }));
    } finally {
      await handle.close();
    }
  },
  readStdin: () => readStream(process.stdin),
};

/** Reads a stream to its end, stopping (and failing later) just past the cap. */
async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    chunks.push(buffer);
    size += buffer.length;
    if (size > MAX_VALUE_FILE_BYTES) break;
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Adds the position after the first parameter a validation problem names: `"Phone" (argument 4) must be …`. */
export function withPositions(problem: string, positions: Map<string, number>): string {
  let done = false;
  return problem.replace(/"([^"]+)"/g, (quoted, name: string) => {
    const position = positions.get(name);
    if (done || position === undefined) return quoted;
    done = true;
    return `${quoted} (argument ${position})`;
  });
}
