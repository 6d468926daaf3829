// Where `ddedge init` keeps what it asked: one settings file (VARIABLE=value lines, as a dotenv
// file) and each secret in a file of its own in credentials/ beside it. As root that is
// /etc/ddedge (the Debian package's place, which its systemd units read too); as a user,
// $XDG_CONFIG_HOME/ddedge, by default ~/.config/ddedge. Every command reads the file after
// --env-file and ./.env (env-sources.ts).
import { join } from 'node:path';
/** The environment as ddedge reads it (env-sources.ts, which imports this file). */
type Env = Record<string, string | undefined>;

const SYSTEM_SETTINGS_DIR = '/etc/ddedge';
const SETTINGS_FILE_NAME = 'ddedge.env';

/** The folder of the settings file for this user: undefined when a user has no home to keep it in. */
export function initSettingsDir(env: Env, uid: number | undefined): string | undefined {
  if (uid === 0) return SYSTEM_SETTINGS_DIR;
  if (env.XDG_CONFIG_HOME?.startsWith('/')) return join(env.XDG_CONFIG_HOME, 'ddedge');
  return env.HOME?.startsWith('/') ? join(env.HOME, '.config', 'ddedge') : undefined;
}

export const initSettingsFile = (dir: string): string => join(dir, SETTINGS_FILE_NAME);

/** Secrets, one file each, named by their systemd credential (dyndns-key, api-password). */
export const initCredentialsDir = (dir: string): string => join(dir, 'credentials');
