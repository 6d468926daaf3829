// What a watch or a one-shot listing is given, and the client made of it.
import type { Clock } from '../../lib/clock.js';
import type { Logger } from '../../lib/log.js';
import { EngineClient } from './engine-client.js';
import { parseEngineUrl } from './engine-url.js';
import { DEFAULT_ENGINE_LIMITS, type EngineLimits } from './limits.js';

export interface EngineSettings {
  /** unix:///path/to/docker.sock, or http://HOST:PORT (loopback, a private address, a socket proxy). */
  readonly url: string;
  /** Names the URL's setting in errors (default "--containers"). */
  readonly setting?: string;
  /** Deadlines and the waits between reconnections run on it. */
  readonly clock: Clock;
  readonly logger: Logger;
  readonly bounds?: Partial<EngineLimits>;
}

/** The limits and a client for the settings; throws a ConfigError for a URL that is refused. */
export function engineOf(
  settings: EngineSettings,
  signal?: AbortSignal,
): { limits: EngineLimits; client: EngineClient } {
  const setting = settings.setting ?? '--containers';
  const endpoint = parseEngineUrl(settings.url, setting);
  const limits = { ...DEFAULT_ENGINE_LIMITS, ...settings.bounds };
  const client = new EngineClient({
    endpoint,
    setting,
    clock: settings.clock,
    timeoutMs: limits.requestTimeoutMs,
    maxListBytes: limits.maxListBytes,
    signal,
  });
  return { limits, client };
}
