// The entry point: finds the command, parses its flags, runs it, and turns whatever it
// throws into one message and the contract's exit code. Nothing below cli/ prints or exits.
// A namespace, read at the call: util.parseArgs loads its two modules on first access.
import * as util from 'node:util';
import { fileFlagOf, SETTINGS } from '../config/settings.js';
import { ConfigError, ExitCode } from '../lib/errors.js';
import { VERSION } from '../lib/version.js';
import { reportError, wantsJson } from './error-output.js';
import { processIo, type Io } from './io.js';
import { exitAfterOutput } from './process-output.js';
import type { CommandSpec } from './command.js';
import {
  COMMANDS,
  findCommand,
  joinDashValues,
  fillBareValues,
  missingValueMessage,
  nearestNames,
} from './registry.js';

export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (error) {
    return reportError(error, io, wantsJson(argv), argv);
  }
}

async function dispatch(argv: string[], io: Io): Promise<number> {
  const [first, ...rest] = argv;
  if (first === '--version' || first === '-V' || first === 'version') {
    io.stdout(`${VERSION}\n`);
    return ExitCode.ok;
  }
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    const { renderHelp } = await import('./help.js');
    io.stdout(renderHelp(rest[0] ? findCommand(rest[0]) : undefined));
    return first === undefined ? ExitCode.usage : ExitCode.ok;
  }
  const command = findCommand(first);
  if (!command && first.startsWith('-')) {
    // `ddedge --api-password=… update`: name the flag, never its value.
    const flag = first.split('=')[0];
    throw new ConfigError(
      `${flag} is a flag, not a command: flags go after the command (ddedge <command> ${flag} …; see ddedge --help)`,
    );
  }
  if (!command) {
    const near = nearestNames(
      first,
      COMMANDS.map((c) => c.name),
    );
    throw new ConfigError(
      `unknown command "${first}"${near.length ? `; did you mean ${near.join(' or ')}?` : ''} (see ddedge --help)`,
    );
  }
  if (command.freeArguments) {
    const { run } = await command.load();
    return run({ flags: {}, positionals: rest, io, commands: COMMANDS });
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    const { renderHelp } = await import('./help.js');
    io.stdout(renderHelp(command, rest[0]));
    return ExitCode.ok;
  }
  // Arguments a caller passes verbatim (an ACME value may start with "-") are not flags.
  const literal = command.literalArguments?.(rest) ?? 0;
  const { flags, positionals } = parseFlags(command, rest.slice(literal), literal);
  const { run } = await command.load();
  return run({ flags, positionals: [...rest.slice(0, literal), ...positionals], io, commands: COMMANDS });
}

function parseFlags(command: CommandSpec, args: string[], literal = 0) {
  // `ddedge update` from a timer, configured by its environment: nothing to parse, and Node's
  // parser (two internal modules) is not loaded.
  if (args.length === 0) return { flags: {}, positionals: [] };
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = {};
  if (command.settings) {
    for (const setting of Object.values(SETTINGS)) {
      options[setting.flag] = {
        type: setting.kind === 'boolean' ? 'boolean' : 'string',
        multiple: 'multiple' in setting,
      };
      const fileFlag = fileFlagOf(setting);
      if (fileFlag) options[fileFlag] = { type: 'string' };
    }
  }
  for (const [name, spec] of Object.entries(command.flags))
    options[name] = { type: spec.type, multiple: Boolean(spec.multiple) };
  const bare = Object.fromEntries(
    command.settings ? Object.values(SETTINGS).flatMap((s) => ('bare' in s ? [[s.flag, s.bare]] : [])) : [],
  );
  const joined = joinDashValues(
    fillBareValues(args, bare, (n) => n in options),
    options,
  );
  const parsed = parseOrExplain(command, joined.args, options);
  // A stray word may be half of an unquoted secret: name its position, never its text.
  const stray = command.positionals ? undefined : parsed.tokens.find((token) => token.kind === 'positional');
  if (stray) {
    const position = 2 + literal + joined.origins[stray.index]!;
    throw new ConfigError(
      `${command.name}: argument ${position} is unexpected (${command.name} takes no positional arguments; quote a ` +
        `value that has spaces) (see ddedge ${command.name} --help)`,
    );
  }
  return { flags: parsed.values, positionals: parsed.positionals };
}

/** Node's parser over the arguments, its complaint rephrased for the command (with a likely flag). */
function parseOrExplain(
  command: CommandSpec,
  args: string[],
  options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>,
) {
  try {
    return util.parseArgs({ args, options, strict: true, allowPositionals: true, tokens: true });
  } catch (error) {
    const said = missingValueMessage((error as Error).message).replace(/\. To specify a positional argument.*$/s, '');
    // Node's "Unknown option …" read as ddedge's own messages do, after the command's name.
    const message = said.charAt(0).toLowerCase() + said.slice(1);
    throw new ConfigError(
      `${command.name}: ${message}${didYouMean(message, Object.keys(options))} (see ddedge ${command.name} --help)`,
    );
  }
}

/** "did you mean --interval?" for Node's "Unknown option '--intervall'". */
function didYouMean(message: string, flags: string[]): string {
  const unknown = /unknown option '--([^'=]+)/i.exec(message)?.[1];
  if (!unknown) return '';
  const near = nearestNames(unknown, flags).slice(0, 3);
  return near.length ? `; did you mean ${near.map((f) => `--${f}`).join(' or ')}?` : '';
}

/**
 * What dist/ddedge.mjs (bootstrap/launcher.ts) runs: this process's command line, then the exit
 * with its code once the output is written.
 */
export function runAsProgram(): void {
  main(process.argv.slice(2)).then((code) => {
    // Pending work (sources that lost the quorum race, idle sockets) must not delay the exit;
    // the output must be complete first.
    void exitAfterOutput(code);
  });
}
