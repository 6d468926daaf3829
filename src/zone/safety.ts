// octodns-style guard rails: a plan that rewrites much of a zone, deletes all of it, or touches
// its apex, is more often a wrong file than an intended change. Such a plan stops (exit 2)
// unless --force.
import { DdedgeError, ExitCode } from '../errors.js';
import type { Plan } from './plan.js';

/** Zones smaller than this are not held to the share rule (one change would be 10%+). */
export const MIN_RECORDS_FOR_SHARE = 10;
export const MAX_SHARE = 0.3;

/** A plan stopped by the safety rules; --force lets it through. */
export class UnsafePlanError extends DdedgeError {
  constructor(message: string) {
    super(message, ExitCode.usage);
  }
}

/** Why the plan needs --force; empty when it does not. */
export function safetyProblems(plan: Plan): string[] {
  const problems: string[] = [];
  const touching = plan.changes.filter((c) => c.action !== 'create');
  const total = plan.live.length;
  if (total >= MIN_RECORDS_FOR_SHARE && touching.length / total > MAX_SHARE) {
    problems.push(`it would change or delete ${touching.length} of the zone's ${total} records (${percent(touching.length, total)}, more than ${MAX_SHARE * 100}%)`);
  }
  // A small zone is exempt from the share rule, but not from this: an empty file, or the file
  // of another zone, would otherwise wipe it without a word.
  const deletes = plan.changes.filter((c) => c.action === 'delete').length;
  if (total > 0 && deletes === total) problems.push(`it would delete every record of the zone (${total}); is the file the right one?`);
  const apex = touching.filter((c) => c.before?.name === plan.zone);
  if (apex.length) problems.push(`it would change or delete ${apex.length} record${apex.length > 1 ? 's' : ''} at the apex (${plan.zone}: ${[...new Set(apex.map((c) => c.before!.type))].join(', ')})`);
  return problems;
}

/** 40%, or as many decimals as it takes not to read as the limit itself (30.1%, 30.01%). */
function percent(part: number, total: number): string {
  const share = (100 * part) / total;
  for (let digits = 0; digits < 6; digits++) {
    const shown = Number(share.toFixed(digits));
    if (shown > MAX_SHARE * 100) return `${shown}%`;
  }
  return `${share}%`;
}
