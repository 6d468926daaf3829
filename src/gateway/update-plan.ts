// The zone engine's plan as the gateway makes it: from the records read to the records wanted,
// leaving the SOA, the apex NS and the types ddedge does not manage as the provider has them.
import { planZone, type Plan } from '../zone/plan/plan.js';
import { isZoneType, type LiveRecord, type ZoneRecord } from '../zone/record.js';

/** The provider calls that make `live` into `wanted` (the records the gateway leaves to the provider untouched). */
export function planTo(live: LiveRecord[], wanted: ZoneRecord[], zone: string): Plan {
  const owner = ({ name, type }: { name: string; type: string }) => (type === 'SOA' || (type === 'NS' && name === zone) || !isZoneType(type) ? 'left to the provider' : undefined);
  return planZone(live, { zone, records: wanted.map((r) => ({ ...r, where: 'update' })), notes: [] }, owner);
}
