// The DHCID records an update added and removed, as the zone engine's changes, so the gateway's
// log line and audit journal name them beside the provider's writes (the value shown in base64,
// as zone files write DHCID; it is a digest anyone may query, never a secret).
import type { Change } from '../../zone/plan/plan.js';
import type { ZoneType } from '../../zone/record.js';
import type { DhcidRecord } from './store.js';

const keyOf = (r: DhcidRecord) => `${r.name} ${r.data} ${r.ttl}`;
// DHCID is not a type the zone engine writes: these changes are only ever logged and journaled.
const shown = (r: DhcidRecord) => ({
  name: r.name,
  type: 'DHCID' as ZoneType,
  ttl: r.ttl,
  value: Buffer.from(r.data, 'hex').toString('base64'),
});

/** The records of `before` gone from `after` (deletes) and those new in it (creates); empty when nothing changed. */
export function dhcidChanges(before: readonly DhcidRecord[], after: readonly DhcidRecord[]): Change[] {
  // By key, not pairwise: a store of tens of thousands of leases is compared at every update.
  const beforeKeys = new Set(before.map(keyOf));
  const afterKeys = new Set(after.map(keyOf));
  const gone = before.filter((b) => !afterKeys.has(keyOf(b)));
  const added = after.filter((a) => !beforeKeys.has(keyOf(a)));
  return [
    ...gone.map((r): Change => ({ action: 'delete', before: { ...shown(r), entityID: 'gateway' } })),
    ...added.map((r): Change => ({ action: 'create', after: shown(r) })),
  ];
}
