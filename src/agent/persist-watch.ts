// The DNS-PERSIST-01 records `acme persist` keeps, watched by the daemon: what it knows of them is
// the state `acme persist` wrote (<state dir>/acme/persisted.json), so watching costs no DNS query
// and no provider call. A record whose persistUntil is 14 days away or less (or past) is shown on
// the status page, and told once per persistUntil (notification event persist-expiring, and a
// warning in the log): writing a new persistUntil arms the warning again.
import type { Logger } from '../lib/log.js';
import { outsideText } from '../lib/outside-text.js';
import type { NotifyEvent } from '../notify/message.js';
import { readPersisted, updatePersisted, type PersistedRecord } from '../state/acme-persisted.js';

/** How long before persistUntil people are told. */
export const PERSIST_WARN_DAYS = 14;
const DAY_MS = 86_400_000;

export interface PersistedRow {
  name: string;
  issuer: string;
  accountUri: string;
  wildcard: boolean;
  /** ISO time; absent: the record does not expire. */
  persistUntil?: string;
  status: 'valid' | 'expiring' | 'expired' | 'no expiry';
  /** In words, for the page and the notification. */
  text: string;
}

const isoOf = (seconds: number): string => new Date(seconds * 1000).toISOString().replace(/\.000Z$/, 'Z');

function persistedRow(record: PersistedRecord, nowMs: number): PersistedRow {
  const base = {
    name: record.name,
    issuer: record.issuer,
    accountUri: record.accountUri,
    wildcard: record.wildcard,
  };
  if (record.persistUntil === undefined)
    return { ...base, status: 'no expiry', text: `valid for ${record.issuer} with no expiry (no persistUntil)` };
  const until = isoOf(record.persistUntil);
  const leftMs = record.persistUntil * 1000 - nowMs;
  const extend =
    `; extend it: ddedge acme persist ${record.domain} --issuer ${record.issuer} --account-uri ${record.accountUri}` +
    `${record.wildcard ? ' --wildcard' : ''} --until TIME`;
  if (leftMs < 0)
    return {
      ...base,
      persistUntil: until,
      status: 'expired',
      text: `${record.issuer} refuses it since ${until} (persistUntil has passed)${extend}`,
    };
  if (leftMs <= PERSIST_WARN_DAYS * DAY_MS) {
    const days = Math.floor(leftMs / DAY_MS);
    const left = days >= 1 ? `in ${days} day${days === 1 ? '' : 's'}` : 'within a day';
    return {
      ...base,
      persistUntil: until,
      status: 'expiring',
      text: `${record.issuer} stops accepting it at ${until}, ${left}${extend}`,
    };
  }
  return { ...base, persistUntil: until, status: 'valid', text: `valid for ${record.issuer} until ${until}` };
}

/** Every kept record as the page shows it, soonest persistUntil first; a damaged file is a problem line. */
export function persistedRows(stateDir: string, nowMs: number): { rows: PersistedRow[]; problem?: string } {
  const { records, damage } = readPersisted(stateDir);
  const rows = records
    .slice()
    .sort((a, b) => (a.persistUntil ?? Infinity) - (b.persistUntil ?? Infinity) || a.name.localeCompare(b.name))
    .map((r) => persistedRow(r, nowMs));
  return damage ? { rows, problem: damage } : { rows };
}

/**
 * The warnings not yet given: each record within PERSIST_WARN_DAYS of its persistUntil (or past it) whose warning was
 * not given for that persistUntil. Marks them given (under the acme lock) and logs each; never throws.
 */
export async function persistExpiryNotices(stateDir: string, now: Date, logger: Logger): Promise<NotifyEvent[]> {
  try {
    // Nothing due (the usual cycle): a read, no lock taken.
    if (!readPersisted(stateDir).records.some((r) => due(r, now.getTime()))) return [];
    return await updatePersisted(
      stateDir,
      async (records) => {
        const events: NotifyEvent[] = [];
        for (const record of records) {
          if (!due(record, now.getTime())) continue;
          record.warnedFor = record.persistUntil;
          const row = persistedRow(record, now.getTime());
          const message = outsideText(`${record.name}: the DNS-PERSIST-01 record: ${row.text}`, 900);
          logger.warn(message);
          events.push({
            event: 'persist-expiring',
            time: now.toISOString(),
            host: record.domain,
            new: row.persistUntil,
            message,
          });
        }
        return { result: events, changed: events.length > 0 };
      },
      (damage) => logger.warn(damage),
    );
  } catch (error) {
    logger.warn(`the DNS-PERSIST-01 records were not checked for expiry: ${(error as Error).message}`);
    return [];
  }
}

const due = (record: PersistedRecord, nowMs: number): boolean =>
  record.persistUntil !== undefined &&
  record.warnedFor !== record.persistUntil &&
  record.persistUntil * 1000 - nowMs <= PERSIST_WARN_DAYS * DAY_MS;
