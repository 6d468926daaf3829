// The zone engine's plan as the gateway makes it: from the records read to the records wanted,
// leaving the provider's records (SOA, apex NS, the types ddedge does not manage) as the
// provider has them. The records others keep (the agent's, ddedge acme's) are judged change by
// change, against the key's grants (kept-records.ts): both by the zone's one ownership policy.
import { providerOwnership } from '../../zone/plan/ownership.js';
import { planZone, type Plan } from '../../zone/plan/plan.js';
import type { LiveRecord, ZoneRecord } from '../../zone/record.js';

/** The provider calls that make `live` into `wanted` (the records the gateway leaves to the provider untouched). */
export function planTo(live: LiveRecord[], wanted: ZoneRecord[], zone: string): Plan {
  return planZone(
    live,
    { zone, records: wanted.map((r) => ({ ...r, where: 'update' })), notes: [] },
    providerOwnership(zone),
  );
}
