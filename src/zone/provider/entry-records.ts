// A provider entry as the resource record a name server gives for it (the sandbox's name
// server, the gateway's view of a zone), by the rules of the provider's form that
// provider-mapping.ts holds (its defaults, the SRV priority, the empty TXT). A file of its own
// because it needs the DNS wire format (names, character-strings), which `zone plan` and
// `zone apply` never load: in provider-mapping.ts it would be read at every zone command.
import type { DnsEntry } from '../../api/endpoints/service.js';
import { familyOfAddress } from '../../lib/address.js';
import { splitTxt } from '../../dns/wire/txt-strings.js';
import { nameToLabels } from '../../dns/wire/names.js';
import type { DnsRecord } from '../../dns/wire/types.js';
import { countOf, DEFAULT_PRIORITY, DEFAULT_TTL, EMPTY_TXT, srvWithPriority } from './provider-mapping.js';

export { DEFAULT_TTL };

const isName = (value: string): boolean => {
  try {
    nameToLabels(value);
    return true;
  } catch {
    return false;
  }
};

const hostName = (value: string): string | undefined => {
  const name = value.trim().replace(/\.$/, '');
  return isName(name) ? name : undefined;
};

const number = (text: string, fallback: number, max: number): number => {
  const n = Number(text);
  return text.trim() !== '' && Number.isInteger(n) && n >= 0 && n <= max ? n : fallback;
};

/**
 * The resource record a name server gives for `entry` (spec 2.6), owned by `owner`, or
 * undefined when the wire cannot carry its value (a bad address, an SRV without a port): such
 * an entry is left out rather than failing the whole answer.
 */
export function recordOfEntry(entry: DnsEntry, owner: string): DnsRecord | undefined {
  const ttl = number(entry.ttl, DEFAULT_TTL, 0x7fffffff);
  const priority = number(entry.priority, DEFAULT_PRIORITY, 0xffff);
  const value = entry.value;
  switch (entry.type.toUpperCase()) {
    case 'A':
    case 'AAAA': {
      const type = entry.type.toUpperCase() as 'A' | 'AAAA';
      return familyOfAddress(value.trim()) === (type === 'A' ? 4 : 6) ? { name: owner, type, ttl, value: value.trim() } : undefined;
    }
    case 'CNAME':
    case 'NS': {
      const target = hostName(value);
      return target === undefined ? undefined : { name: owner, type: entry.type.toUpperCase() as 'CNAME' | 'NS', ttl, value: target };
    }
    case 'MX': {
      const exchange = hostName(value);
      return exchange === undefined ? undefined : { name: owner, type: 'MX', ttl, value: { preference: priority, exchange } };
    }
    case 'TXT':
      // Served as what the two characters "" stand for (EMPTY_TXT), as the gateway serves them.
      return { name: owner, type: 'TXT', ttl, value: value === EMPTY_TXT ? [''] : splitTxt(value) };
    case 'SRV': {
      // The priority in front of the value is read as the zone engine reads it (fromProvider).
      const parts = value.trim().split(/\s+/);
      const srv = srvWithPriority(value, countOf(entry.priority));
      const [p, weight, port, target] = srv ? [String(srv.priority), ...srv.value.split(' ')] : [String(priority), ...parts];
      const targetName = target === undefined ? undefined : hostName(target);
      if (parts.length < 3 || parts.length > 4 || targetName === undefined || !/^\d+$/.test(`${p}${weight}${port}`)) return undefined;
      const n = [p, weight, port].map(Number) as [number, number, number];
      if (n.some((x) => x > 0xffff)) return undefined;
      return { name: owner, type: 'SRV', ttl, value: { priority: n[0], weight: n[1], port: n[2], target: targetName } };
    }
    case 'CAA': {
      const caa = /^(\d{1,3})\s+([A-Za-z0-9]{1,255})\s+(?:"(.*)"|(\S*))$/.exec(value.trim());
      if (!caa || Number(caa[1]) > 255) return undefined;
      return { name: owner, type: 'CAA', ttl, value: { flags: Number(caa[1]), tag: caa[2]!, value: caa[3] ?? caa[4] ?? '' } };
    }
    default:
      return undefined;
  }
}
