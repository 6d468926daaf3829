// The three zone commands as functions from settings to results; cli/ prints them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BusyError, ConfigError } from '../../lib/errors.js';
import { acquireLock, type Lock } from '../../state/lock.js';
import { acquireZoneLock, zoneLockDir } from '../../state/zone-lock.js';
import { folderGoesWithLock, machineZoneLockDir } from '../../state/machine-lock.js';
import type { Logger } from '../../lib/log.js';
import { applyPlan, chooseMethod, type ApplyOutcome, type Method, type MethodChoice } from './apply.js';
import { backupNumberLine, writeBackup } from './backups.js';
import { settleLostAnswer } from './lost-answer-apply.js';
import { checkKeptConflicts } from '../plan/kept-conflicts.js';
import { agentRecordsOf } from '../plan/agent-records.js';
import { ownership, type Owner } from '../plan/ownership.js';
import { planZone, type Change, type Plan } from '../plan/plan.js';
import type { ZoneProvider } from '../provider/provider-zone.js';
import { ownRecordsForMarked } from '../provider/known-records.js';
import { safetyProblems, UnsafePlanError } from '../plan/safety.js';
import { soleRecordAt, type WantedZone } from '../wanted-zone.js';
import { keepingUnwritable, unwritableRecords } from '../plan/unwritable.js';
import { backupAsMasterFile, readableZoneText } from './zone-files.js';
import { IncompleteListingError } from '../provider/zone-listing.js';

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
  /** Why the listing the plan was made from is not known to be complete: the plan cannot be applied. */
  incomplete?: string;
}

export async function planFromProvider(
  provider: ZoneProvider,
  wanted: WantedZone,
  settings: PlanSettings,
  owner: Owner = ownerOf(settings),
): Promise<PlanReport> {
  // The file's records are known: a zone that holds them lists them back sharing their strings.
  const listing = await provider.listing({ known: soleRecordAt(wanted.records) });
  const live = listing.records;
  // Records a master file cannot hold are kept (unwritable.ts), unless the file is a backup
  // that holds them exactly.
  const unwritable = unwritableRecords(settings.service, live, listing.notAsListed);
  ownRecordsForMarked(live, unwritable);
  const plan = planZone(live, wanted, keepingUnwritable(owner, unwritable, wanted), {
    keepUnlisted: settings.keepUnlisted,
  });
  checkKeptConflicts(plan, wanted);
  return {
    plan,
    method: chooseMethod(plan, settings.method),
    unsafe: safetyProblems(plan),
    ...(listing.incomplete ? { incomplete: listing.incomplete } : {}),
  };
}

/** Who owns what: --host, --ignore, and the records the agent's state file holds. */
function ownerOf(settings: PlanSettings, forApply = false): Owner {
  const agent = settings.stateDir === undefined ? undefined : agentRecordsOf(settings.stateDir);
  // An apply fails safe: read as empty, a damaged state would let it delete the agent's hosts.
  if (agent?.damage && forApply)
    throw new ConfigError(
      `zone apply stopped: ${agent.damage}, so the records the agent keeps are not known; nothing was changed ` +
        `(repair or remove the state file, or use another --state-dir)`,
    );
  if (agent?.damage)
    settings.logger?.warn(
      `zone: ${agent.damage}; only --host/DDEDGE_HOSTS name the agent's hosts (apply stops until it is repaired)`,
    );
  return ownership({ zone: settings.service, hosts: settings.hosts, ignore: settings.ignore, agent });
}

export interface ApplyReport extends PlanReport {
  backup?: string;
  outcome?: ApplyOutcome;
  /** What still differs from the file after the changes, read back from the provider. */
  drift: Change[];
  /** Why the zone could not be read back after the changes (they were made; nothing says they hold). */
  readBackError?: unknown;
  /** A call whose answer was lost, when the zone read again holds every change all the same. */
  answerLost?: unknown;
}

export interface ApplySettings extends PlanSettings {
  stateDir: string;
  force: boolean;
  logger: Logger;
  now?: Date;
  /** Called with the plan once it is known to be applied, before the backup and the first change. */
  onPlan?: (report: PlanReport) => void;
  /**
   * The account the zone is changed through (the API's URL and user): another apply of the zone through it holds the
   * zone on this machine, whatever its state directory (state/machine-lock.ts).
   */
  account?: string;
}

export async function applyFromProvider(
  provider: ZoneProvider,
  wanted: WantedZone,
  settings: ApplySettings,
): Promise<ApplyReport> {
  // One apply per zone at a time, planned under the lock: two applies planned side by side
  // would both make the same creates (duplicates) or fight over the same entries.
  const lock = lockZone(settings.stateDir, settings.service);
  let machine: Lock | undefined;
  try {
    machine = settings.account === undefined ? undefined : lockZoneOnMachine(settings.account, settings.service);
    return await applyLocked(provider, wanted, settings);
  } finally {
    machine?.release();
    lock.release();
  }
}

/** The lock's own words are for the agent's cycle; here it is another apply of this zone. */
const busy = (service: string, dir: string) =>
  new BusyError(
    `another ddedge zone apply of ${service}${holderOf(dir)} is running (lock ${join(dir, 'lock')}); nothing ` +
      `was changed; try again when it has finished`,
  );

function lockZone(stateDir: string, service: string): Lock {
  const dir = zoneLockDir(stateDir, service);
  try {
    return acquireZoneLock(stateDir, service);
  } catch (error) {
    if (error instanceof BusyError) throw busy(service, dir);
    if (!(error instanceof ConfigError)) throw error;
    throw new ConfigError(
      `zone apply stopped: cannot write the backup under ${stateDir} (${error.message}); nothing was changed (set ` +
        `--state-dir to a writable directory)`,
    );
  }
}

/** The zone's lock shared by every state directory on this machine (another apply with another --state-dir). */
function lockZoneOnMachine(account: string, service: string): Lock {
  let dir: string | undefined;
  try {
    dir = machineZoneLockDir(account, service);
    return folderGoesWithLock(acquireLock(dir), dir);
  } catch (error) {
    if (error instanceof BusyError && dir) throw busy(service, dir);
    if (!(error instanceof ConfigError)) throw error;
    throw new ConfigError(`zone apply stopped: ${error.message}; nothing was changed`);
  }
}

async function applyLocked(provider: ZoneProvider, wanted: WantedZone, settings: ApplySettings): Promise<ApplyReport> {
  // Read once: the plan and the read-back after the changes judge by the same owners.
  const owner = ownerOf(settings, true);
  const report = await planFromProvider(provider, wanted, settings, owner);
  const { plan } = report;
  if (report.incomplete)
    throw new IncompleteListingError(
      `zone apply stopped: ${report.incomplete}; nothing was changed (no delete, no dnssetzone is made from a ` +
        `listing that may miss entries)`,
    );
  if (report.unsafe.length && !settings.force) {
    throw new UnsafePlanError(
      `zone apply stopped: ${report.unsafe.join('; and ')}; nothing was changed (review with ddedge zone plan; ` +
        `--force applies it)`,
    );
  }
  if (!plan.changes.length) return { ...report, drift: [] };
  const header = [
    `zone ${settings.service} as it was before ddedge zone apply, ${(settings.now ?? new Date()).toISOString()}`,
    `restore: ddedge zone apply --service ${settings.service} <this file>`,
  ];
  let backup: string;
  try {
    backup = writeBackup(
      settings.stateDir,
      settings.service,
      (number) =>
        readableZoneText(
          backupAsMasterFile(settings.service, plan.live, [...header, backupNumberLine(number)]),
          'zone apply stopped: the backup',
        ),
      settings.now,
    );
  } catch (error) {
    // No backup, no change: a zone is never rewritten without a way back.
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(
      `zone apply stopped: cannot write the backup under ${settings.stateDir} ` +
        `(${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); nothing was changed (set ` +
        `--state-dir to a writable directory)`,
    );
  }
  settings.logger.info(`zone: backup of ${settings.service} written to ${backup}`);
  settings.onPlan?.(report);
  const outcome = await applyPlan(provider, plan, report.method.method, settings.logger);
  if (outcome.failure?.uncertain)
    return {
      ...report,
      backup,
      ...(await settleLostAnswer(plan, { ...outcome, failure: outcome.failure }, () =>
        planFromProvider(provider, wanted, settings, owner),
      )),
    };
  if (outcome.failure) return { ...report, backup, outcome, drift: [] };
  // The changes are made: whatever stops the read-back, the report still says what was done.
  try {
    const again = await planFromProvider(provider, wanted, settings, owner);
    if (again.incomplete) throw new IncompleteListingError(again.incomplete);
    return { ...report, backup, outcome, drift: again.plan.changes };
  } catch (error) {
    return { ...report, backup, outcome, drift: [], readBackError: error };
  }
}

/** ` (pid N)` from a lock file's content, or nothing: the message must not depend on it. */
function holderOf(dir: string): string {
  try {
    const pid = /^(\d+) /.exec(readFileSync(join(dir, 'lock'), 'utf8'))?.[1];
    return pid ? ` (pid ${pid})` : '';
  } catch {
    return '';
  }
}
