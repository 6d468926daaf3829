// Before init writes anything it asks the provider, through the registrar API, what the zone
// holds: one read of service/dnslist per zone (a call each, a page of 1,000 entries). The
// answer says whether the credentials work and, for each host, what ddedge will find there. A
// host that is a CNAME is refused: neither interface can give it an address beside the alias.
// The dynamic DNS interface has no read; its key is checked by the first update.
import { counted } from '../lib/counted.js';
import { ApiClient } from '../api/client.js';
import { type DnsEntry, service } from '../api/endpoints/service.js';
import type { Config } from '../config/config.js';
import type { Transport } from '../http/transport.js';
import { ConfigError } from '../lib/errors.js';
import type { Logger } from '../lib/log.js';
import { registeredDomain } from '../lib/registered-domain.js';
import { entryMatchesHost } from '../zone/provider/entry-fields.js';

/** The zone's host names shown at most (a zone of hundreds would bury the answer). */
const NAMES_SHOWN = 12;

/** What the provider said, a line each, for the user to read before the files are written. */
export async function checkWithProvider(config: Config, logger: Logger, transport?: Transport): Promise<string[]> {
  if (!config.api.user || !config.api.password)
    return [
      'the dynamic DNS interface has no read: the key is checked by the first `ddedge update`, which says so if the ' +
        'provider refuses it',
    ];
  const client = new ApiClient({
    url: config.api.url,
    user: config.api.user,
    password: config.api.password,
    timeoutMs: config.timeoutMs,
    logger,
    transport,
    authAdvice: 'check the API user and password you gave; the customer area shows them',
  });
  try {
    const lines: string[] = [];
    const problems: string[] = [];
    for (const [zone, hosts] of hostsByZone(config)) {
      const entries: DnsEntry[] = [];
      for await (const page of client.pages<DnsEntry>('service', service.dnsList, { serviceName: zone }))
        entries.push(...page.items);
      lines.push(zoneLine(zone, entries));
      for (const host of hosts) {
        const found = entries.filter((e) => entryMatchesHost(e.name, host, zone));
        const alias = found.find((e) => e.type === 'CNAME');
        if (alias) problems.push(`${host} is a CNAME to ${alias.value}: ddedge cannot give it an address; ${remedy}`);
        else lines.push(hostLine(host, found, config));
      }
    }
    if (problems.length) throw new ConfigError(`init: ${problems.join('; ')}; nothing was written`);
    return lines;
  } finally {
    await client.close();
  }
}

const remedy = 'name the host the alias points to, or remove the CNAME from the zone';

function hostsByZone(config: Config): Map<string, string[]> {
  const zones = new Map<string, string[]>();
  for (const host of config.hosts) {
    const zone = config.service ?? registeredDomain(host);
    zones.set(zone, [...(zones.get(zone) ?? []), host]);
  }
  return zones;
}

function zoneLine(zone: string, entries: DnsEntry[]): string {
  const names = [...new Set(entries.map((e) => e.name))];
  const shown = names.slice(0, NAMES_SHOWN).join(', ');
  const more = names.length > NAMES_SHOWN ? ` and ${names.length - NAMES_SHOWN} more` : '';
  // Records and names both counted: a name holds several records (A, MX, TXT), so a count of
  // records beside a list of fewer names read as names missing.
  return `${zone}: ${counted(entries.length, 'record')} at ${counted(names.length, 'name')} (${shown}${more})`;
}

function hostLine(host: string, found: DnsEntry[], config: Config): string {
  const addresses = found.filter((e) => e.type === 'A' || e.type === 'AAAA').map((e) => `${e.type} ${e.value}`);
  if (addresses.length) return `${host}: ${addresses.join(', ')}; ddedge keeps it up to date`;
  const byDyndns =
    config.dyndns.user && config.api.user ? ' (through the API: dynamic DNS updates only an A entry)' : '';
  return `${host}: no A or AAAA entry yet; the first update creates it${byDyndns}`;
}
