// A batch's reading: what its updates concern, read afresh from the provider once the call
// budget and each key's share say it may be. A key that spent its share is answered before
// anything is read for it; nothing is read or evaluated when the budget cannot pay for the
// reading, nor, when an update changes records, for the cheapest change after it (both doors
// alike). What a batch costs follows its updates, not the zone: it reads only the names its
// updates concern (the whole zone when that takes fewer calls, reading.ts).
import { EDE } from '../../dns/wire/edns.js';
import { atOrBelow } from '../../lib/names.js';
import type { ZoneProvider } from '../../zone/provider/provider-zone.js';
import type { LiveRecord } from '../../zone/record.js';
import type { KeyCalls } from '../limits/key-calls.js';
import { answerAll, type BatchDeps, type PendingUpdate } from './batch-deps.js';
import type { UpdateMessage } from './message.js';
import { readAt, readPlan, type Reading } from './reading.js';
import { RCODE_UPDATE } from './rules.js';

/** The zone as a batch read it. */
export interface BatchRead {
  /** The records the provider held at `names` when the batch began. */
  live: LiveRecord[];
  /** Every name of the zone the batch's updates concern. */
  names: Set<string>;
  /** How they were read (and are read again after the writes). */
  reading: Reading;
}

/**
 * The names of the zone an update's prerequisites and changes concern: all it needs read. One
 * outside the zone holds none of its records (it is answered NOTZONE in its turn, RFC 2136 3.2:
 * after the prerequisites before it), and is never read: its filter ("t", say) may list every entry.
 */
export const namesOf = (message: UpdateMessage, zone: string): string[] =>
  [...message.prerequisites, ...message.updates].map((r) => r.name).filter((name) => atOrBelow(name, zone));

/** Answers the updates whose key spent its share of the budget (REFUSED); the others, in order. */
export function refuseSpentShares(batch: PendingUpdate[], shares: KeyCalls | undefined): PendingUpdate[] {
  if (!shares) return batch;
  const spent = batch.map((p) => shares.afford(p.key, 1));
  batch.forEach((p, i) => {
    if (spent[i]) p.resolve({ rcode: RCODE_UPDATE.REFUSED, ede: EDE.PROHIBITED, why: spent[i] });
  });
  return batch.filter((_, i) => !spent[i]);
}

/** The records the provider holds at `names`, read afresh (reading.ts) and shown in the zone's view. */
export async function readNames(
  provider: ZoneProvider,
  zone: string,
  names: Set<string>,
  reading: Reading,
  deps: BatchDeps,
): Promise<LiveRecord[]> {
  const { atNames, whole } = await readAt(provider, zone, names, reading, deps.views);
  if (whole) deps.views.show(zone, whole);
  else deps.views.showNames(zone, names, atNames);
  return atNames;
}

/**
 * Why the budget cannot pay for the cheapest change a batch that changes records may make (the
 * reading, one write, its undoing and the reading again), asked before anything is read, as
 * batch-evaluate.ts will weigh it after the reading; undefined when it can, or when no update
 * changes records (prerequisites alone take the reading only).
 */
function affordCheapestChange(batch: PendingUpdate[], reading: Reading, deps: BatchDeps): string | undefined {
  if (!batch.some((p) => p.message.updates.length)) return undefined;
  return deps.affordCalls?.(2 * reading.calls + 2, true);
}

/**
 * Reads what the batch's updates concern, and charges each update's key its part of the
 * reading; undefined once every update is answered (SERVFAIL: the budget cannot pay for the
 * reading, or the provider could not be read).
 */
export async function readBatch(
  zone: string,
  batch: PendingUpdate[],
  provider: ZoneProvider,
  deps: BatchDeps,
): Promise<BatchRead | undefined> {
  const names = new Set(batch.flatMap((p) => namesOf(p.message, zone)));
  const reading = readPlan(zone, names, deps.views);
  const poor = deps.affordCalls?.(reading.calls) ?? affordCheapestChange(batch, reading, deps);
  if (poor) return void answerAll(batch, { rcode: RCODE_UPDATE.SERVFAIL, ede: EDE.OTHER, why: poor });
  let live: LiveRecord[];
  try {
    live = await readNames(provider, zone, names, reading, deps);
  } catch (error) {
    const why = `cannot read the zone from the provider: ${(error as Error).message}`;
    return void answerAll(batch, { rcode: RCODE_UPDATE.SERVFAIL, ede: EDE.NETWORK_ERROR, why });
  }
  for (const p of batch) deps.keyCalls?.charge(p.key, Math.ceil(reading.calls / batch.length));
  return { live, names, reading };
}
