// Keeping a DNS-PERSIST-01 record: at _validation-persist.DOMAIN exactly one TXT record for the
// issuer, with exactly the wanted text. Records for other issuers (several CAs may be
// authorised at once) and any other TXT text there are never touched. An equal record (same text,
// and the same TTL when one is asked) costs one read and no write; a different one for the issuer
// (another text or TTL) is updated in place, keeping its TTL unless one is asked (and any second one
// for it deleted: a CA would take the first that validates, whichever it is). Remove deletes
// every record for the issuer. What is kept is remembered in the state directory, for the
// daemon's warning before persistUntil.
import { ApiError } from '../api/errors.js';
import { DdedgeError, ExitCode } from '../lib/errors.js';
import type { Logger } from '../lib/log.js';
import { updatePersisted, type PersistedRecord } from '../state/acme-persisted.js';
import type { ZoneProvider } from '../zone/provider/provider-zone.js';
import type { LiveRecord } from '../zone/record.js';
import { formatPersistRecord, parsePersistRecord } from './persist-record.js';
import type { PersistTarget } from './persist-target.js';

export interface PersistContext {
  provider: ZoneProvider;
  stateDir: string;
  logger: Logger;
  /** When the record was written, for the state (default now). */
  now?: () => Date;
}

export interface PersistReport {
  name: string;
  service: string;
  issuer: string;
  /** The record's text as written (absent after a removal). */
  record?: string;
  /** created, updated, unchanged; with --remove: deleted, absent. */
  action: 'created' | 'updated' | 'unchanged' | 'deleted' | 'absent';
  /** TXT records at the name left as they were (other issuers, other texts). */
  otherRecords: number;
}

export async function keepPersistRecord(context: PersistContext, target: PersistTarget): Promise<PersistReport> {
  const wanted = formatPersistRecord(target);
  return updatePersisted(
    context.stateDir,
    async (kept) => {
      const { ours, others } = await recordsAt(context, target);
      const asked = target.ttl === undefined ? {} : { ttl: target.ttl };
      const equal = ours.find((r) => r.value === wanted && (target.ttl === undefined || r.ttl === target.ttl));
      const keep = equal ?? ours.find((r) => r.value === wanted) ?? ours[0];
      let action: PersistReport['action'] = 'unchanged';
      if (!keep) {
        await context.provider.create({ name: target.name, type: 'TXT', value: wanted, ...asked });
        action = 'created';
      } else if (!equal) {
        await context.provider.update(keep.entityID, {
          name: target.name,
          type: 'TXT',
          ttl: keep.ttl,
          ...asked,
          value: wanted,
        });
        action = 'updated';
      }
      for (const extra of ours) if (extra !== keep) await context.provider.delete(extra.entityID);
      if (action === 'unchanged' && ours.length > 1) action = 'updated';
      context.logger.debug(`${target.name} TXT for ${target.issuer}: ${action}`, { otherRecords: others });
      const changed = remember(kept, target, (context.now?.() ?? new Date()).toISOString());
      return { result: { ...reportOf(target, action, others), record: wanted }, changed };
    },
    (damage) => context.logger.warn(damage),
  );
}

export async function removePersistRecord(
  context: PersistContext,
  target: Pick<PersistTarget, 'name' | 'service' | 'issuer' | 'domain'>,
): Promise<PersistReport> {
  return updatePersisted(
    context.stateDir,
    async (kept) => {
      const { ours, others } = await recordsAt(context, target);
      for (const record of ours) await context.provider.delete(record.entityID);
      const before = kept.length;
      for (let i = kept.length - 1; i >= 0; i--)
        if (kept[i]!.name === target.name && kept[i]!.issuer === target.issuer) kept.splice(i, 1);
      const action = ours.length ? 'deleted' : 'absent';
      context.logger.debug(`${target.name} TXT for ${target.issuer}: ${action}`, { otherRecords: others });
      return { result: reportOf(target, action, others), changed: kept.length !== before };
    },
    (damage) => context.logger.warn(damage),
  );
}

const reportOf = (
  target: Pick<PersistTarget, 'name' | 'service' | 'issuer'>,
  action: PersistReport['action'],
  otherRecords: number,
): PersistReport => ({ name: target.name, service: target.service, issuer: target.issuer, action, otherRecords });

/** The TXT records at the name for the issuer (readable or not), and how many others there are. */
async function recordsAt(
  context: PersistContext,
  target: Pick<PersistTarget, 'name' | 'service' | 'issuer'>,
): Promise<{ ours: LiveRecord[]; others: number }> {
  let live: LiveRecord[];
  try {
    live = await context.provider.listNames([target.name]);
  } catch (error) {
    // The registered domain is only a guess at the service: say how to name the right one.
    if (error instanceof ApiError && error.errorCode === 4001)
      throw new DdedgeError(
        `${target.name}: no hosting service ${target.service} in this account (${error.errorCodeMsg}); give the ` +
          'service whose zone holds the name with --service',
        ExitCode.refused,
      );
    throw error;
  }
  const txt = live.filter((r) => r.type === 'TXT' && r.name === target.name);
  const ours = txt.filter((r) => parsePersistRecord(r.value).issuer === target.issuer);
  return { ours, others: txt.length - ours.length };
}

/** Puts the target in the kept list (one entry per name and issuer); says whether the list changed. */
function remember(kept: PersistedRecord[], target: PersistTarget, at: string): boolean {
  const index = kept.findIndex((r) => r.name === target.name && r.issuer === target.issuer);
  const previous = index < 0 ? undefined : kept[index];
  const entry: PersistedRecord = {
    name: target.name,
    domain: target.domain,
    service: target.service,
    issuer: target.issuer,
    accountUri: target.accountUri,
    wildcard: target.wildcard,
    ...(target.persistUntil === undefined ? {} : { persistUntil: target.persistUntil }),
    writtenAt: at,
    // A warning already sent stays sent for the same persistUntil.
    ...(previous?.warnedFor !== undefined && previous.warnedFor === target.persistUntil
      ? { warnedFor: previous.warnedFor }
      : {}),
  };
  if (previous && sameEntry(previous, entry)) return false;
  if (index < 0) kept.push(entry);
  else kept[index] = entry;
  return true;
}

const sameEntry = (a: PersistedRecord, b: PersistedRecord): boolean =>
  a.service === b.service &&
  a.accountUri === b.accountUri &&
  a.wildcard === b.wildcard &&
  a.persistUntil === b.persistUntil &&
  a.warnedFor === b.warnedFor;
