// What every configured command does first: environment + dotenv -> Config -> Logger.
import type { Config } from '../config/config.js';
import { environmentWithDotenv } from '../config/env-sources.js';
import { loadConfig, type LoadOptions } from '../config/load.js';
import { createLogger, type Logger } from '../log.js';
import { redact } from '../redact.js';
import type { CommandContext } from './registry.js';

export interface Setup {
  config: Config;
  logger: Logger;
}

export async function setup(context: CommandContext, purpose: LoadOptions['purpose']): Promise<Setup> {
  const envFile = context.flags['env-file'];
  const env = await environmentWithDotenv(context.io.env, typeof envFile === 'string' ? envFile : undefined, context.io.cwd);
  const config = loadConfig({ flags: context.flags, env, purpose });
  const logger = createLogger({
    level: config.logLevel,
    format: config.logFormat,
    write: context.io.stderr,
    journald: Boolean(env.JOURNAL_STREAM),
  });
  return { config, logger };
}

/** Prints a JSON document: pretty on a terminal, one line otherwise. */
export function printJson(context: CommandContext, value: unknown): void {
  // Answers and the state may repeat a secret in any spelling (JSON-escaped included).
  context.io.stdout(redact(JSON.stringify(value, null, context.io.isTTY ? 2 : undefined)) + '\n');
}
