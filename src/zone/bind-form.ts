// A whole zone in BIND's canonical form, read back: what ddedge's marks said, said by the file.
import { identityKey } from './live-index.js';
import type { LiveRecord, ZoneRecord } from './record.js';

/**
 * A complete export that BIND's named-compilezone (or any tool writing BIND's canonical form)
 * rewrote: every record carries its TTL, there is no `$TTL`, and no comment is left, so the
 * marks ddedge's export put on the provider's default TTL and on its name servers' glue are
 * gone. The file still says both: the SOA's TTL is the provider's default (what the name
 * servers give records kept at "-"), and the apex NS name the servers whose addresses are glue.
 */
export interface BindForm {
  /** The SOA's TTL: a record written with it matches a live record at the provider's default. */
  defaultTtl: number;
  /** The apex NS targets inside the zone: their addresses, when the zone holds none, are the provider's. */
  nameServers: ReadonlySet<string>;
}

/**
 * Why the plan leaves `record` to the provider: an address of an in-zone name server the zone
 * holds no address for (the export wrote the servers' glue there, and would again); else undefined.
 */
export function providerGlue(record: ZoneRecord, form: BindForm, live: readonly LiveRecord[]): string | undefined {
  if ((record.type !== 'A' && record.type !== 'AAAA') || !form.nameServers.has(record.name)) return undefined;
  if (live.some((r) => r.name === record.name && (r.type === 'A' || r.type === 'AAAA'))) return undefined;
  return `left to the provider (the address of its name server ${record.name})`;
}

/**
 * The wanted records of one name and type, each written with the provider's default TTL read
 * as written without a TTL when the provider holds it so; a record pinned to that same TTL
 * stays pinned, and a new record is created with the TTL it was written with.
 */
export function atProviderDefault(live: readonly LiveRecord[], wanted: ZoneRecord[], defaultTtl: number): ZoneRecord[] {
  if (!wanted.some((w) => w.ttl === defaultTtl) || !live.some((h) => h.ttl === undefined)) return wanted;
  const atDefault = new Set<string>();
  const pinned = new Set<string>();
  for (const h of live) {
    if (h.ttl === undefined) atDefault.add(identityKey(h));
    else if (h.ttl === defaultTtl) pinned.add(identityKey(h));
  }
  return wanted.map((w) => {
    if (w.ttl !== defaultTtl || pinned.has(identityKey(w))) return w;
    const { ttl: _ttl, ...unpinned } = w;
    return atDefault.has(identityKey(unpinned)) ? unpinned : w;
  });
}
