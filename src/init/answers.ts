// What `ddedge init` asks for, and the settings it makes of the answers. The answers are checked
// by the loader every command uses (config/load.ts), so a file init writes is one that
// `ddedge update` reads without complaint.
import type { Env } from '../config/env-sources.js';

/** The answers, as the user gave them (host names as typed: the loader makes them canonical). */
export interface InitAnswers {
  hosts: string;
  /** The hosting service (zone) that holds the hosts, when it is not their registered domain. */
  service?: string;
  dyndnsUser?: string;
  dyndnsKey?: string;
  apiUser?: string;
  apiPassword?: string;
  /** Set only when not the provider's own (a sandbox, a test). */
  dyndnsUrl?: string;
  apiUrl?: string;
}

/** The settings file's lines: no secret is among them. */
export function settingsOf(answers: InitAnswers): Record<string, string> {
  const lines: Record<string, string | undefined> = {
    DDEDGE_HOSTS: answers.hosts,
    DDEDGE_SERVICE: answers.service,
    DDEDGE_DYNDNS_USER: answers.dyndnsUser,
    DDEDGE_API_USER: answers.apiUser,
    DDEDGE_DYNDNS_URL: answers.dyndnsUrl,
    DDEDGE_API_URL: answers.apiUrl,
  };
  return Object.fromEntries(Object.entries(lines).filter((entry): entry is [string, string] => Boolean(entry[1])));
}

/** Each secret by the name of its systemd credential: the file it gets in credentials/. */
export function secretsOf(answers: InitAnswers): Record<string, string> {
  const secrets: Record<string, string | undefined> = {
    'dyndns-key': answers.dyndnsKey,
    'api-password': answers.apiPassword,
  };
  return Object.fromEntries(Object.entries(secrets).filter((entry): entry is [string, string] => Boolean(entry[1])));
}

/** The environment a command will see once the files are written: what the loader checks. */
export function environmentOf(answers: InitAnswers, base: Env): Env {
  const env: Env = { ...settingsOf(answers) };
  if (answers.dyndnsKey) env.DDEDGE_DYNDNS_KEY = answers.dyndnsKey;
  if (answers.apiPassword) env.DDEDGE_API_PASSWORD = answers.apiPassword;
  // Where the check's requests go and how long they may take, as the user's environment says.
  for (const name of ['HOME', 'XDG_STATE_HOME', 'DDEDGE_TIMEOUT', 'NODE_EXTRA_CA_CERTS'])
    if (base[name] !== undefined) env[name] = base[name];
  return env;
}

/** A settings file's text: one VARIABLE=value a line; values that need it are quoted for dotenv. */
export function settingsText(settings: Record<string, string>, command: string): string {
  const lines = Object.entries(settings).map(([name, value]) => `${name}=${quoted(value)}`);
  return (
    `# Written by \`${command}\`; every ddedge command reads it after --env-file and ./.env, and a set\n` +
    `# variable wins over it. Secrets are not here: each is a file in credentials/ beside it.\n` +
    `${lines.join('\n')}\n`
  );
}

const quoted = (value: string): string => (/^[\w.,:/@=+-]*$/.test(value) ? value : `'${value}'`);
