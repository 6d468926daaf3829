// The one core behind every ACME front-end (lego's exec, certbot's hooks, acme.sh): add one
// TXT value at a name and wait until the name servers show it; remove exactly that value.
// What ddedge created is remembered in the state directory until its cleanup.
import type { ApiClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import type { Config } from '../config/config.js';
import { DdedgeError, ExitCode } from '../lib/errors.js';
import type { Logger } from '../lib/log.js';
import { updateAcmeChallenges } from '../state/acme-challenges.js';
import type { Challenge } from './challenge-name.js';
import { waitUntilVisible, type NameServer, type TxtLookup } from './propagation.js';
import { createTxtEntry, deleteTxtEntry, entriesWithValue, txtEntriesAt } from './txt-entries.js';

export interface AcmeContext {
  config: Config;
  logger: Logger;
  client: ApiClient;
  /** How to ask name servers; needed unless `wait` is false. */
  lookup?: TxtLookup;
  /** --dns-server, parsed. */
  servers: NameServer[];
}

export interface PresentReport {
  name: string;
  value: string;
  service: string;
  /** created: ddedge added it; present: the value was there already. */
  action: 'created' | 'present';
  /** Values at the name kept as they were. */
  otherValues: number;
  /** Servers that showed the value; empty with --no-wait. */
  visibleOn: string[];
  waitedMs?: number;
}

export interface CleanupReport {
  name: string;
  value: string;
  service: string;
  /** deleted: ddedge removed it; absent: it was not there. */
  action: 'deleted' | 'absent';
  otherValues: number;
}

export async function presentChallenge(
  context: AcmeContext,
  challenge: Challenge,
  options: { wait: boolean },
): Promise<PresentReport> {
  const report = await updateAcmeChallenges(
    context.config.stateDir,
    async (list): Promise<PresentReport> => {
      const entries = await listEntries(context, challenge);
      const existing = entriesWithValue(entries, challenge.value);
      const otherValues = entries.length - existing.length;
      if (existing.length) {
        context.logger.debug(`${challenge.name} TXT already holds the value; nothing to add`, { otherValues });
        return { ...challenge, action: 'present', otherValues, visibleOn: [] };
      }
      const entityID = await createTxtEntry(context.client, challenge);
      context.logger.debug(`${challenge.name} TXT value added`, { service: challenge.service, entityID, otherValues });
      list.push({ ...challenge, entityID, createdAt: new Date().toISOString() });
      return { ...challenge, action: 'created', otherValues, visibleOn: [] };
    },
    (damage) => context.logger.warn(damage),
  );
  if (!options.wait) return report;
  if (!context.lookup) throw new DdedgeError('no DNS client to check the propagation with', ExitCode.internal);
  const visibility = await waitUntilVisible({
    name: challenge.name,
    value: challenge.value,
    zone: challenge.service,
    servers: context.servers,
    timeoutMs: context.config.acme.propagationTimeoutMs,
    queryTimeoutMs: Math.min(context.config.timeoutMs, 5000),
    lookup: context.lookup,
    logger: context.logger,
  });
  return { ...report, visibleOn: visibility.servers, waitedMs: visibility.waitedMs };
}

export async function cleanupChallenge(context: AcmeContext, challenge: Challenge): Promise<CleanupReport> {
  return updateAcmeChallenges(
    context.config.stateDir,
    async (list): Promise<CleanupReport> => {
      const entries = await listEntries(context, challenge);
      const matching = entriesWithValue(entries, challenge.value);
      let deleted = 0;
      for (const entry of matching) if (await deleteTxtEntry(context.client, challenge, entry.entityID)) deleted++;
      // Forget this value at this name, whether or not the provider still had it.
      for (let i = list.length - 1; i >= 0; i--)
        if (list[i]!.name === challenge.name && list[i]!.value === challenge.value) list.splice(i, 1);
      const otherValues = entries.length - matching.length;
      context.logger.debug(
        deleted
          ? `${challenge.name} TXT value removed`
          : `${challenge.name} TXT does not hold the value; nothing to remove`,
        { service: challenge.service, otherValues },
      );
      return { ...challenge, action: deleted ? 'deleted' : 'absent', otherValues };
    },
    (damage) => context.logger.warn(damage),
  );
}

async function listEntries(context: AcmeContext, challenge: Challenge) {
  try {
    return await txtEntriesAt(context.client, challenge);
  } catch (error) {
    // The registered domain is only a guess at the service: say how to name the right one.
    if (error instanceof ApiError && error.errorCode === 4001) {
      throw new DdedgeError(
        `${challenge.name}: no hosting service ${challenge.service} in this account (${error.errorCodeMsg}); give ` +
          `the service whose zone holds the name with --service`,
        ExitCode.refused,
      );
    }
    throw error;
  }
}
