// The three zone commands as functions from settings to results; cli/ prints them.
import { join } from 'node:path';
import { ConfigError } from '../errors.js';
import { acquireLock, type Lock } from '../state/lock.js';
import type { Logger } from '../log.js';
import { applyPlan, chooseMethod, type ApplyOutcome, type Method, type MethodChoice } from './apply.js';
import { backupNumberLine, writeBackup } from './backups.js';
import { checkKeptConflicts } from './kept-conflicts.js';
import { agentRecordsOf } from './agent-records.js';
import { ownership, type Owner } from './ownership.js';
import { planZone, type Change, type Plan } from './plan.js';
import type { ZoneProvider } from './provider-zone.js';
import { safetyProblems, UnsafePlanError } from './safety.js';
import type { WantedZone } from './wanted-zone.js';
import { keepingUnwritable, unwritableRecords } from './unwritable.js';
import { backupAsMasterFile } from './zone-files.js';

export interface PlanSettings {
  service: string;
  hosts: string[];
  ignore: string[];
  keepUnlisted: boolean;
  method: 'auto' | Method;
  /** The agent's state directory: the hosts its state file records are kept like --host. */
  stateDir?: string;
  logger?: Logger;
}

export interface PlanReport {
  plan: Plan;
  method: MethodChoice;
  /** Why --force would be needed (empty when the plan is within the rules). */
  unsafe: string[];
}

export async function planFromProvider(provider: ZoneProvider, wanted: WantedZone, settings: PlanSettings, owner: Owner = ownerOf(settings)): Promise<PlanReport> {
  const live = await provider.list();
  // Records a master file cannot hold are kept (unwritable.ts), unless the file is a backup
  // that holds them exactly.
  const unwritable = unwritableRecords(settings.service, live);
  const plan = planZone(live, wanted, keepingUnwritable(owner, unwritable, wanted), { keepUnlisted: settings.keepUnlisted });
  checkKeptConflicts(plan, wanted);
  return { plan, method: chooseMethod(plan, settings.method), unsafe: safetyProblems(plan) };
}

/** Who owns what: --host, --ignore, and the records the agent's state file holds. */
function ownerOf(settings: PlanSettings): Owner {
  const agent = settings.stateDir === undefined ? undefined : agentRecordsOf(settings.stateDir);
  if (agent?.damage) settings.logger?.warn(`zone: ${agent.damage}; only --host/DDEDGE_HOSTS name the agent's hosts`);
  return ownership({ zone: settings.service, hosts: settings.hosts, ignore: settings.ignore, agent });
}

export interface ApplyReport extends PlanReport {
  backup?: string;
  outcome?: ApplyOutcome;
  /** What still differs from the file after the changes, read back from the provider. */
  drift: Change[];
}

export async function applyFromProvider(
  provider: ZoneProvider,
  wanted: WantedZone,
  settings: PlanSettings & { stateDir: string; force: boolean; logger: Logger; now?: Date },
): Promise<ApplyReport> {
  // One apply per zone at a time, planned under the lock: two applies planned side by side
  // would both make the same creates (duplicates) or fight over the same entries.
  const lock = lockZone(settings.stateDir, settings.service);
  try {
    return await applyLocked(provider, wanted, settings);
  } finally {
    lock.release();
  }
}

function lockZone(stateDir: string, service: string): Lock {
  try {
    return acquireLock(join(stateDir, 'zone-locks', service));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    throw new ConfigError(`zone apply stopped: cannot write the backup under ${stateDir} (${error.message}); nothing was changed (set --state-dir to a writable directory)`);
  }
}

async function applyLocked(
  provider: ZoneProvider,
  wanted: WantedZone,
  settings: PlanSettings & { stateDir: string; force: boolean; logger: Logger; now?: Date },
): Promise<ApplyReport> {
  // Read once: the plan and the read-back after the changes judge by the same owners.
  const owner = ownerOf(settings);
  const report = await planFromProvider(provider, wanted, settings, owner);
  const { plan } = report;
  if (report.unsafe.length && !settings.force) {
    throw new UnsafePlanError(`zone apply stopped: ${report.unsafe.join('; and ')}; nothing was changed (review with ddedge zone plan; --force applies it)`);
  }
  if (!plan.changes.length) return { ...report, drift: [] };
  const header = [`zone ${settings.service} as it was before ddedge zone apply, ${(settings.now ?? new Date()).toISOString()}`, `restore: ddedge zone apply --service ${settings.service} <this file>`];
  let backup: string;
  try {
    backup = writeBackup(settings.stateDir, settings.service, (number) => backupAsMasterFile(settings.service, plan.live, [...header, backupNumberLine(number)]), settings.now);
  } catch (error) {
    // No backup, no change: a zone is never rewritten without a way back.
    throw new ConfigError(`zone apply stopped: cannot write the backup under ${settings.stateDir} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); nothing was changed (set --state-dir to a writable directory)`);
  }
  settings.logger.info(`zone: backup of ${settings.service} written to ${backup}`);
  const outcome = await applyPlan(provider, plan, report.method.method, settings.logger);
  if (outcome.failure) return { ...report, backup, outcome, drift: [] };
  const again = await planFromProvider(provider, wanted, settings, owner);
  return { ...report, backup, outcome, drift: again.plan.changes };
}
