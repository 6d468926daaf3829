// Before its first change, apply saves the zone as it was, as a master file, under
// <state dir>/zone-backups/<service>/<UTC time>.zone. Applying that file restores the zone.
// The newest 20 are kept; names sort by time.
import { mkdirSync, readdirSync } from 'node:fs';
import { removeFile } from '../remove-file.js';
import { join } from 'node:path';
import { writeFileAtomic } from '../atomic-write.js';

export const BACKUPS_KEPT = 20;
const BACKUP_NAME = /^\d{8}T\d{6}\.\d{3}Z\.zone$/;

export const backupDir = (stateDir: string, service: string): string => join(stateDir, 'zone-backups', service);

/** 2026-11-22T08:15:30.123Z -> 20261122T081530.123Z */
const stamp = (time: Date): string => time.toISOString().replace(/[-:]/g, '');

export function writeBackup(stateDir: string, service: string, text: string, time = new Date()): string {
  const dir = backupDir(stateDir, service);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  let path = join(dir, `${stamp(time)}.zone`);
  // Two applies in one millisecond: the later one moves on by a millisecond.
  for (let t = time.getTime() + 1, i = 0; listBackups(stateDir, service).includes(path) && i < 1000; t++, i++) path = join(dir, `${stamp(new Date(t))}.zone`);
  writeFileAtomic(path, text);
  for (const old of listBackups(stateDir, service).slice(0, -BACKUPS_KEPT)) removeFile(old);
  return path;
}

/** Backup files, oldest first. */
export function listBackups(stateDir: string, service: string): string[] {
  const dir = backupDir(stateDir, service);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((n) => BACKUP_NAME.test(n)).sort().map((n) => join(dir, n));
}
