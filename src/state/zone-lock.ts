// One change of a zone at a time, whoever makes it: `zone apply` and the gateway's update
// batches take the same lock, under the state directory both are given, so that two writers
// planned side by side never make the same creates twice or fight over the same entries.
import { join } from 'node:path';
import { acquireLock, type Lock } from './lock.js';

/** The directory of `zone`'s lock (its file is `lock` in it). */
export const zoneLockDir = (stateDir: string, zone: string): string => join(stateDir, 'zone-locks', zone);

/** Takes `zone`'s lock; throws BusyError when another holds it (lock.ts). */
export const acquireZoneLock = (stateDir: string, zone: string): Lock => acquireLock(zoneLockDir(stateDir, zone));
