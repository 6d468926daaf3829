// Help text, rendered by yargs from the same declarations the parser uses. Loaded only for
// --help, so yargs stays off the start path of a cycle.
import yargs from 'yargs/yargs';
import { SETTINGS, type Setting } from '../config/settings.js';
import { BUILTIN_SOURCES } from '../ip/sources.js';
import { VERSION } from '../version.js';
import type { CommandSpec } from './command.js';
import { COMMANDS } from './registry.js';

const EXIT_CODES = `Exit codes:
  0  done: every record is current (or, in a dry run, the decision was made)
  1  internal error (a bug); for "health": unhealthy
  2  usage or configuration error: bad flag, missing credential, insecure URL, invalid parameter
  3  credentials or permission rejected by the provider
  4  transient failure: network, timeout, HTTP 5xx, malformed or oversized answer
  5  partial: some records updated, some failed
  6  the public address is unknown: sources failed or disagree below the quorum
  7  the API refused the operation (not found, not allowed, ...)
  8  zone plan --expect-no-changes: the live zone differs from the file`;

function environmentSection(): string {
  const rows = Object.values(SETTINGS as Record<string, Setting>)
    .filter((s) => s.env)
    .map((s) => `  ${s.env!.padEnd(26)} --${s.flag}${s.credential ? ` (also ${s.env}_FILE, credential ${s.credential})` : ''}`);
  const sources = Object.entries(BUILTIN_SOURCES).map(([name, b]) => `  ${name.padEnd(12)} ${b.describe}`);
  return `Environment (flags win over variables, variables over the dotenv file):\n${rows.join('\n')}\n\nBuilt-in address sources:\n${sources.join('\n')}\n  Also: url:<URL>, iface:<name>, file:<path>, dns:<name>@<server>, dns-txt:<name>@<server>, server`;
}

export async function renderHelp(command?: CommandSpec): Promise<string> {
  const y = yargs([]).scriptName('ddedge').version(VERSION).help(false).wrap(Math.min(110, process.stdout.columns || 100)).strict(false);
  if (!command) {
    y.usage('ddedge <command> [options]\n\nKeeps host names pointed at this machine through the DonDominio dynamic DNS interface and registrar API.');
    for (const c of COMMANDS) y.command(c.name, c.describe);
    y.epilogue(`${EXIT_CODES}\n\n${environmentSection()}\n\nRun "ddedge <command> --help" for a command's options.`);
  } else {
    y.usage(`${command.usage}\n\n${command.describe}`);
    if (command.settings) {
      for (const s of Object.values(SETTINGS as Record<string, Setting>)) {
        y.option(s.flag, {
          describe: s.describe + (s.env ? ` [${s.env}]` : ''),
          type: s.kind === 'boolean' ? 'boolean' : 'string',
          choices: s.values as string[] | undefined,
          default: s.default,
          group: 'Settings:',
        });
      }
    }
    for (const [name, flag] of Object.entries(command.flags)) {
      y.option(name, { describe: flag.describe, type: flag.type, default: flag.default, group: 'Options:' });
    }
    y.epilogue(command.settings ? `${EXIT_CODES}\n\n${environmentSection()}` : EXIT_CODES);
  }
  return (await y.getHelp()) + '\n';
}
