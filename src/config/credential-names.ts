// Credentials named in the form the user used: a key given as --dyndns-key is "--dyndns-key",
// one read from DDEDGE_DYNDNS_KEY_FILE is that variable. What is missing is named in the form
// of its partner (--dyndns-user given: "--dyndns-key is missing"), and only what is missing.
import type { Config } from './config.js';

export type CredentialPair = 'dyndns' | 'api';

const NAMES = {
  dyndns: { user: ['dyndns-user', 'DDEDGE_DYNDNS_USER'], secret: ['dyndns-key', 'DDEDGE_DYNDNS_KEY', 'dyndns-key'] },
  api: { user: ['api-user', 'DDEDGE_API_USER'], secret: ['api-password', 'DDEDGE_API_PASSWORD', 'api-password'] },
} as const;

const originsOf = (config: Config, pair: CredentialPair) =>
  pair === 'dyndns'
    ? { user: config.origins?.dyndnsUser, secret: config.origins?.dyndnsKey }
    : { user: config.origins?.apiUser, secret: config.origins?.apiPassword };

/** "check --api-user and DDEDGE_API_PASSWORD_FILE": for credentials the provider rejected. */
export function credentialAdvice(config: Config, pair: CredentialPair): string {
  const { user, secret } = originsOf(config, pair);
  return `check ${user ?? NAMES[pair].user[1]} and ${secret ?? NAMES[pair].secret[1]}`;
}

/** What is missing of a pair, named as its partner was given; undefined when both or neither are set. */
export function missingHalf(config: Config, pair: CredentialPair, where = ''): string | undefined {
  const { user, secret } = originsOf(config, pair);
  if (Boolean(user) === Boolean(secret)) return undefined;
  const asFlag = (user ?? secret)!.startsWith('--');
  const [flag, variable, credential] = NAMES[pair].secret;
  if (user) {
    return asFlag
      ? `--${flag} is missing (or --${flag}-file, ${variable}_FILE, the ${credential} credential${where}); ${user} ` +
          `is given`
      : `${variable} is missing (or ${variable}_FILE, or the ${credential} credential${where})`;
  }
  const [userFlag, userVariable] = NAMES[pair].user;
  return `${asFlag ? `--${userFlag}` : userVariable} is missing (${secret} is set)`;
}

/** Both halves, for a pair of which nothing is set, in the form of the other settings given. */
export function bothNames(pair: CredentialPair, asFlags: boolean): string {
  const { user, secret } = NAMES[pair];
  return asFlags ? `--${user[0]} and --${secret[0]}-file` : `${user[1]} and ${secret[1]}`;
}

/** Whether `problems` already says the pair's secret could not be read from its file or credential. */
export function secretUnread(problems: string[], pair: CredentialPair): boolean {
  const [flag, variable, credential] = NAMES[pair].secret;
  const origins = [
    `--${flag}-file:`,
    `${variable}_FILE:`,
    `credential ${credential}:`,
    `credential ddedge_${credential}:`,
  ];
  return problems.some((p) => origins.some((o) => p.startsWith(o)));
}
