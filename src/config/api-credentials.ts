// The one check of the commands that work through the registrar API (zone, api, acme, the
// gateway) that its credentials are there, before anything is sent (exit 2). Apart from the
// client (api-client.ts), so that the gateway checks its settings without loading the API.
import { ConfigError } from '../lib/errors.js';
import { hasApiCredentials, type Config } from './config.js';
import { bothNames, missingHalf, secretUnread } from './credential-names.js';

/**
 * Only what is missing, named as its partner was given; nothing when a secret's file could not
 * be read (`problems` says so already).
 */
export function apiCredentialsProblem(config: Config, problems: string[] = []): string | undefined {
  if (hasApiCredentials(config) || secretUnread(problems, 'api')) return undefined;
  return (
    missingHalf(config, 'api') ??
    `set ${bothNames('api', false)} (or --api-user, DDEDGE_API_PASSWORD_FILE, the api-password credential)`
  );
}

/** Exit 2 before anything is sent when the registrar API's credentials are missing; `what` leads the message. */
export function requireApiCredentials(config: Config, what: string): void {
  const problem = apiCredentialsProblem(config);
  if (problem) throw new ConfigError(`${what}: ${problem}`);
}
