// A plan, an apply and their outcome as text lines (master-file notation, so a reviewer reads
// records as in the file) and as the contract's JSON document. No printing here.
import { ExitCode, exitCodeOf } from '../../lib/errors.js';
import type { ApplyReport, PlanReport } from './session.js';
import { toJsonRecord, type JsonRecord } from '../file/json-form.js';
import { rdataOf, visible } from '../file/master-writer.js';
import { relativeName } from '../../lib/names.js';
import { summarize, type Change } from '../plan/plan.js';
import type { LiveRecord, ZoneRecord } from '../record.js';
import type { Step } from '../plan/steps.js';
import { counted } from '../../lib/counted.js';

type AnyRecord = Omit<ZoneRecord, 'type'> & { type: string };

const recordLine = (zone: string, r: AnyRecord): string =>
  `${visible(relativeName(r.name, zone))} ${r.ttl === undefined ? '' : `${r.ttl} `}IN ${visible(r.type)} ${rdataOf(r)}`;

/** How the lines are for: a plan (what apply would need) or an apply with --force (what it overrides). */
export interface PlanLineOptions {
  force?: boolean;
}

/**
 * The plan as lines, made as they are read: a plan of 100,000 changes is never 100,000 strings
 * at once (the caller writes them a batch at a time).
 */
export function* planLines(report: PlanReport, options: PlanLineOptions = {}): Generator<string, void, undefined> {
  const { plan, method } = report;
  const s = summarize(plan);
  const how =
    method.calls === 0
      ? 'no calls'
      : method.method === 'setzone'
        ? `one service/dnssetzone call instead of ${method.callsOneByOne}`
        : `${method.calls} call${method.calls > 1 ? 's' : ''}, one by one`;
  yield `zone ${plan.zone}: ${s.create} to create, ${s.update} to update, ${s.delete} to delete, ${s.unchanged} ` +
    `unchanged (${how})`;
  for (const c of plan.changes) yield changeLine(plan.zone, c);
  for (const k of plan.kept)
    yield `  keep    ${visible(relativeName(k.name, plan.zone))} ` +
      `${visible(k.type)}${k.value !== undefined ? ` ${visible(k.value)}` : ''}  (${k.reason})`;
  if (report.unsafe.length)
    yield options.force
      ? `--force: applied although ${report.unsafe.join('; and ')}`
      : `apply needs --force: ${report.unsafe.join('; and ')}`;
  if (report.incomplete) yield* incompleteLines(report.incomplete);
}

/** The warning under a plan made from a listing that may miss entries (zone plan exits 4 after it). */
function incompleteLines(reason: string): string[] {
  return [
    `warning: this plan is not reliable: ${reason}.`,
    '  Entries the listing missed would be shown as deletes, and records the file holds as creates; apply refuses ' +
      'it (exit 4) and changes nothing.',
  ];
}

function changeLine(zone: string, c: Change): string {
  if (c.action === 'create') return `  create  ${recordLine(zone, c.after!)}`;
  if (c.action === 'delete') return `  delete  ${recordLine(zone, c.before!)}`;
  return (
    `  update  ${recordLine(zone, c.after!)}  (was ${recordLine(zone, c.before!)}` +
    `${c.replace ? '; delete and create: the TTL goes back to the default' : ''})`
  );
}

const stepLine = (zone: string, s: Step): string => `  ${s.call.padEnd(7)} ${recordLine(zone, s.record)}`;

/** What apply did, for the text output; empty when it had nothing to do. */
export function applyLines(report: ApplyReport): string[] {
  const { outcome, plan } = report;
  if (!outcome) return [];
  const lines: string[] = [];
  if (outcome.failure) {
    const where = outcome.failure.step
      ? `${outcome.failure.step.call} of ${recordLine(plan.zone, outcome.failure.step.record)}`
      : 'service/dnssetzone';
    lines.push(`stopped: the ${where} failed: ${(outcome.failure.error as Error).message}`);
    if (outcome.failure.uncertain)
      lines.push(
        `  its answer (a 5xx, a timeout or a lost connection) does not say whether the provider made ` +
          `it${
            outcome.failure.made === undefined
              ? ''
              : `; read again, the zone shows it ` +
                `${outcome.failure.made ? 'was made' : 'was not made'} ` +
                `(done and not done below are as the provider holds them)`
          }: ` +
          `ddedge zone plan with the same file shows what is left`,
      );
    lines.push(`done (${outcome.done.length}):`, ...outcome.done.map((s) => stepLine(plan.zone, s)));
    lines.push(`not done (${outcome.notDone.length}):`, ...outcome.notDone.map((s) => stepLine(plan.zone, s)));
    // Not "retry later" alone: the zone is now between the two, and a second apply finishes it.
    if (applyExitCode(report) === ExitCode.partial)
      lines.push(
        `partial (exit 5): the zone is part way to the file; ddedge zone apply with the same file makes what is left`,
      );
  } else if (report.readBackError !== undefined) {
    lines.push(
      `made ${counted(outcome.done.length, 'call')}, but the zone could not be read ` +
        `back to check them: ${(report.readBackError as Error).message}`,
    );
    lines.push('  run ddedge zone plan with the same file to see what is left');
  } else if (report.drift.length) {
    lines.push(
      `made ${counted(outcome.done.length, 'call')}, but the zone read back still ` + `differs from the file:`,
      ...report.drift.map((c) => changeLine(plan.zone, c)),
    );
  } else {
    if (report.answerLost !== undefined)
      lines.push(
        `the answer to a call was lost (${(report.answerLost as Error).message}); read again, the zone holds every ` +
          `change`,
      );
    // Counted as the plan counts them: a change of value may take two calls (a delete and a create).
    const how =
      outcome.method === 'setzone'
        ? 'one service/dnssetzone call'
        : `${counted(outcome.done.length, 'call')}, at most ${outcome.maxInFlight} in flight`;
    lines.push(`applied ${counted(plan.changes.length, 'change')} (${how}); the zone read back matches the file`);
  }
  if (report.backup) lines.push(`backup: ${report.backup} (ddedge zone apply ${report.backup} restores it)`);
  return lines;
}

const jsonOf = (r: AnyRecord | undefined): JsonRecord | null => (r ? toJsonRecord(r) : null);
const jsonChange = (c: Change) => ({
  action: c.action,
  name: (c.after ?? c.before)!.name,
  type: (c.after ?? c.before)!.type,
  before: jsonOf(c.before),
  after: jsonOf(c.after),
});
const jsonStep = (s: Step) => ({ call: s.call, record: toJsonRecord(s.record as LiveRecord) });

export function planJson(report: PlanReport): Record<string, unknown> {
  const { plan, method } = report;
  return {
    service: plan.zone,
    changes: plan.changes.map(jsonChange),
    kept: plan.kept.map((k) => ({ name: k.name, type: k.type, reason: k.reason })),
    summary: summarize(plan),
    method: method.method,
    calls: method.calls,
    ...(report.unsafe.length ? { needsForce: report.unsafe } : {}),
    ...(report.incomplete ? { incompleteListing: report.incomplete } : {}),
  };
}

export function applyJson(report: ApplyReport, exitCode: number): Record<string, unknown> {
  const { outcome } = report;
  return {
    ...planJson(report),
    ...(outcome ? { method: outcome.method } : {}),
    backup: report.backup ?? null,
    done: outcome?.done.map(jsonStep) ?? [],
    notDone: outcome?.notDone.map(jsonStep) ?? [],
    ...(outcome?.failure?.uncertain ? { failedCallMayHaveBeenMade: true } : {}),
    ...(outcome?.failure?.made !== undefined ? { failedCallMade: outcome.failure.made } : {}),
    ...(report.answerLost !== undefined ? { answerLost: (report.answerLost as Error).message } : {}),
    error: outcome?.failure
      ? (outcome.failure.error as Error).message
      : report.readBackError !== undefined
        ? `read back: ${(report.readBackError as Error).message}`
        : null,
    drift: report.drift.map(jsonChange),
    exitCode,
  };
}

/**
 * The contract's code for an apply: the refusal's own code, 7 for drift, else 0. A transient
 * failure (4: retry later) after changes were made is 5, partial: the output lists them.
 */
export function applyExitCode(report: ApplyReport): number {
  const { outcome } = report;
  const madeChanges = Boolean(outcome?.done.length);
  if (outcome?.failure) {
    const code = exitCodeOf(outcome.failure.error);
    // Read again after a lost answer, the zone says whether anything was made (done is what it holds).
    return code === ExitCode.transient && (madeChanges || (outcome.failure.uncertain && outcome.failure.made !== false))
      ? ExitCode.partial
      : code;
  }
  if (report.readBackError !== undefined) return madeChanges ? ExitCode.partial : exitCodeOf(report.readBackError);
  return report.drift.length ? 7 : 0;
}
