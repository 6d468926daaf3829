// The last SOA serial served for each zone, kept in <state dir>/gateway/serials.json so that a
// restart never serves a lower one: a serial grows by one per change when changes come faster
// than one a second (250 quick DHCID updates put it minutes ahead of the clock), and a gateway
// restarting from the clock would serve a serial a secondary already holds a higher one of,
// which then ignores every change until the clock catches up. Beside each serial, a digest of
// the content it was served for: a restart that reads the same content serves the same serial
// (no transfer for nothing). Several gateways may share a state directory (one per zone): each
// save merges with the file, keeping the other zones. Nothing secret is kept.
import { counted } from '../../lib/counted.js';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../../lib/atomic-write.js';
import type { Logger } from '../../lib/log.js';
import { readStateFile, type StateFileType } from '../../state/state-file.js';
import { object, table, text, whole } from '../../state/shape.js';

export interface ServedSerial {
  serial: number;
  /** The zone's content digest (dns/server/zone-view.ts: the XOR of its owners' digests) when the serial was served. */
  digest: string;
}

/**
 * Zone → served serial. Damage is set aside (serials.json.damaged), and the serials still legible
 * in its text are kept (salvageSerials): a serial must never go back, so this file alone is
 * salvaged rather than read as missing.
 */
const SERIALS_FILE: StateFileType<Record<string, ServedSerial>> = {
  // A handful of bytes per zone; a larger one is not ours.
  maxBytes: 1024 * 1024,
  shape: table(object({ serial: whole(0, 0xffffffff), digest: text })),
};

/** Whether `a` is greater than `b` in serial number arithmetic (RFC 1982 3.2, SERIAL_BITS 32). */
export function serialGreater(a: number, b: number): boolean {
  return (a < b && b - a > 2 ** 31) || (a > b && a - b < 2 ** 31);
}

/** The serial after `previous`: the clock when it is greater (RFC 1982), else one more (wrapping at 2^32). */
export function nextSerial(previous: number | undefined, now: number): number {
  if (previous === undefined) return now >>> 0;
  return serialGreater(now >>> 0, previous) ? now >>> 0 : (previous + 1) >>> 0;
}

export class SerialStore {
  private warned = false;
  /** Serials salvaged from a damaged file at open, written again with the next set. */
  private readonly salvaged = new Map<string, ServedSerial>();

  private constructor(
    private readonly file: string | undefined,
    private readonly logger: Logger | undefined,
    private readonly known: Map<string, ServedSerial>,
  ) {}

  /** A store kept only in memory (tests, tools). */
  static inMemory(): SerialStore {
    return new SerialStore(undefined, undefined, new Map());
  }

  /**
   * The serials an earlier run left in `stateDir`. A damaged file is set aside and said (how many
   * zones were salvaged, not their names: a message never quotes the file); the serials still
   * legible in it are kept (with no digest, so each zone's next serial is past both them and the
   * clock): a serial must never go back.
   */
  static open(stateDir: string, logger: Logger): SerialStore {
    const file = join(stateDir, 'gateway', 'serials.json');
    let damaged = false;
    const known = readOrSalvage(file, (damage, salvaged) => {
      damaged = true;
      logger.warn(
        `gateway: ${damage}; ${
          salvaged.size
            ? `the serials of ${counted(salvaged.size, 'zone')} still legible in it are kept: ` +
              "each zone's next serial is above its own and the clock"
            : "no serial in it is legible: each zone's serial starts from the clock (a secondary holding a higher " +
              'one waits until the clock passes it)'
        }`,
      );
    });
    const store = new SerialStore(file, logger, known);
    // Written with the first serial set: a zone of another gateway is kept for it.
    if (damaged) for (const [zone, served] of known) store.salvaged.set(zone, served);
    return store;
  }

  get(zone: string): ServedSerial | undefined {
    return this.known.get(zone);
  }

  /** Keeps `zone`'s serial; the file is written at once (a change is rare beside the provider writes it follows). */
  set(zone: string, served: ServedSerial): void {
    this.known.set(zone, served);
    if (!this.file) return;
    try {
      // The other zones are another gateway's: a file damaged since it was read is set aside, and what is legible in it
      // kept.
      const merged = readOrSalvage(this.file, (damage) =>
        this.logger?.warn(`gateway: ${damage}; the serials still legible in it are written again`),
      );
      for (const [other, kept] of this.salvaged) if (!merged.has(other)) merged.set(other, kept);
      merged.set(zone, served);
      mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
      writeFileAtomic(
        this.file,
        `${JSON.stringify(Object.fromEntries([...merged].sort(([a], [b]) => a.localeCompare(b))))}\n`,
      );
      this.salvaged.clear();
      this.warned = false;
    } catch (error) {
      if (this.warned) return;
      this.warned = true;
      this.logger?.warn(
        `gateway: ${this.file} cannot be written ` +
          `(${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); after a restart ${zone}'s serial ` +
          `may go back to the clock`,
      );
    }
  }
}

/**
 * The serials of the file (none when it is missing); a damaged one is set aside, `said` with what was salvaged from it.
 */
function readOrSalvage(
  file: string,
  said: (damage: string, salvaged: Map<string, ServedSerial>) => void,
): Map<string, ServedSerial> {
  const loaded = readStateFile(file, SERIALS_FILE, { setAside: true });
  if (!loaded.damage) {
    return new Map(Object.entries(loaded.value ?? {}).map(([zone, { serial, digest }]) => [zone, { serial, digest }]));
  }
  const salvaged = salvageSerials(loaded.text ?? '');
  said(loaded.damage, salvaged);
  return salvaged;
}

/** The `"zone":{"serial":N` still legible in a damaged file, each with no digest (the highest per zone). */
function salvageSerials(content: string): Map<string, ServedSerial> {
  const salvaged = new Map<string, ServedSerial>();
  for (const [, zone, serial] of content.matchAll(/"([a-z0-9._-]{1,253})"\s*:\s*\{\s*"serial"\s*:\s*(\d{1,10})\b/gi)) {
    const n = Number(serial);
    const before = salvaged.get(zone!);
    if (n <= 0xffffffff && (!before || serialGreater(n, before.serial))) salvaged.set(zone!, { serial: n, digest: '' });
  }
  return salvaged;
}
