// The values acme-dns clients wrote at each name, newest last: acme-dns keeps the two newest of a
// name (a certificate for a name and its wildcard writes two) and its clients never clean up, so
// each update here removes what falls out of those two. Only values this door wrote are ever
// removed (another client's TXT at the same name is not its business). Kept in
// <state dir>/gateway/acme-dns.json, read and replaced atomically (mode 0600) at each change, so
// values written before a restart are still removed after it, and gateways sharing a state
// directory (one per zone) keep each other's names; the order is decided when a request arrives,
// so two requests in flight at one name both stay. An update that fails for a time (the budget,
// the provider) gives back what it took: the values it would have removed are remembered again
// (removed by a later update), and its own value too when it may have been written (removing a
// value that is not there changes nothing).
// Bounded: MAX_KEPT values a name (more only after failures), MAX_NAMES names, the ones not
// written longest forgotten first; a damaged file is set aside and read as empty.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../lib/atomic-write.js';
import { readStateFile, type StateFileType } from '../../state/state-file.js';
import { list, object, oneOf, table, text } from '../../state/shape.js';

/** Values acme-dns keeps per name. */
const KEPT_PER_NAME = 2;
/** Values remembered at a name while failed updates leave some to remove. */
const MAX_KEPT = 8;
/** Names remembered: far more than the certificates one gateway serves. */
const MAX_NAMES = 10_000;
const VERSION = 1;

interface StoreFile {
  version: 1;
  names: Record<string, string[]>;
}

const STORE_FILE: StateFileType<StoreFile> = {
  // A name of at most 253 characters and its values of 43, quoted, with room to spare.
  maxBytes: MAX_NAMES * (260 + MAX_KEPT * 50),
  shape: object({ version: oneOf(VERSION), names: table(list(text, MAX_KEPT)) }),
};

export class AcmeDnsValues {
  private readonly path: string;

  constructor(stateDir: string) {
    this.path = join(stateDir, 'gateway', 'acme-dns.json');
  }

  /**
   * `value` becomes the newest at `name`: the values to remove (those past the two newest), with
   * the order remembered at once.
   */
  write(name: string, value: string): string[] {
    const names = this.load();
    const values = [...(names.get(name) ?? []).filter((v) => v !== value), value];
    // Map order is the order of writes: the name written now goes last, the first is the oldest.
    names.delete(name);
    names.set(name, values.slice(-KEPT_PER_NAME));
    this.save(names);
    return values.slice(0, -KEPT_PER_NAME);
  }

  /**
   * The update that `write` ordered failed: the values it was to remove are remembered again,
   * oldest first, and `value` stays only when it may have been written.
   */
  failed(name: string, value: string, removed: string[], mayBeWritten: boolean): void {
    const names = this.load();
    const now = (names.get(name) ?? []).filter((v) => mayBeWritten || v !== value);
    const values = [...removed.filter((v) => !now.includes(v)), ...now].slice(-MAX_KEPT);
    if (values.length) names.set(name, values);
    else names.delete(name);
    this.save(names);
  }

  private save(names: Map<string, string[]>): void {
    while (names.size > MAX_NAMES) names.delete(names.keys().next().value!);
    mkdirSync(join(this.path, '..'), { recursive: true, mode: 0o700 });
    writeFileAtomic(this.path, JSON.stringify({ version: VERSION, names: Object.fromEntries(names) }));
  }

  private load(): Map<string, string[]> {
    const body = readStateFile(this.path, STORE_FILE, { setAside: true }).value;
    return new Map(Object.entries(body?.names ?? {}));
  }
}
