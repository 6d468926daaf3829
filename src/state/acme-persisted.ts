// The DNS-PERSIST-01 records `ddedge acme persist` keeps (<state dir>/acme/persisted.json): one
// entry per record name and issuer, with what was written, so that the daemon can warn before a
// record's persistUntil passes without asking the name servers, and say once that it warned.
// Under the acme lock, as the challenges are: `acme persist` and a daemon never write it at once.
import { join } from 'node:path';
import { writeFileAtomic } from '../lib/atomic-write.js';
import { acmeStateDir, updateUnderAcmeLock } from './acme-challenges.js';
import { readStateFile, type StateFileType } from './state-file.js';
import { isHostName } from '../lib/names.js';
import { list, matching, object, oneOf, optional, ShapeError, where, whole } from './shape.js';

export interface PersistedRecord {
  /** `_validation-persist.DOMAIN`, lower case, punycode, no trailing dot. */
  name: string;
  domain: string;
  service: string;
  /** Normalized issuer-domain-name. */
  issuer: string;
  accountUri: string;
  wildcard: boolean;
  /** Seconds since the epoch; absent: the record does not expire. */
  persistUntil?: number;
  writtenAt: string;
  /** The persistUntil a warning was sent for (a new persistUntil is warned about again). */
  warnedFor?: number;
}

interface PersistedFile {
  version: 1;
  records: PersistedRecord[];
}

/** Far beyond what anyone persists (an entry is ~300 bytes); a bigger file is not ours. */
const MAX_RECORDS = 10_000;
/**
 * Each field as `acme persist` writes it (persist-target.ts): the file's text reaches a terminal, the status page
 * and notifications, and its times are computed with, so a field edited into anything else (a control, markup, a
 * time no date can show) makes the file damaged rather than shown.
 */
const hostName = where(matching(/^[a-z0-9._-]+$/, 'a domain name'), isHostName, 'a domain name');
/** 0 to 9999-12-31T23:59:59Z, as --until takes it. */
const SECONDS = whole(0, 253_402_300_799);
/** printable ASCII without space and ";" after a URI scheme, at most 1,024 characters. */
const accountUri = matching(/^[a-z][a-z0-9+.-]*:[\x21-\x3a\x3c-\x7e]{1,1016}$/i, 'an account URI');
const isoTime = matching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,3})?Z$/, 'a time (ISO 8601, UTC)');
const boolean = (value: unknown, at: string): boolean => {
  if (typeof value !== 'boolean') throw new ShapeError(`${at} is not true or false`);
  return value;
};
const PERSISTED_RECORD = where(
  object({
    name: matching(/^_validation-persist\./, 'a _validation-persist name'),
    domain: hostName,
    service: hostName,
    issuer: hostName,
    accountUri,
    wildcard: boolean,
    persistUntil: optional(SECONDS),
    writtenAt: isoTime,
    warnedFor: optional(SECONDS),
  }),
  (r) => r.name === `_validation-persist.${r.domain}`,
  'a record whose name is _validation-persist.DOMAIN',
);

const PERSISTED_FILE: StateFileType<PersistedFile> = {
  maxBytes: 8 * 1024 * 1024,
  shape: object({
    version: oneOf(1),
    records: list(PERSISTED_RECORD, MAX_RECORDS),
  }),
};

const persistedFile = (stateDir: string): string => join(acmeStateDir(stateDir), 'persisted.json');

export interface LoadedPersisted {
  records: PersistedRecord[];
  /** Set when the file existed but could not be used (it is read as empty). */
  damage?: string;
}

/** The records `acme persist` keeps; a damaged file is reported and read as none (set aside when `setAside`). */
export function readPersisted(stateDir: string, setAside = false): LoadedPersisted {
  const loaded = readStateFile(persistedFile(stateDir), PERSISTED_FILE, { setAside });
  if (loaded.damage) return { records: [], damage: `${loaded.damage}; starting from an empty list` };
  return { records: loaded.value?.records ?? [] };
}

/**
 * Reads the list, lets `change` edit it (with the provider calls that go with the edit), and
 * writes it back when `change` says it changed, all under the acme lock. When `change` throws,
 * nothing is written.
 */
export async function updatePersisted<T>(
  stateDir: string,
  change: (records: PersistedRecord[]) => Promise<{ result: T; changed: boolean }>,
  onDamage?: (message: string) => void,
): Promise<T> {
  return updateUnderAcmeLock(
    stateDir,
    () => {
      const { records, damage } = readPersisted(stateDir, true);
      return { list: records, damage };
    },
    (records) =>
      writeFileAtomic(
        persistedFile(stateDir),
        `${JSON.stringify({ version: 1, records } satisfies PersistedFile, null, 2)}\n`,
      ),
    change,
    onDamage,
  );
}
