// The DHCID records of one zone while a batch of updates (update/batch.ts) is judged and
// written: each accepted update's DHCID changes are applied to a working copy; the copy is saved
// before the provider's writes and the records read at the start are put back when those writes
// fail, so the kept records change only with the provider's zone.
import type { Logger } from '../../lib/log.js';
import type { Change } from '../../zone/plan/plan.js';
import { dhcidChanges } from './changes.js';
import {
  bytesOf,
  type DhcidByName,
  type DhcidRecord,
  type DhcidRoom,
  type DhcidStore,
  type DhcidTouched,
} from './store.js';

export class DhcidBatch {
  private readonly before: DhcidByName;
  private readonly working: DhcidByName;
  private size: number;
  private bytes: number;
  private changed = false;

  constructor(
    private readonly store: DhcidStore,
    private readonly zone: string,
  ) {
    this.before = store.of(zone);
    this.working = new Map(this.before);
    ({ records: this.size, bytes: this.bytes } = store.sizeOf(zone));
  }

  /** The zone's records as the updates accepted so far left them. */
  get held(): ReadonlyMap<string, readonly DhcidRecord[]> {
    return this.working;
  }

  /** How many more records, and bytes of them, the zone may hold. */
  get spare(): DhcidRoom {
    const room = this.store.roomFor(this.zone);
    return { records: room.records - this.size, bytes: room.bytes - this.bytes };
  }

  /** What an update's DHCID part changes (empty: nothing), as changes for the log and journal. */
  changes(touched: DhcidTouched): Change[] {
    return [...touched].flatMap(([name, list]) => dhcidChanges(this.working.get(name) ?? [], list));
  }

  /** Applies an accepted update's DHCID part to the working copy. */
  accept(touched: DhcidTouched): void {
    for (const [name, list] of touched) {
      if (!dhcidChanges(this.working.get(name) ?? [], list).length) continue;
      const was = this.working.get(name) ?? [];
      this.size += list.length - was.length;
      this.bytes += bytesOf(new Map([[name, list]])) - bytesOf(new Map([[name, was]]));
      if (list.length) this.working.set(name, list);
      else this.working.delete(name);
      this.changed = true;
    }
  }

  /** Saves the working copy (before the provider's writes); why it could not be saved, if it could not. */
  save(): string | undefined {
    if (!this.changed) return undefined;
    try {
      this.store.replace(this.zone, this.working);
      return undefined;
    } catch (error) {
      return (
        `the DHCID records could not be saved: ` +
        `${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`
      );
    }
  }

  /** Puts back the records read at the start (the provider's writes failed). */
  restore(logger: Logger): void {
    if (!this.changed) return;
    try {
      this.store.replace(this.zone, this.before);
    } catch (error) {
      logger.error(
        `gateway: the DHCID records of ${this.zone} could not be put back after a failed update: ` +
          `${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
  }
}
