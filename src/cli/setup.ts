// What every configured command does first: environment + dotenv -> Config -> Logger.
import type { Config } from '../config/config.js';
import { environmentWithDotenv } from '../config/env-sources.js';
import { loadConfig, type LoadOptions } from '../config/load.js';
import { ConfigError } from '../errors.js';
import { createLogger, type Logger } from '../log.js';
import { redact } from '../redact.js';
import type { CommandContext } from './command.js';

export interface Setup {
  config: Config;
  logger: Logger;
}

export async function setup(context: CommandContext, purpose: LoadOptions['purpose']): Promise<Setup> {
  const { path, origin } = dotenvFileOf(context.flags);
  const env = await environmentWithDotenv(context.io.env, path, context.io.cwd, origin);
  const config = loadConfig({ flags: context.flags, env, purpose });
  const logger = createLogger({
    level: config.logLevel,
    format: config.logFormat,
    write: context.io.stderr,
    journald: Boolean(env.JOURNAL_STREAM),
  });
  if (config.dyndns.formatFromUrl && purpose === 'cycle') {
    logger.info(`dynamic DNS: the URL ends in /${config.dyndns.format}/: the ${config.dyndns.format} format is used, at ${config.dyndns.url}${config.dyndns.format}/`);
  }
  return { config, logger };
}

/**
 * The dotenv file to read: --env-file, or --dotenv, the spelling Node 20 leaves alone (it
 * reads --env-file itself, even after the script name, and exits 9 when the file is missing).
 */
function dotenvFileOf(flags: CommandContext['flags']): { path?: string; origin: string } {
  const envFile = flags['env-file'];
  const dotenv = flags.dotenv;
  if (typeof envFile === 'string' && typeof dotenv === 'string') throw new ConfigError('give one of --env-file or --dotenv, not both');
  if (typeof dotenv === 'string') return { path: dotenv, origin: '--dotenv' };
  return { path: typeof envFile === 'string' ? envFile : undefined, origin: '--env-file' };
}

/** Prints a JSON document: pretty on a terminal, one line otherwise. */
export function printJson(context: CommandContext, value: unknown): void {
  // Answers and the state may repeat a secret in any spelling (JSON-escaped included).
  context.io.stdout(redact(JSON.stringify(value, null, context.io.isTTY ? 2 : undefined)) + '\n');
}
