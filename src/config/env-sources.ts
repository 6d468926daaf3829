// Where raw setting values come from, strongest first: flag, environment, dotenv file
// (never overriding a set variable), <VAR>_FILE, $CREDENTIALS_DIRECTORY/<credential>.
import { existsSync, lstatSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { errnoText } from '../lib/errno-text.js';
import { ConfigError } from '../lib/errors.js';
import { moduleOf } from '../lib/lazy-import.js';
import { FileTooLarge, readCappedText } from './capped-file.js';
import { redirectingSettings, UntrustedDotenv, vetImplicitDotenv } from './dotenv-trust.js';
import { initCredentialsDir, initSettingsDir, initSettingsFile } from './init-settings.js';

/** Far above any real dotenv file or secret; a cap, so a path to /dev/zero is not read forever. */
const DOTENV_MAX_BYTES = 1024 * 1024;
const SECRET_MAX_BYTES = 64 * 1024;

export type Env = Record<string, string | undefined>;

/**
 * The environment as ddedge sees it: the process's variables over those of the dotenv file.
 * A file named with --env-file must be read (exit 2 otherwise); the implicit ./.env is only
 * there by chance (a project's own .env, a folder of another user's): one that cannot be read,
 * or that someone other than this user or root could have written, is told to `warn` and
 * skipped, and the settings of one that is read that send things elsewhere or run something
 * are named to `warn` (dotenv-trust.ts). A skipped file also gives `warn` a note for an error:
 * a file left unread is most often why the configuration then lacks a host or a credential.
 */
export async function environmentWithDotenv(
  env: Env,
  envFile: string | undefined,
  cwd: string,
  origin = '--env-file',
  warn?: (message: string, skippedNote?: string) => void,
  uid = process.geteuid?.(),
  open?: (path: string, flags: number) => number,
): Promise<Env> {
  return initSettingsUnder(await dotenvUnder(env, envFile, cwd, origin, warn, uid, open), warn, uid, open);
}

type Warn = ((message: string, skippedNote?: string) => void) | undefined;
type Open = ((path: string, flags: number) => number) | undefined;

async function dotenvUnder(
  env: Env,
  envFile: string | undefined,
  cwd: string,
  origin: string,
  warn: Warn,
  uid: number | undefined,
  open: Open,
): Promise<Env> {
  const path = envFile ?? join(cwd, '.env');
  if (!envFile && !existsSync(path)) return env;
  let text: string;
  try {
    text = envFile ? readCappedText(path, DOTENV_MAX_BYTES) : readImplicitDotenv(path, uid, open);
  } catch (error) {
    if (error instanceof UntrustedDotenv) {
      warn?.(
        `./.env (${path}) ${error.message}: not read; ${error.remedy}`,
        `./.env (${path}) was not read: it ${error.message}; ${error.remedy}`,
      );
      return env;
    }
    const problem =
      error instanceof FileTooLarge ? `"${path}" is larger than 1 MiB` : `cannot read "${path}": ${errnoText(error)}`;
    if (!envFile && warn) {
      warn(
        `./.env: ${problem}; going on without it (name a dotenv file with --env-file)`,
        `./.env was not read: ${problem}`,
      );
      return env;
    }
    throw new ConfigError(`${origin}: ${problem}`);
  }
  // Loaded only when a file is there: most runs (systemd, containers) never pay for it.
  const { parse } = await moduleOf(import('dotenv'));
  const fromFile = parse(text);
  const redirecting = envFile ? [] : redirectingSettings(fromFile, env);
  if (redirecting.length) {
    warn?.(
      `./.env sets ${listed(redirecting)} (where ddedge sends requests and credentials, what it runs, or whom it ` +
        `notifies), read from the folder ddedge runs in (${cwd}) without being named; if that is meant, name the ` +
        `file with --env-file or set ${redirecting.length > 1 ? 'them' : 'it'} in the environment`,
    );
  }
  return { ...fromFile, ...definedOnly(env) };
}

/**
 * The settings file `ddedge init` wrote (init-settings.ts), under everything else: it never overrides a variable set in
 * the environment or a dotenv file. It is trusted as ./.env is (this user's or root's, written by no one else); its
 * secrets are read from credentials/ beside it, as systemd would hand them, unless systemd did.
 */
async function initSettingsUnder(env: Env, warn: Warn, uid: number | undefined, open: Open): Promise<Env> {
  const dir = initSettingsDir(env, uid);
  const path = dir && initSettingsFile(dir);
  if (!dir || !path || !existsSync(path)) return env;
  let text: string;
  try {
    text = readImplicitDotenv(path, uid, open);
  } catch (error) {
    const problem =
      error instanceof UntrustedDotenv
        ? `${error.message}; if it is yours to trust, chown it to you and chmod go-w it`
        : error instanceof FileTooLarge
          ? 'is larger than 1 MiB'
          : `cannot be read: ${errnoText(error)}`;
    warn?.(`the settings file ${path} ${problem}: not read`, `the settings file ${path} was not read: it ${problem}`);
    return env;
  }
  const { parse } = await moduleOf(import('dotenv'));
  const credentials = initCredentialsDir(dir);
  const handed = env.CREDENTIALS_DIRECTORY || !existsSync(credentials) ? {} : { CREDENTIALS_DIRECTORY: credentials };
  return { ...parse(text), ...handed, ...definedOnly(env) };
}

/**
 * ./.env, opened first without following a link, so that the file vetted (on its descriptor) is the one read. A link
 * named ./.env is another user's choice of file when it is theirs: its owner is vetted, then what it names is opened
 * and vetted as the file is.
 */
function readImplicitDotenv(path: string, uid: number | undefined, open: Open): string {
  const vet = (stat: Stats) => vetImplicitDotenv(stat, uid);
  try {
    return readCappedText(path, DOTENV_MAX_BYTES, vet, { noFollow: true, open });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOOP') throw error;
  }
  const link = lstatSync(path);
  if (link.isSymbolicLink()) vetImplicitDotenv(link, uid, 'link');
  return readCappedText(path, DOTENV_MAX_BYTES, vet, { open });
}

const listed = (names: string[]): string =>
  names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0]!;

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
  const found = credentialPath(credential, env);
  return found && { value: readSecretFile(found.value, found.origin), origin: found.origin };
}

/** The file of a systemd credential in $CREDENTIALS_DIRECTORY, by its path: undefined when there is none. */
export function credentialPath(credential: string, env: Env): RawValue | undefined {
  const credentialsDir = env.CREDENTIALS_DIRECTORY;
  if (!credentialsDir) return undefined;
  // `LoadCredential=ddedge:/etc/ddedge/credentials` (a directory) names them ddedge_<file>.
  for (const name of [credential, `ddedge_${credential}`]) {
    const path = join(credentialsDir, name);
    if (existsSync(path)) return { value: path, origin: `credential ${name}` };
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
