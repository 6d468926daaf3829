// The running containers as the engine lists them, read within the limits; each entry set aside
// is said once in a warning that names it. `listRunningContainers` is the one-shot form (the
// `update` command: the containers running at that moment).
import { TransportError } from '../../http/errors.js';
import type { EngineClient } from './engine-client.js';
import type { EngineLimits } from './limits.js';
import type { ContainerSeen } from './news.js';
import { readListedContainer } from './shapes.js';
import { engineOf, type EngineSettings } from './settings.js';

/** Reads the listing (all running containers, or the one of `id`). */
export async function readRunning(
  client: EngineClient,
  limits: EngineLimits,
  warn: (message: string) => void,
  id?: string,
): Promise<ContainerSeen[]> {
  const listing = await client.listRunning(id);
  if (!Array.isArray(listing)) {
    throw new TransportError(
      'malformed',
      `the container listing from ${client.shown} is not a JSON array`,
      client.shown,
    );
  }
  if (listing.length > limits.maxContainers) {
    warn(`the engine lists ${listing.length} running containers; only the first ${limits.maxContainers} are read`);
  }
  const containers: ContainerSeen[] = [];
  for (const entry of listing.slice(0, limits.maxContainers)) {
    const { value, problem } = readListedContainer(entry, limits);
    if (problem) warn(problem);
    if (value && (id === undefined || value.id === id)) containers.push(value);
  }
  return containers;
}

/** The containers running now; throws a ConfigError for a refused URL, a TransportError when unreachable. */
export async function listRunningContainers(settings: EngineSettings): Promise<ContainerSeen[]> {
  const { client, limits } = engineOf(settings);
  return readRunning(client, limits, (message) => settings.logger.warn(`containers: ${message}`));
}
