// One setting's values as given, before they are read: from its flag, its file flag
// (--api-password-file), its variable, <VARIABLE>_FILE or a systemd credential, strongest first.
// What cannot be had (a file flag without a path, a flag given twice over, a file unread) goes to
// `problems`, said with the others.
import { credentialPath, readSecretFile, readSecretSource, type Env, type RawValue } from './env-sources.js';
import { fileFlagOf, type Setting } from './settings.js';

export type FlagValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** Where a setting's values are looked for. */
export interface ValueSources {
  flags: FlagValues;
  env: Env;
}

export function rawValues(setting: Setting, sources: ValueSources, problems: string[]): RawValue[] {
  const flag = sources.flags[setting.flag];
  const fileFlag = fileFlagOf(setting);
  const path = fileFlag === undefined ? undefined : sources.flags[fileFlag];
  if (fileFlag !== undefined && path !== undefined && path !== false)
    return fromFileFlag(setting, fileFlag, path, flag, problems);
  // A bare `--api-password` is a flag without its value, never the text "true".
  if (flag === true && setting.kind !== 'boolean') {
    problems.push(`--${setting.flag} needs a value: --${setting.flag} VALUE or --${setting.flag}=VALUE`);
    return [];
  }
  if (flag !== undefined && flag !== false) {
    const list = Array.isArray(flag) ? flag : [flag];
    return list.map((v) => ({ value: String(v), origin: `--${setting.flag}` }));
  }
  return setting.env ? fromEnvironment(setting, setting.env, sources.env, problems) : [];
}

/** --dyndns-key-file PATH: the secret read from that file; the flag beside it is one too many. */
function fromFileFlag(
  setting: Setting,
  fileFlag: string,
  path: string | true | (string | boolean)[],
  flag: FlagValues[string],
  problems: string[],
): RawValue[] {
  if (typeof path !== 'string' || !path) problems.push(`--${fileFlag} needs the path of a file: --${fileFlag} PATH`);
  else if (flag !== undefined && flag !== false)
    problems.push(`both --${setting.flag} and --${fileFlag} are given; keep one`);
  else {
    try {
      return [{ value: readSecretFile(path, `--${fileFlag}`), origin: `--${fileFlag}` }];
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  return [];
}

/** The variable, else (a secret) <VARIABLE>_FILE or the credential; a file that is the credential by its path. */
function fromEnvironment(setting: Setting, variable: string, env: Env, problems: string[]): RawValue[] {
  const value = env[variable];
  if (setting.credentialIsFile) {
    const file = value ? { value, origin: variable } : credentialPath(setting.credential!, env);
    return file ? [file] : [];
  }
  if (value && setting.credential && env[`${variable}_FILE`]) {
    problems.push(`both ${variable} and ${variable}_FILE are set; keep one`);
    return [];
  }
  if (value) return [{ value, origin: variable }];
  if (setting.credential) {
    try {
      const secret = readSecretSource(variable, setting.credential, env);
      if (secret) return [secret];
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  return [];
}
