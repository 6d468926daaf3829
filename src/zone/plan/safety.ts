// octodns-style guard rails: a plan that rewrites much of what ddedge manages in a zone,
// deletes all of it, or leaves the apex without an address or a mail exchanger, is more often
// a wrong file than an intended change. Such a plan stops (exit 2) unless --force.
//
// The rules count only what the plan may touch: records it keeps (the agent's hosts, ACME
// challenges, --ignore, what it cannot write) would otherwise dilute the share (50 leftover
// challenges let a wrong file rewrite 20 of 30 real records), and creates remove nothing.
// Ordinary edits at the apex (a new SPF text, an MX moved) are not stopped: a rule that fires
// on daily work teaches users to pass --force always, which also switches off the share rule.
import { DdedgeError, ExitCode } from '../../lib/errors.js';
import type { Plan } from './plan.js';
import type { LiveRecord } from '../record.js';

/** Plans touching fewer records than this are not held to the share rule (one change would be 10%+). */
const MIN_RECORDS_FOR_SHARE = 10;
const MAX_SHARE = 0.3;

/** A plan stopped by the safety rules; --force lets it through. */
export class UnsafePlanError extends DdedgeError {
  constructor(message: string) {
    super(message, ExitCode.usage);
  }
}

/** The apex record sets whose last record a plan must not remove without --force. */
const APEX_SETS: { label: string; types: readonly string[] }[] = [
  { label: 'A/AAAA', types: ['A', 'AAAA'] },
  { label: 'MX', types: ['MX'] },
];

/** Why the plan needs --force; empty when it does not. */
export function safetyProblems(plan: Plan): string[] {
  const problems: string[] = [];
  let rewrites = 0;
  let deletes = 0;
  // Indexed loops: a for-of makes an iterator result for each of 100,000 changes until it is optimized.
  const { changes } = plan;
  for (let i = 0; i < changes.length; i++) {
    const { action } = changes[i]!;
    if (action === 'update') rewrites++;
    else if (action === 'delete') deletes++;
  }
  const touched = rewrites + deletes;
  const total = plan.touchable;
  const keptCount = plan.live.length - total;
  if (total >= MIN_RECORDS_FOR_SHARE && touched / total > MAX_SHARE) {
    const of = keptCount ? `the ${total} records it may touch` : `the zone's ${total} records`;
    const aside = keptCount
      ? `; the ${keptCount} record${keptCount > 1 ? 's' : ''} it keeps ${keptCount > 1 ? 'are' : 'is'} not counted`
      : '';
    problems.push(
      `it would change or delete ${touched} of ${of} (${percent(touched, total)}, more than ` +
        `${MAX_SHARE * 100}%${aside})`,
    );
  }
  // A small zone is exempt from the share rule, but not from this: an empty file, or the file
  // of another zone, would otherwise wipe it without a word.
  if (total > 0 && deletes === total) {
    problems.push(
      keptCount
        ? `it would delete every record of the zone that it may touch (${total}; ` +
            `${keptCount > 1 ? `the ${keptCount} records it keeps stay` : 'the one record it keeps stays'}); ` +
            'is the file the right one?'
        : `it would delete every record of the zone (${total}); is the file the right one?`,
    );
  }
  for (const set of APEX_SETS) {
    const removed = apexRemoval(plan, set.types);
    if (removed) problems.push(`it would delete every ${set.label} record at the apex (${plan.zone}: ${removed})`);
  }
  return problems;
}

/**
 * How many records of these types at the apex the plan deletes when it leaves none there;
 * 0 when some remain (kept, unchanged, updated or created) or none are deleted.
 */
function apexRemoval(plan: Plan, types: readonly string[]): number {
  const { zone } = plan;
  const present = countAtApex(plan.live, zone, types);
  let deleted = 0;
  let created = 0;
  for (let i = 0; i < plan.changes.length; i++) {
    const c = plan.changes[i]!;
    if (c.action === 'delete' && atApex(c.before, zone, types)) deleted++;
    else if (c.action === 'create' && atApex(c.after, zone, types)) created++;
  }
  return deleted > 0 && present - deleted + created === 0 ? deleted : 0;
}

/** A loop of its own over the live zone (100,000 records), optimized by itself, not with the changes' loop. */
function countAtApex(live: readonly LiveRecord[], zone: string, types: readonly string[]): number {
  let present = 0;
  for (let i = 0; i < live.length; i++) if (atApex(live[i], zone, types)) present++;
  return present;
}

/**
 * One function for every set of types, not a closure made per call: optimized code that inlined the first call's
 * closure was thrown away at the second (a loop over 100,000 records each time).
 */
const atApex = (r: { name: string; type: string } | undefined, zone: string, types: readonly string[]): boolean =>
  r !== undefined && r.name === zone && types.includes(r.type);

/** 40%, or as many decimals as it takes not to read as the limit itself (30.1%, 30.01%). */
function percent(part: number, total: number): string {
  const share = (100 * part) / total;
  for (let digits = 0; digits < 6; digits++) {
    const shown = Number(share.toFixed(digits));
    if (shown > MAX_SHARE * 100) return `${shown}%`;
  }
  return `${share}%`;
}
