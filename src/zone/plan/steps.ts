// The plan as provider calls, in an order where nothing a user relies on disappears on the
// way: creates and updates before deletes, except where a CNAME must have its name to itself
// (RFC 1034 §3.6.2), where the deletes that free the name go first.
import type { Change } from './plan.js';
import type { LiveRecord, ZoneRecord } from '../record.js';

export interface Step {
  call: 'create' | 'update' | 'delete';
  /** The record created or updated to, or deleted. */
  record: ZoneRecord | LiveRecord;
  /** The entry updated or deleted. */
  entityID?: string;
  change: Change;
}

/** Phases run one after another; the steps of one phase may run side by side. */
export function stepsOf(changes: Change[]): Step[][] {
  const first: Step[] = [];
  const middle: Step[] = [];
  const last: Step[] = [];
  const creates = changes.flatMap((c) => (c.after && (c.action === 'create' || c.replace) ? [c.after] : []));
  // By name, not a scan of the creates per delete: planning stays n log n.
  const created = new Map<string, { cname: boolean }>();
  for (const r of creates) created.set(r.name, { cname: r.type === 'CNAME' || (created.get(r.name)?.cname ?? false) });
  const clashes = (deleted: LiveRecord) => {
    const at = created.get(deleted.name);
    return at !== undefined && (at.cname || deleted.type === 'CNAME');
  };
  for (const change of changes) {
    const { before, after } = change;
    if (change.action === 'create') middle.push({ call: 'create', record: after!, change });
    else if (change.action === 'update' && !change.replace)
      middle.push({ call: 'update', record: after!, entityID: before!.entityID, change });
    else {
      const deletion: Step = { call: 'delete', record: before!, entityID: before!.entityID, change };
      (clashes(before!) ? first : last).push(deletion);
      if (change.action === 'update') middle.push({ call: 'create', record: after!, change });
    }
  }
  return [first, middle, last].filter((phase) => phase.length);
}

export const callCount = (phases: Step[][]): number => phases.reduce((n, p) => n + p.length, 0);

/**
 * callCount(stepsOf(changes)) without making the steps: a replace is two calls (a delete and a
 * create), any other change one. For a plan of 100,000 creates, only counted (the method's
 * choice, the budget), the steps were 100,000 objects made and dropped.
 */
export function callsOf(changes: readonly Change[]): number {
  let calls = changes.length;
  for (const change of changes) if (change.action === 'update' && change.replace) calls++;
  return calls;
}
