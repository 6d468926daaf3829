// Where raw setting values come from, strongest first: flag, environment, dotenv file
// (never overriding a set variable), <VAR>_FILE, $CREDENTIALS_DIRECTORY/<credential>.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../runtime/errors.js';
import { moduleOf } from '../runtime/lazy-import.js';
import { FileTooLarge, readCappedText } from './capped-file.js';

/** Far above any real dotenv file or secret; a cap, so a path to /dev/zero is not read forever. */
const DOTENV_MAX_BYTES = 1024 * 1024;
const SECRET_MAX_BYTES = 64 * 1024;

export type Env = Record<string, string | undefined>;

/**
 * The environment as ddedge sees it: the process's variables over those of the dotenv file.
 * A file named with --env-file must be read (exit 2 otherwise); the implicit ./.env is only
 * there by chance (a project's own .env, a folder of another user's): one that cannot be read
 * is told to `warn` and skipped.
 */
export async function environmentWithDotenv(env: Env, envFile: string | undefined, cwd: string, origin = '--env-file', warn?: (message: string) => void): Promise<Env> {
  const path = envFile ?? join(cwd, '.env');
  if (!envFile && !existsSync(path)) return env;
  let text: string;
  try {
    text = readCappedText(path, DOTENV_MAX_BYTES);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const problem = error instanceof FileTooLarge ? `"${path}" is larger than 1 MiB` : `cannot read "${path}": ${code === 'ENOENT' ? 'no such file' : (code ?? (error as Error).message)}`;
    if (!envFile && warn) {
      warn(`./.env: ${problem}; going on without it (name a dotenv file with --env-file)`);
      return env;
    }
    throw new ConfigError(`${origin}: ${problem}`);
  }
  // Loaded only when a file is there: most runs (systemd, containers) never pay for it.
  const { parse } = await moduleOf(import('dotenv'));
  const fromFile = parse(text);
  return { ...fromFile, ...definedOnly(env) };
}

function definedOnly(env: Env): Env {
  return Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined));
}

export interface RawValue {
  value: string;
  /** How the user named it: --flag, VARIABLE, VARIABLE_FILE (path), credential. */
  origin: string;
}

/** Reads a secret from <VAR>_FILE or a systemd credential; trailing newlines are dropped. */
export function readSecretSource(variable: string, credential: string, env: Env): RawValue | undefined {
  const filePath = env[`${variable}_FILE`];
  if (filePath) {
    if (env[variable]) throw new ConfigError(`both ${variable} and ${variable}_FILE are set; keep one`);
    return { value: readSecretFile(filePath, `${variable}_FILE`), origin: `${variable}_FILE` };
  }
  const credentialsDir = env.CREDENTIALS_DIRECTORY;
  if (credentialsDir) {
    // `LoadCredential=ddedge:/etc/ddedge/credentials` (a directory) names them ddedge_<file>.
    for (const name of [credential, `ddedge_${credential}`]) {
      const path = join(credentialsDir, name);
      if (existsSync(path)) return { value: readSecretFile(path, `credential ${name}`), origin: `credential ${name}` };
    }
  }
  return undefined;
}

export function readSecretFile(path: string, origin: string): string {
  let text: string;
  try {
    text = readCappedText(path, SECRET_MAX_BYTES);
  } catch (error) {
    if (error instanceof FileTooLarge) throw new ConfigError(`${origin}: "${path}" is larger than 64 KiB`);
    throw new ConfigError(`${origin}: cannot read "${path}": ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`);
  }
  const value = text.replace(/\r?\n$/, '');
  if (!value) throw new ConfigError(`${origin}: "${path}" is empty`);
  return value;
}
