// The signed updates the gateway has acted on, by key, while their TSIG time window is open:
// one memory for all its DNS listeners (a copy sent to another listen address is the same
// update), each key apart (one key filling its part blocks only itself), and kept across a
// restart in `<state>/gateway/replay.json` (an attack replayed a captured update right after a
// restart, when a memory kept only in the process had forgotten it). The file holds key names,
// MACs and the ends of their windows, nothing secret; it is written when the memory changed, at
// most every few seconds and at stop, so a crash forgets at most the last few seconds.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ReplayCache } from '../../dns/server/replay-cache.js';
import { writeFileAtomic } from '../../lib/atomic-write.js';
import type { Logger } from '../../lib/log.js';
import { readStateFile, type StateFileType } from '../../state/state-file.js';
import { list, number, text, tuple } from '../../state/shape.js';

/** What a copy of an update acted on by an earlier run of the gateway gets: its answer is not kept. */
export const EARLIER_RUN = 'earlier-run';
type Remembered = Promise<Buffer> | typeof EARLIER_RUN;

/**
 * Entries a key may hold: 4,096 in a window of 600 s is 7 updates a second from one key
 * sustained, more than the provider's API takes (each update costs a read and its writes).
 */
const ENTRIES_PER_KEY = 4_096;
/** [key, mac, until] each. Damage is set aside (replay.json.damaged): the memory starts empty, said in the log. */
const REPLAY_FILE: StateFileType<[string, string, number][]> = {
  // At most keys x ENTRIES_PER_KEY lines of ~150 bytes; a larger one is not ours.
  maxBytes: 64 * 1024 * 1024,
  shape: list(tuple<[string, string, number]>(text, text, number())),
};

export class ReplayMemory {
  private readonly caches = new Map<string, ReplayCache<Remembered>>();
  private dirty = false;

  constructor(private readonly file?: string) {}

  static pathIn(stateDir: string): string {
    return join(stateDir, 'gateway', 'replay.json');
  }

  /** The memory an earlier run left (empty, with a warning, when the file cannot be used: then it is set aside). */
  static load(file: string, now: number, logger: Logger): ReplayMemory {
    const memory = new ReplayMemory(file);
    const loaded = readStateFile(file, REPLAY_FILE, { setAside: true });
    if (loaded.damage)
      logger.warn(`gateway: ${loaded.damage}; updates acted on before the restart are not remembered against replay`);
    for (const [key, mac, until] of loaded.value ?? [])
      if (until >= now) memory.cacheOf(key).remember(mac, until, EARLIER_RUN, now);
    return memory;
  }

  /** What was remembered for this key's MAC, while its window is open. */
  get(key: string, mac: string, now: number): Remembered | undefined {
    return this.caches.get(key)?.get(mac, now);
  }

  /** Remembers an update until `until`; false when this key's part is full of open windows. */
  remember(key: string, mac: string, until: number, value: Remembered, now: number): boolean {
    const kept = this.cacheOf(key).remember(mac, until, value, now);
    if (kept) this.dirty = true;
    return kept;
  }

  /**
   * Writes the open entries to the file when something changed since the last write, with the
   * open entries the file holds from another gateway on the same state directory (one per zone,
   * say): the last writer would otherwise drop the other's.
   */
  save(now: number, logger: Logger): void {
    if (!this.file || !this.dirty) return;
    this.dirty = false;
    const entries: [string, string, number][] = [];
    for (const [key, cache] of this.caches) for (const [mac, until] of cache.open(now)) entries.push([key, mac, until]);
    const ours = new Set(entries.map(([key, mac]) => `${key}\0${mac}`));
    for (const entry of readEntries(this.file, logger))
      if (entry[2] >= now && !ours.has(`${entry[0]}\0${entry[1]}`)) entries.push(entry);
    try {
      mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
      writeFileAtomic(this.file, JSON.stringify(entries));
    } catch (error) {
      logger.warn(
        `gateway: ${this.file} could not be written ` +
          `(${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); a restart may forget recent updates`,
      );
    }
  }

  private cacheOf(key: string): ReplayCache<Remembered> {
    let cache = this.caches.get(key);
    if (!cache) {
      cache = new ReplayCache<Remembered>(ENTRIES_PER_KEY);
      this.caches.set(key, cache);
    }
    return cache;
  }
}

/** The entries the file holds now (none when it is missing; a damaged one is set aside, then ours replace it). */
function readEntries(file: string, logger: Logger): [string, string, number][] {
  const loaded = readStateFile(file, REPLAY_FILE, { setAside: true });
  if (loaded.damage) logger.warn(`gateway: ${loaded.damage}; it is written again with this gateway's entries only`);
  return loaded.value ?? [];
}
