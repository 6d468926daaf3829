// The ACME challenge records ddedge created and has not removed yet, kept beside the
// agent's state (<state dir>/acme/challenges.json) so that `acme cleanup` removes exactly
// what `acme present` added, and other tools can tell ddedge's challenges from the user's.
// A separate file with its own lock: an ACME hook must not wait for (or block) an agent cycle.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../lib/atomic-write.js';
import { BusyError } from '../lib/errors.js';
import { acquireLock, type Lock } from './lock.js';
import { readStateFile, type StateFileType } from './state-file.js';
import { list, object, oneOf, text } from './shape.js';

export interface AcmeChallengeRecord {
  /** The TXT record's full name, lower case, punycode, no trailing dot. */
  name: string;
  value: string;
  service: string;
  /** The provider's id of the entry ddedge created. */
  entityID: string;
  createdAt: string;
}

interface AcmeChallengeFile {
  version: 1;
  challenges: AcmeChallengeRecord[];
}

/** Longer than one hook's API calls (a list and a create, each retried within --timeout). */
const LOCK_WAIT_MS = 60_000;
const LOCK_POLL_MS = 50;

export const acmeStateDir = (stateDir: string): string => join(stateDir, 'acme');
const challengeFile = (stateDir: string): string => join(acmeStateDir(stateDir), 'challenges.json');

export interface LoadedAcmeChallenges {
  challenges: AcmeChallengeRecord[];
  /** Set when the file existed but could not be used. */
  damage?: string;
}

/**
 * Not a regular file, too large or unreadable: refused (ConfigError, exit 2), the file left in
 * place: a FIFO would hang the hook while it holds the acme lock, /dev/zero would fill the
 * memory, and forgetting the challenges ddedge made would leave them in the zone for good.
 */
const CHALLENGE_FILE: StateFileType<AcmeChallengeFile> = {
  // Far more than any client keeps in flight (a record is ~250 bytes): a bigger file is not ours.
  maxBytes: 4 * 1024 * 1024,
  refuse: 'unusable',
  shape: object({
    version: oneOf(1),
    challenges: list(object({ name: text, value: text, service: text, entityID: text, createdAt: text })),
  }),
};

/**
 * The challenges ddedge made. A damaged file is reported and read as an empty list, and set aside
 * as challenges.json.damaged when `setAside` (a hook, which holds the acme lock).
 */
export function readAcmeChallenges(stateDir: string, setAside = false): LoadedAcmeChallenges {
  const loaded = readStateFile(challengeFile(stateDir), CHALLENGE_FILE, { setAside });
  if (loaded.damage) return { challenges: [], damage: `${loaded.damage}; starting from an empty list` };
  return { challenges: loaded.value?.challenges ?? [] };
}

/**
 * Reads the list, lets `change` edit it (and make the provider calls that go with the edit),
 * writes it back, all under the acme lock: two hooks never create the same value twice, and a
 * state directory that cannot be written stops a hook before it changes anything. The lock is
 * waited for: hooks of one client run one after the other, two clients rarely collide. When
 * `change` throws, nothing is written.
 */
export async function updateAcmeChallenges<T>(
  stateDir: string,
  change: (challenges: AcmeChallengeRecord[]) => Promise<T>,
  onDamage?: (message: string) => void,
): Promise<T> {
  return updateUnderAcmeLock(
    stateDir,
    () => {
      const { challenges, damage } = readAcmeChallenges(stateDir, true);
      return { list: challenges, damage };
    },
    (challenges) => {
      mkdirSync(acmeStateDir(stateDir), { recursive: true, mode: 0o700 });
      writeFileAtomic(
        challengeFile(stateDir),
        JSON.stringify({ version: 1, challenges } satisfies AcmeChallengeFile, null, 2) + '\n',
      );
    },
    async (challenges) => ({ result: await change(challenges), changed: true }),
    onDamage,
  );
}

/**
 * A list file of the acme folder read (set aside when damaged, and the damage told), edited by `change` (with the
 * provider calls that go with the edit) and written back when it changed or was damaged, all under the acme lock.
 * When `change` throws, nothing is written.
 */
export async function updateUnderAcmeLock<L, T>(
  stateDir: string,
  read: () => { list: L; damage?: string },
  write: (list: L) => void,
  change: (list: L) => Promise<{ result: T; changed: boolean }>,
  onDamage?: (message: string) => void,
): Promise<T> {
  const lock = await waitForLock(acmeStateDir(stateDir));
  try {
    const loaded = read();
    if (loaded.damage) onDamage?.(loaded.damage);
    const { result, changed } = await change(loaded.list);
    if (changed || loaded.damage) write(loaded.list);
    return result;
  } finally {
    lock.release();
  }
}

/** The acme lock of `dir`, waited for (a hook holds it for a list and a create at most). */
async function waitForLock(dir: string): Promise<Lock> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      return acquireLock(dir);
    } catch (error) {
      if (!(error instanceof BusyError) || Date.now() >= deadline) throw error;
      await new Promise((r) => setTimeout(r, LOCK_POLL_MS));
    }
  }
}
