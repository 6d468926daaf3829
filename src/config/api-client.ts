// The registrar API client of a configured command (update and daemon through the API, zone,
// api, acme, the gateway): one place that turns the Config into a client, so that each says
// the same thing when the provider rejects the credentials, naming them as the user gave them
// (api-credentials.ts checks first that they are there). Not on the path of a dynamic DNS cycle.
import { ApiClient } from '../api/client.js';
import type { Transport } from '../http/transport.js';
import type { Logger } from '../lib/log.js';
import type { Config } from './config.js';
import { credentialAdvice } from './credential-names.js';

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
