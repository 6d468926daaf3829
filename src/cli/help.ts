// Help text. `ddedge --help` is the whole reference (commands, every setting with its variable,
// exit codes, address sources); `ddedge <command> --help` is short: what the command reads and
// its own options, then a pointer to `ddedge --help`. Every screen is made here from the command
// declarations that main() parses with (no second parser to agree with), and loaded only for
// --help, so none of it is on the start path of a cycle.
import { SETTINGS, type Setting } from '../config/settings.js';
import { BUILTIN_SOURCES } from '../ip/sources.js';
import type { CommandSpec, FlagSpec } from './command.js';
import { COMMAND_SETTING_TEXT, COMMAND_SETTINGS } from './command-settings.js';
import { COMMANDS } from './registry.js';

const EXIT_CODES: [string, string][] = [
  ['0', 'done: every record is current (or, in a dry run, the decision was made)'],
  ['1', 'internal error (a bug); for "health": unhealthy'],
  ['2', 'usage or configuration error: bad flag, missing credential, insecure URL, invalid parameter'],
  ['3', 'credentials or permission rejected by the provider'],
  ['4', 'transient failure: network, timeout, HTTP 5xx, malformed or oversized answer'],
  ['5', 'partial: some records updated, some failed'],
  ['6', 'the public address is unknown: sources failed or disagree below the quorum'],
  ['7', 'the API refused the operation (not found, not allowed, ...)'],
  [
    '8',
    'zone plan --expect-no-changes: the live zone differs from the file; acme persist --check: a CA would not ' +
      'accept the record',
  ],
];

/** The help's width: the terminal's, between 60 and 110 columns (100 when not a terminal). */
const WIDTH = (): number => Math.max(60, Math.min(110, process.stdout.columns || 100));
const COLUMN = 26;

/** The words of `text` in lines of at most `width` characters (a longer word stands alone). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return lines;
}

/** `head`, then `text` beside it from `column` on, each further line indented to `column`. */
function hanging(head: string, text: string, column: number): string {
  const lines = wrap(text, WIDTH() - column);
  return [
    (head.length < column ? head.padEnd(column) : `${head}\n${' '.repeat(column)}`) + lines[0],
    ...lines.slice(1).map((l) => ' '.repeat(column) + l),
  ].join('\n');
}

/** One option: its name in a column, the text wrapped beside it. */
const row = (name: string, text: string): string => hanging(`  ${name}`, text, COLUMN);

const settingText = (s: Setting): string =>
  `${s.describe}${s.values ? ` (${s.values.join(', ')})` : ''}` +
  `${s.default !== undefined ? ` [default ${s.default}]` : ''}` +
  (s.env ? ` [${s.env}${s.credential ? `; --${s.flag}-file, ${s.env}_FILE, credential ${s.credential}` : ''}]` : '');

/** A setting in a command's help: the first clause of its description; ddedge --help has the rest. */
const shortSettingText = (s: Setting): string =>
  `${s.describe.split(/; | \(/)[0]}${s.values ? ` (${s.values.join(', ')})` : ''}` +
  `${s.default !== undefined && s.kind !== 'boolean' ? ` [default ${s.default}]` : ''}` +
  (s.env ? ` [${s.env}${s.credential ? `; --${s.flag}-file, ${s.env}_FILE` : ''}]` : '');

const flagText = (f: FlagSpec): string => `${f.describe}${f.default !== undefined ? ` [default ${f.default}]` : ''}`;

const ALSO_SOURCES = 'url:<URL>, iface:<name>, file:<path>, dns:<name>@<server>, dns-txt:<name>@<server>, server';

function settingsReference(): string {
  const rows = Object.values(SETTINGS as Record<string, Setting>).map((s) => row(`--${s.flag}`, settingText(s)));
  const sources = Object.entries(BUILTIN_SOURCES).map(([name, b]) => hanging(`  ${name}`, b.describe, 15));
  const preamble = hanging(
    'Settings',
    '(flags win over variables, variables over the dotenv file; a secret also from <VARIABLE>_FILE or ' +
      '$CREDENTIALS_DIRECTORY/<credential>; durations take ms, s, m, h, d):',
    9,
  );
  return (
    `${preamble}\n${rows.join('\n')}\n\n` +
    `Built-in address ` +
    `sources:\n${sources.join('\n')}` +
    `\n${hanging('  Also:', ALSO_SOURCES, 8)}`
  );
}

function commandHelp(command: CommandSpec): string {
  const parts = [`${command.usage}\n\n${command.describe}`];
  // Every command that reads settings names its own; `ddedge api` takes only these.
  const reads = COMMAND_SETTINGS[command.name];
  if (reads) {
    const own = COMMAND_SETTING_TEXT[command.name] ?? {};
    const rows = reads.map((name) =>
      row(
        `--${SETTINGS[name].flag}`,
        own[name] ? `${own[name]} [${SETTINGS[name].env}]` : shortSettingText(SETTINGS[name] as Setting),
      ),
    );
    parts.push(`Settings it reads:\n${rows.join('\n')}`);
  }
  const own = Object.entries(command.flags).map(([name, flag]) => row(`--${name}`, flagText(flag)));
  if (own.length) parts.push(`Options:\n${own.join('\n')}`);
  parts.push(
    command.settings
      ? 'Every other setting, the environment variables, exit codes and address sources: ddedge --help'
      : 'Exit codes and the other commands: ddedge --help',
  );
  return parts.join('\n\n') + '\n';
}

/** One action's help (`ddedge gateway keygen --help`): its usage, what it does, its own options. */
function actionHelp(command: CommandSpec, action: NonNullable<CommandSpec['actions']>[string]): string {
  const own = (action.flags ?? []).map((name) => row(`--${name}`, flagText(command.flags[name]!)));
  return (
    [
      `${action.usage}\n\n${action.describe}`,
      ...(own.length ? [`Options:\n${own.join('\n')}`] : []),
      `The command itself: ddedge ${command.name} --help`,
    ].join('\n\n') + '\n'
  );
}

/** The top-level screen's head: usage, what ddedge is, each command with its description. */
function commandList(): string {
  const about =
    'Keeps host names pointed at this machine through the DonDominio dynamic DNS interface and registrar API.';
  const heads = COMMANDS.map((c) => `  ddedge ${c.name}`);
  const column = Math.max(...heads.map((head) => head.length)) + 2;
  const commands = COMMANDS.map((c, i) => hanging(heads[i]!, c.describe, column));
  const version = '  --version  Show version number';
  return (
    `ddedge <command> [options]\n\n${wrap(about, WIDTH()).join('\n')}\n\nCommands:\n${commands.join('\n')}` +
    `\n\nOptions:\n${version.padEnd(WIDTH() - '[boolean]'.length)}[boolean]`
  );
}

export function renderHelp(command?: CommandSpec, actionName?: string): string {
  const action = actionName === undefined ? undefined : command?.actions?.[actionName];
  if (command && action) return actionHelp(command, action);
  if (command) return commandHelp(command);
  const exitCodes = `Exit codes:\n${EXIT_CODES.map(([code, text]) => hanging(`  ${code}`, text, 5)).join('\n')}`;
  const pointer = wrap('Run "ddedge <command> --help" for what one command reads and its own options.', WIDTH()).join(
    '\n',
  );
  return `${commandList()}\n\n${exitCodes}\n\n${settingsReference()}\n\n${pointer}\n`;
}
