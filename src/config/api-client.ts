// The registrar API client of a configured command (update and daemon through the API, zone,
// api, acme, the gateway): one place that turns the Config into a client, so that each says
// the same thing when the provider rejects the credentials, naming them as the user gave them,
// and one check that the credentials are there. Not on the path of a dynamic DNS cycle.
import { ApiClient } from '../api/client.js';
import type { Transport } from '../http/transport.js';
import { ConfigError } from '../lib/errors.js';
import type { Logger } from '../lib/log.js';
import { hasApiCredentials, type Config } from './config.js';
import { bothNames, credentialAdvice, missingHalf, secretUnread } from './credential-names.js';

export interface ApiClientFromOptions {
  /** Carries the requests (one that counts the calls against a budget, a zone's wire); default a pool of undici. */
  transport?: Transport;
}

/** For a Config whose API credentials were checked (requireApiCredentials, or the loader's checks). */
export function apiClientFrom(config: Config, logger: Logger, options: ApiClientFromOptions = {}): ApiClient {
  return new ApiClient({
    url: config.api.url,
    user: config.api.user!,
    password: config.api.password!,
    timeoutMs: config.timeoutMs,
    logger,
    transport: options.transport,
    authAdvice: credentialAdvice(config, 'api'),
  });
}

/**
 * The one check of the commands that work through the registrar API (zone, api, acme, gateway):
 * only what is missing, named as its partner was given; nothing when a secret's file could not
 * be read (`problems` says so already).
 */
export function apiCredentialsProblem(config: Config, problems: string[] = []): string | undefined {
  if (hasApiCredentials(config) || secretUnread(problems, 'api')) return undefined;
  return missingHalf(config, 'api') ?? `set ${bothNames('api', false)} (or --api-user, DDEDGE_API_PASSWORD_FILE, the api-password credential)`;
}

/** Exit 2 before anything is sent when the registrar API's credentials are missing; `what` leads the message. */
export function requireApiCredentials(config: Config, what: string): void {
  const problem = apiCredentialsProblem(config);
  if (problem) throw new ConfigError(`${what}: ${problem}`);
}
