// At start: batches whose intent the journal holds with no result (batch-journal.ts) are ones
// the gateway was writing when it stopped without a word (kill -9, a power cut, the OOM killer).
// Nobody saw their outcome, so each is said in the log and judged by what the provider holds
// now: the zone is read once, and a result line per update says, for every name and type the
// update meant to change, what is there (made, not made or partly made). The DHCID records were
// saved before the writes: an update none of whose provider writes was made gets its DHCID
// changes taken back, or a name with no address would stay held against every other client.
import { counted } from '../../lib/counted.js';
import type { Logger } from '../../lib/log.js';
import type { ZoneProvider } from '../../zone/provider/provider-zone.js';
import type { LiveRecord, ZoneType } from '../../zone/record.js';
import { heldAt } from './batch-journal.js';
import { isDhcidData, type DhcidStore } from '../dhcid/store.js';
import { journalPath, writeJournal } from './journal.js';
import { markOf, parseJournalLine, type BatchOutcome, type HeldAt, type JournalLine } from './journal-line.js';
import { readJournalText } from './journal-reader.js';

/**
 * The intent lines with no result, by batch, oldest first; the rotated file is read too (a batch may straddle the
 * rotation).
 */
export function unfinishedBatches(stateDir: string, logger?: Logger): Map<string, JournalLine[]> {
  // Only the lines left open are parsed: a full journal is read at every start.
  const open = new Map<string, string[]>();
  for (const path of [`${journalPath(stateDir)}.1`, journalPath(stateDir)]) {
    let lines: string[] | undefined;
    try {
      lines = readJournalText(path);
    } catch (error) {
      logger?.warn(
        `gateway: journal: ${(error as Error).message.split(';')[0]}; batches it may leave unfinished are not ` +
          `looked for`,
      );
    }
    for (const line of lines ?? []) {
      const mark = markOf(line);
      if (mark?.kind === 'result') open.delete(mark.batch);
      else if (mark) open.set(mark.batch, [...(open.get(mark.batch) ?? []), line]);
    }
  }
  const batches = new Map<string, JournalLine[]>();
  for (const [batch, lines] of open) {
    const intents = lines.flatMap((line) => {
      const parsed = parseJournalLine(line);
      return parsed?.mark && 'intent' in parsed.mark && parsed.mark.intent === batch ? [parsed] : [];
    });
    if (intents.length) batches.set(batch, intents);
  }
  return batches;
}

/** Says each unfinished batch of a served zone in the log and closes it in the journal with what the provider holds. */
export async function reconcileUnfinished(
  stateDir: string,
  zones: string[],
  readerOf: (zone: string) => ZoneProvider,
  dhcid: DhcidStore,
  logger: Logger,
): Promise<void> {
  const batches = unfinishedBatches(stateDir, logger);
  const listings = new Map<string, LiveRecord[]>();
  for (const [batch, intents] of batches) {
    const zone = intents[0]!.zone;
    logger.warn(
      `gateway: the journal holds the intent of batch ${batch} of ${zone} (${intents[0]!.time}, ` +
        `${counted(intents.length, 'update')}) and no result: the gateway stopped while writing it; ` +
        `reading ${zone} to see what the provider holds`,
    );
    if (!zones.includes(zone)) {
      logger.warn(`gateway: batch ${batch}: ${zone} is not served by this gateway; left for a gateway that serves it`);
      continue;
    }
    let live = listings.get(zone);
    try {
      live ??= await readerOf(zone).list();
      listings.set(zone, live);
    } catch (error) {
      logger.error(
        `gateway: batch ${batch}: ${zone} could not be read (${(error as Error).message}); it is looked at again at ` +
          `the next start`,
      );
      continue;
    }
    for (const intent of intents) {
      const written = intent.changes.filter((c) => c.type !== 'DHCID');
      const outcome = written.length ? outcomeOf(written, heldAt(live, written)) : 'made';
      if (outcome === 'not made') takeBackDhcid(dhcid, zone, intent.changes, logger);
      const holds = heldAt([...live, ...dhcidOf(dhcid, zone)], intent.changes);
      try {
        writeJournal(stateDir, {
          zone,
          key: intent.key,
          client: intent.client,
          changes: [],
          mark: { result: batch, outcome, reconciled: 'at start', holds },
        });
      } catch (error) {
        logger.error(
          `gateway: the journal could not be written: ` +
            `${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        );
      }
      logger.warn(
        `gateway: batch ${batch} of ${zone}, key ${intent.key}: ${outcome}; the provider holds ` +
          `${holds
            .map(
              (h) =>
                `${h.name} ${h.type} ` +
                `${h.values.length ? h.values.map((v) => withoutTtl(v)).join(' | ') : '(none)'}`,
            )
            .join(', ')}`,
      );
    }
  }
}

const withoutTtl = (described: string): string => described.slice(described.indexOf(' ') + 1);

/**
 * Made when every change shows (a value created or updated to is there, one deleted is gone), not made when none does.
 */
function outcomeOf(changes: JournalLine['changes'], holds: HeldAt[]): BatchOutcome {
  const valuesAt = new Map(holds.map((h) => [`${h.name} ${h.type}`, new Set(h.values.map(withoutTtl))]));
  const shown = changes.map((c) => {
    const values = valuesAt.get(`${c.name} ${c.type}`) ?? new Set<string>();
    return c.after !== undefined
      ? values.has(withoutTtl(c.after))
      : c.before !== undefined && !values.has(withoutTtl(c.before));
  });
  return shown.every(Boolean) ? 'made' : shown.some(Boolean) ? 'partly made' : 'not made';
}

/** Undoes an update's DHCID changes in the store (values as the journal writes them: `ttl base64`). */
function takeBackDhcid(store: DhcidStore, zone: string, changes: JournalLine['changes'], logger: Logger): void {
  const byName = store.of(zone);
  const recordOf = (name: string, described: string) => {
    const [ttl, value] = described.split(' ');
    return { name, ttl: Number(ttl), data: Buffer.from(value ?? '', 'base64').toString('hex') };
  };
  let changed = false;
  for (const c of changes.filter((c) => c.type === 'DHCID')) {
    const list = [...(byName.get(c.name) ?? [])];
    if (c.after !== undefined) {
      const { data } = recordOf(c.name, c.after);
      const kept = list.filter((r) => r.data !== data);
      changed ||= kept.length !== list.length;
      byName.set(c.name, kept);
    } else if (c.before !== undefined) {
      const record = recordOf(c.name, c.before);
      if (list.some((r) => r.data === record.data) || !isDhcidData(record.data)) continue;
      byName.set(c.name, [...list, record]);
      changed = true;
    }
  }
  if (!changed) return;
  try {
    store.replace(zone, byName);
    logger.warn(
      `gateway: the DHCID changes of an update none of whose provider writes was made are taken back (${changes
        .filter((c) => c.type === 'DHCID')
        .map((c) => c.name)
        .join(', ')})`,
    );
  } catch (error) {
    logger.error(`gateway: the DHCID records of ${zone} could not be put back: ${(error as Error).message}`);
  }
}

/** The gateway's DHCID records of `zone` in the listing's shape (values in base64, as the journal writes them). */
function dhcidOf(store: DhcidStore, zone: string): LiveRecord[] {
  return [...store.of(zone).values()].flat().map((r) => ({
    name: r.name,
    type: 'DHCID' as ZoneType,
    ttl: r.ttl,
    value: Buffer.from(r.data, 'hex').toString('base64'),
    entityID: 'gateway',
  }));
}
