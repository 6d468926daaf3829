// What a container's names are judged against, from the agent's configuration: the zones it
// serves (--service, else the registered domains of its hosts), the hosts it keeps itself, and
// whether Traefik's rules are read.
import type { Config } from '../config/config.js';
import { registeredDomain } from '../lib/registered-domain.js';
import type { NamingRules } from './labels.js';

export function namingRules(config: Config): NamingRules {
  const zones = config.service ? [config.service] : [...new Set(config.hosts.map(registeredDomain))];
  return { zones, keptHosts: config.hosts, traefik: config.containers?.traefik ?? false };
}
