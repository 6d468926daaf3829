// A record of the zone (as read from the provider, or as an update leaves it) as the resource
// record a name server answers with: TTL and priority as numbers, the provider's defaults for
// those it leaves out, the value in wire form. Values the wire cannot carry (a bad address, an
// SRV without a port) give none, rather than failing the whole answer. The one reading for the
// gateway's records and the sandbox's entries (entry-records.ts reads an entry's fields and asks
// this), by the provider's rules that entry-fields.ts and provider-mapping.ts hold. Apart because it
// needs the DNS wire format, which `zone plan` and `zone apply` never load.
import { familyOfAddress } from '../../lib/address.js';
import { splitTxt } from '../../dns/wire/txt-strings.js';
import { nameToLabels } from '../../dns/wire/names.js';
import type { DnsRecord } from '../../dns/wire/types.js';
import { DEFAULT_PRIORITY, DEFAULT_TTL, txtOfValue } from './entry-fields.js';
import { srvWithPriority } from './provider-mapping.js';
import { hasPriority, type LiveRecord } from '../record.js';

const MAX_TTL = 0x7fffffff;

const hostName = (value: string): string | undefined => {
  const name = value.trim().replace(/\.$/, '');
  try {
    nameToLabels(name);
    return name;
  } catch {
    return undefined;
  }
};

/** The record as served at its own name, or undefined when its value cannot be. */
export function servedRecord(r: Omit<LiveRecord, 'entityID'>): DnsRecord | undefined {
  const type = r.type.toUpperCase();
  const ttl = r.ttl !== undefined && r.ttl <= MAX_TTL ? r.ttl : DEFAULT_TTL;
  const given = hasPriority(type) ? (r.priority ?? DEFAULT_PRIORITY) : DEFAULT_PRIORITY;
  const priority = given <= 0xffff ? given : DEFAULT_PRIORITY;
  const { name, value } = r;
  switch (type) {
    case 'A':
    case 'AAAA':
      return familyOfAddress(value.trim()) === (type === 'A' ? 4 : 6)
        ? { name, type, ttl, value: value.trim() }
        : undefined;
    case 'CNAME':
    case 'NS': {
      const target = hostName(value);
      return target === undefined ? undefined : { name, type, ttl, value: target };
    }
    case 'MX': {
      const exchange = hostName(value);
      return exchange === undefined ? undefined : { name, type, ttl, value: { preference: priority, exchange } };
    }
    case 'TXT':
      // The text itself; the two characters "" are what an empty TXT is held as at the provider.
      return { name, type, ttl, value: splitTxt(txtOfValue(value)) };
    case 'SRV': {
      // `weight port target`, the priority apart; `priority weight port target` is read too, its
      // own priority field first, as the zone engine reads it (provider-mapping.ts).
      const parts = value.trim().split(/\s+/);
      const srv = srvWithPriority(value, r.priority);
      const [p, weight, port, target] = srv
        ? [String(srv.priority), ...srv.value.split(' ')]
        : [String(priority), ...parts];
      const targetName = target === undefined ? undefined : hostName(target);
      if (parts.length < 3 || parts.length > 4 || targetName === undefined || !/^\d+$/.test(`${p}${weight}${port}`))
        return undefined;
      const n = [p, weight, port].map(Number) as [number, number, number];
      if (n.some((x) => x > 0xffff)) return undefined;
      return { name, type, ttl, value: { priority: n[0], weight: n[1], port: n[2], target: targetName } };
    }
    case 'CAA': {
      const caa = /^(\d{1,3})\s+([A-Za-z0-9]{1,255})\s+(?:"(.*)"|(\S*))$/.exec(value.trim());
      if (!caa || Number(caa[1]) > 255) return undefined;
      return { name, type, ttl, value: { flags: Number(caa[1]), tag: caa[2]!, value: caa[3] ?? caa[4] ?? '' } };
    }
    default:
      return undefined;
  }
}
