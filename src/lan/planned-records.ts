// Which records the configuration keeps: an A for every host but those listed in
// --no-ipv4-for, and with --ipv6 an AAAA for every host (the detected address itself, or
// the detected prefix joined with the host's interface identifier).
import type { Config } from '../config/config.js';
import { recordTypeOf, type Family, type RecordType } from '../lib/address.js';

export interface PlannedHost {
  host: string;
  /** Set for a machine behind the router. */
  identifier?: string;
}

export function hostsFor(config: Config, family: Family): PlannedHost[] {
  if (family === 4) return config.hosts.filter((h) => !config.lan.noIpv4For.includes(h)).map((host) => ({ host }));
  if (!config.ipv6) return [];
  return config.hosts.map((host) => ({ host, identifier: config.lan.identifiers[host] }));
}

/** Every (host, type) the agent keeps; records outside it are history (the cache keeps them, metrics do not). */
export function plannedRecords(config: Config): { host: string; type: RecordType }[] {
  return ([4, 6] as const).flatMap((family) =>
    hostsFor(config, family).map(({ host }) => ({ host, type: recordTypeOf(family) })),
  );
}
