// Which steps of a plan a listing read after them shows made: the judge of a write whose answer
// was lost (a timeout, a reset connection, a 5xx), which may or may not have been made. Used by
// zone apply and the gateway to report what the provider holds, not what was answered.
import { sameValue, type LiveRecord } from '../record.js';
import type { Step } from './steps.js';

/**
 * The steps whose effect the listing `now` shows, `before` being the listing they were planned
 * from: a create by a new entry of its value (each entry counted once), an update by its entry
 * holding the new value, a delete by its entry gone.
 */
export function stepsHeld(steps: readonly Step[], now: readonly LiveRecord[], before: readonly LiveRecord[]): Step[] {
  const earlier = new Set(before.map((r) => r.entityID));
  // New entries by value, counted: a zone apply may make thousands of creates.
  const fresh = new Map<string, number>();
  for (const r of now) if (!earlier.has(r.entityID)) fresh.set(valueKey(r), (fresh.get(valueKey(r)) ?? 0) + 1);
  const byId = new Map(now.map((r) => [r.entityID, r]));
  return steps.filter((step) => {
    if (step.call === 'create') {
      const left = fresh.get(valueKey(step.record)) ?? 0;
      if (!left) return false;
      fresh.set(valueKey(step.record), left - 1);
      return true;
    }
    const entry = byId.get(step.entityID!);
    if (step.call === 'delete') return entry === undefined;
    return (
      entry !== undefined &&
      sameValue(entry, step.record) &&
      (step.record.ttl === undefined || entry.ttl === step.record.ttl) &&
      (step.record.priority === undefined || entry.priority === step.record.priority)
    );
  });
}

const valueKey = (r: { name: string; type: string; value: string }): string => `${r.name} ${r.type} ${r.value}`;
