// The arguments of `ddedge api <module> <action> …`: --name value, --name=value, a bare
// --flag for booleans, @FILE and @- (standard input) for values, as curl takes them.
// A value may begin with "-" (PEM text, negative numbers, TXT values like "-all"): the
// argument after a parameter is its value, whatever it looks like. Messages name a
// parameter and its position on the command line, never its value (it may be key material).
import { open } from 'node:fs/promises';
// A namespace, read at the call: util.parseArgs loads its two modules on first access.
import * as util from 'node:util';
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
const MAX_VALUE_FILE_BYTES = 1024 * 1024;

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

/** What the walk over the tokens has gathered so far. */
interface Gathered extends ApiArguments {
  entries: [string, string][];
  /** The parameter that reads standard input (@-), if one does. */
  stdinTaken?: string;
}

/** A token of util.parseArgs: an option (`--name`, `--name=value`, `-h`), a positional, or `--`. */
type Token = NonNullable<ReturnType<typeof util.parseArgs>['tokens']>[number];
type OptionToken = Extract<Token, { kind: 'option' }>;

/**
 * `args` are the arguments after the action; `offset` is how many came before them after
 * `ddedge` (3 for `api <module> <action>`), so positions match what the user typed.
 */
export async function parseApiArguments(
  args: string[],
  specs: Record<string, ParamSpec>,
  offset: number,
  sources: ArgumentSources = fileSources,
): Promise<ApiArguments> {
  const names = argumentNames(specs);
  const tokens = tokenize(args, specs, names);
  const gathered: Gathered = { connection: {}, params: {}, own: new Set(), positions: new Map(), entries: [] };
  /** The last argument taken: a value after its name is not read again as a token. */
  let taken = -1;
  for (const [at, token] of tokens.entries()) {
    if (token.index <= taken) continue;
    taken = token.index;
    const position = offset + token.index + 1;
    if (args[token.index] === '-h') {
      gathered.own.add('help');
      continue;
    }
    const name = token.kind === 'option' && args[token.index]!.startsWith('--') ? token.name : '';
    if (!NAME.test(name)) {
      throw new ConfigError(
        `api: argument ${position} is not a parameter name; give parameters as --name value (the value follows its ` +
          `name; see ddedge api <module> <action> --help)`,
      );
    }
    if (!names.known(name)) refuseNearFlag(name, position);
    const { value, last } = optionValue(token as OptionToken, tokens[at + 1], args, names, position);
    taken = last;
    await gather(gathered, name, value, position, sources);
  }
  // fromEntries makes own properties even of names such as __proto__, so validation sees them.
  return {
    connection: gathered.connection,
    params: Object.fromEntries(gathered.entries),
    own: gathered.own,
    positions: gathered.positions,
  };
}

/** What each name after the action is: a switch, a flag of `ddedge api`, a parameter of the operation, or unknown. */
interface ArgumentNames {
  known(name: string): boolean;
  isSwitch(name: string): boolean;
}

function argumentNames(specs: Record<string, ParamSpec>): ArgumentNames {
  return {
    known: (name) => Object.hasOwn(specs, name) || OWN_FLAGS.has(name) || CONNECTION_FLAGS.has(name),
    isSwitch: (name) => OWN_FLAGS.has(name) || (Object.hasOwn(specs, name) && specs[name]!.type === 'boolean'),
  };
}

/**
 * util.parseArgs' tokens, every known name declared: a switch as a boolean, anything else as a
 * string, whose value is the next argument whatever it looks like. Not strict: what is wrong is
 * said here, by position, never quoting a value.
 */
function tokenize(args: string[], specs: Record<string, ParamSpec>, names: ArgumentNames): Token[] {
  // No prototype: a name that only objects have (`--toString`) is not declared by accident.
  const options: Record<string, { type: 'string' | 'boolean' }> = Object.create(null);
  for (const name of [...Object.keys(specs), ...OWN_FLAGS, ...CONNECTION_FLAGS])
    options[name] = { type: names.isSwitch(name) ? 'boolean' : 'string' };
  return util.parseArgs({ args, options, strict: false, allowPositionals: true, tokens: true }).tokens;
}

/**
 * Not a parameter of this operation: a mistyped switch or connection flag says so here
 * (validation refuses the rest, with the nearest parameter names).
 */
function refuseNearFlag(name: string, position: number): void {
  const near = nearestNames(name, [...OWN_FLAGS, ...CONNECTION_FLAGS]);
  if (near.length)
    throw new ConfigError(
      `api: --${name} (argument ${position}) is not a parameter of this operation; did you mean ` +
        `${near.map((n) => `--${n}`).join(' or ')}?`,
    );
}

/**
 * An option's value, and the index of the last argument it took: `--name=value`; a switch alone
 * or with a boolean word after it; otherwise the argument after it, unless that argument names a
 * flag this command knows (then the value was forgotten: `--api-password --api-user u` must not
 * send "--api-user").
 */
function optionValue(
  token: OptionToken,
  next: Token | undefined,
  args: string[],
  names: ArgumentNames,
  position: number,
): { value: string; last: number } {
  const { name, index } = token;
  if (token.inlineValue) return { value: token.value!, last: index };
  if (names.isSwitch(name)) {
    const word =
      next?.kind === 'positional' && next.index === index + 1 && BOOLEAN_WORDS.test(next.value)
        ? next.value
        : undefined;
    return word === undefined ? { value: 'true', last: index } : { value: word, last: index + 1 };
  }
  // A declared name's value is in its token; an unknown name's is the argument after it.
  const value = names.known(name) ? token.value : args[index + 1];
  if (value === undefined || namesFlag(value, names.known))
    throw new ConfigError(`api: --${name} (argument ${position}) needs a value`);
  return { value, last: index + 1 };
}

/** One name and its value where it belongs: a switch, a connection setting, a parameter (read from @FILE or @-). */
async function gather(
  gathered: Gathered,
  name: string,
  given: string,
  position: number,
  sources: ArgumentSources,
): Promise<void> {
  if (OWN_FLAGS.has(name)) {
    if (!BOOLEAN_WORDS.test(given))
      throw new ConfigError(`api: --${name} (argument ${position}) is a switch: give it alone, or =true / =false`);
    if (/^(1|true|yes|on)$/i.test(given)) gathered.own.add(name);
    return;
  }
  if (CONNECTION_FLAGS.has(name)) {
    gathered.connection[name] = given;
    return;
  }
  const { positions } = gathered;
  if (positions.has(name))
    throw new ConfigError(`api: --${name} is given twice (arguments ${positions.get(name)} and ${position})`);
  positions.set(name, position);
  let value = given;
  if (value.startsWith('@@')) value = value.slice(1);
  else if (value === '@-') {
    if (gathered.stdinTaken)
      throw new ConfigError(
        `api: --${name} (argument ${position}) and --${gathered.stdinTaken} both read standard input (@-); only one ` +
          `can`,
      );
    gathered.stdinTaken = name;
    value = capped(name, position, 'standard input', await sources.readStdin());
  } else if (value.startsWith('@') && value.length > 1) value = await fromFile(name, position, value.slice(1), sources);
  gathered.entries.push([name, value]);
}

async function fromFile(name: string, position: number, path: string, sources: ArgumentSources): Promise<string> {
  let text: string;
  try {
    text = await sources.readFile(path);
  } catch (error) {
    throw new ConfigError(
      `api: --${name} (argument ${position}): cannot read the file "${path}": ` +
        `${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`,
    );
  }
  return capped(name, position, `the file "${path}"`, text);
}

/** A file's text as the value: one trailing line break removed, as `$(cat file)` would. */
function capped(name: string, position: number, where: string, text: string): string {
  if (Buffer.byteLength(text) > MAX_VALUE_FILE_BYTES)
    throw new ConfigError(
      `api: --${name} (argument ${position}): ${where} is larger than ${MAX_VALUE_FILE_BYTES / 1024 / 1024} MiB`,
    );
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
