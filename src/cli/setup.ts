// What every configured command does first: environment + dotenv -> Config -> Logger, and the
// warnings about how it was configured (said once per run, not at each reload of the daemon).
import type { Config } from '../config/config.js';
import { environmentWithDotenv } from '../config/env-sources.js';
import { loadConfig, type LoadOptions } from '../config/load.js';
import { SETTINGS, type Setting } from '../config/settings.js';
import { ConfigError } from '../lib/errors.js';
import { nonPublicReason } from '../lib/address.js';
import { createLogger, type Logger } from '../lib/log.js';
import { redact } from '../lib/redact.js';
import type { CommandContext } from './command.js';
import type { Io } from './io.js';
import { misspelledVariableHints } from './variable-hints.js';

export interface Setup {
  config: Config;
  logger: Logger;
  /** The environment with the dotenv file's variables: what a command reads beyond the Config. */
  env: Record<string, string | undefined>;
}

/** Warnings already given in this run, by the run's output (the daemon calls setup at each reload). */
const warned = new WeakMap<Io, Set<string>>();

/**
 * `readMore` reads a command's own settings in the same pass (the gateway's): their problems are said with the others.
 */
export async function setup(
  context: CommandContext,
  purpose: LoadOptions['purpose'],
  readMore?: LoadOptions['readMore'],
): Promise<Setup> {
  const { path, origin } = dotenvFileOf(context.flags);
  const warnings: string[] = [];
  const skippedNotes: string[] = [];
  const env = await environmentWithDotenv(context.io.env, path, context.io.cwd, origin, (message, skippedNote) => {
    warnings.push(message);
    if (skippedNote) skippedNotes.push(skippedNote);
  });
  let config: Config;
  try {
    config = loadConfig({ flags: context.flags, env, purpose, readMore });
  } catch (error) {
    // A skipped file or a misspelled variable is most often why the configuration is invalid: said there too.
    const notes = [...skippedNotes, ...misspelledVariableHints(env)];
    if (!(error instanceof ConfigError) || !notes.length) throw error;
    warnOnce(context.io, fallbackLogger(context, env), warnings);
    throw new ConfigError(`${error.message}\n  ${notes.join('\n  ')}`);
  }
  const logger = createLogger({
    level: config.logLevel,
    format: config.logFormat,
    write: context.io.stderr,
    journald: Boolean(env.JOURNAL_STREAM),
  });
  if (config.dyndns.formatFromUrl && purpose === 'cycle') {
    logger.info(
      `dynamic DNS: the URL ends in /${config.dyndns.format}/: the ${config.dyndns.format} format is used, at ` +
        `${config.dyndns.url}${config.dyndns.format}/`,
    );
  }
  warnings.push(...secretFlagWarnings(context.flags));
  if (purpose === 'cycle') warnings.push(...givenAddressWarnings(config, context.flags));
  warnOnce(context.io, logger, warnings);
  return { config, logger, env };
}

function warnOnce(io: Io, logger: Logger, warnings: string[]): void {
  const given = warned.get(io) ?? new Set<string>();
  warned.set(io, given);
  for (const warning of warnings) {
    if (given.has(warning)) continue;
    given.add(warning);
    logger.warn(warning);
  }
}

/** The logger of a run whose configuration failed: the log format as given, if it is one. */
function fallbackLogger(context: CommandContext, env: Setup['env']): Logger {
  const format = context.flags['log-format'] ?? env.DDEDGE_LOG_FORMAT;
  return createLogger({
    level: 'warn',
    format: format === 'json' ? 'json' : 'text',
    write: context.io.stderr,
    journald: Boolean(env.JOURNAL_STREAM),
  });
}

/** A secret in the arguments is visible to every user of the machine (ps, /proc) and kept in shell history. */
function secretFlagWarnings(flags: CommandContext['flags']): string[] {
  const given = Object.values(SETTINGS as Record<string, Setting>).filter(
    (s) => s.credential && typeof flags[s.flag] === 'string',
  );
  if (!given.length) return [];
  const names = given.map((s) => `--${s.flag}`).join(' and ');
  const files = given.map((s) => `--${s.flag}-file or ${s.env}_FILE`).join('; ');
  return [
    `${names} on the command line can be read by other users of this machine (ps, /proc) and stays in shell ` +
      `history; keep it in a file readable only by you: ${files}`,
  ];
}

/** --ip and --ip6 are trusted as given, but an address the internet cannot reach is most likely a mistake. */
function givenAddressWarnings(config: Config, flags: CommandContext['flags']): string[] {
  const warnings: string[] = [];
  for (const [address, flag, variable] of [
    [config.ip, 'ip', 'DDEDGE_IP'],
    [config.ip6, 'ip6', 'DDEDGE_IP6'],
  ] as const) {
    const reason = address === undefined ? undefined : nonPublicReason(address);
    if (reason)
      warnings.push(
        `${flags[flag] !== undefined ? `--${flag}` : variable} ${address} is not a public address (${reason}): it ` +
          `is sent as given, and the record will point where the internet cannot reach`,
      );
  }
  return warnings;
}

/**
 * The dotenv file to read: --env-file, or --dotenv, the spelling Node 20 leaves alone (it
 * reads --env-file itself, even after the script name, and exits 9 when the file is missing).
 */
function dotenvFileOf(flags: CommandContext['flags']): { path?: string; origin: string } {
  const envFile = flags['env-file'];
  const dotenv = flags.dotenv;
  if (typeof envFile === 'string' && typeof dotenv === 'string')
    throw new ConfigError('give one of --env-file or --dotenv, not both');
  if (typeof dotenv === 'string') return { path: dotenv, origin: '--dotenv' };
  return { path: typeof envFile === 'string' ? envFile : undefined, origin: '--env-file' };
}

/** Prints a JSON document: pretty on a terminal, one line otherwise. */
export function printJson(context: CommandContext, value: unknown): void {
  // Answers and the state may repeat a secret in any spelling (JSON-escaped included).
  context.io.stdout(redact(JSON.stringify(value, null, context.io.isTTY ? 2 : undefined)) + '\n');
}
