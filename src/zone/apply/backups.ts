// Before its first change, apply saves the zone as it was, as a master file, under
// <state dir>/zone-backups/<service>/<UTC time>.zone. Applying that file restores the zone.
//
// The last 20 written are kept. Written, not named: a clock that was once ahead (a router before
// NTP) leaves backups named in the future, and rotating by name removed the new backup while
// apply printed it as the way back. So each backup says its number in its header (`; backup
// number N`), one more than the highest in the folder; rotation keeps the highest numbers, and
// counts files without one (older ddedge, copied in) as older than any numbered, by name.
// Under the zone's lock (session.ts), so two applies never take one number.
import { closeSync, constants, existsSync, fstatSync, mkdirSync, openSync, readdirSync, readSync } from 'node:fs';
import { removeFile } from '../../lib/remove-file.js';
import { join } from 'node:path';
import { writeFileAtomic } from '../../lib/atomic-write.js';

const BACKUPS_KEPT = 20;
const BACKUP_NAME = /^\d{8}T\d{6}\.\d{3}Z\.zone$/;
const NUMBER_LINE = /^; backup number (\d{1,15})\b/m;
/** Where the number is looked for: the header's first lines. */
const HEAD_BYTES = 4096;

const backupDir = (stateDir: string, service: string): string => join(stateDir, 'zone-backups', service);

/** The header line that orders backups by writing. */
export const backupNumberLine = (number: number): string =>
  `backup number ${number} (ddedge keeps the ${BACKUPS_KEPT} written last)`;

/** 2026-11-22T08:15:30.123Z -> 20261122T081530.123Z */
const stamp = (time: Date): string => time.toISOString().replace(/[-:]/g, '');

/** Writes the backup made by `textOf(its number)`; returns its path. Never removes it. */
export function writeBackup(
  stateDir: string,
  service: string,
  textOf: (number: number) => string,
  time = new Date(),
): string {
  const dir = backupDir(stateDir, service);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const before = listBackups(stateDir, service);
  const number = (before.length ? (numberOf(before.at(-1)!) ?? 0) : 0) + 1;
  let path = join(dir, `${stamp(time)}.zone`);
  // Two applies in one millisecond: the later one moves on by a millisecond.
  for (let t = time.getTime() + 1, i = 0; existsSync(path) && i < 1000; t++, i++)
    path = join(dir, `${stamp(new Date(t))}.zone`);
  writeFileAtomic(path, textOf(number));
  const written = [...before.filter((p) => p !== path), path];
  for (const old of written.slice(0, -BACKUPS_KEPT)) removeFile(old);
  return path;
}

/** Backup files in the order they were written, oldest first. */
function listBackups(stateDir: string, service: string): string[] {
  const dir = backupDir(stateDir, service);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const files = names
    .filter((n) => BACKUP_NAME.test(n))
    .map((n) => ({ path: join(dir, n), name: n, number: numberOf(join(dir, n)) }));
  files.sort((a, b) => (a.number ?? -1) - (b.number ?? -1) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return files.map((f) => f.path);
}

/**
 * The number in a backup's header; undefined for a file without one (or unreadable). Opened without waiting for a
 * writer or following a link, and read only when what was opened is a regular file: a FIFO named as a backup would
 * otherwise hold apply forever.
 */
function numberOf(path: string): number | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
    if (!fstatSync(fd).isFile()) return undefined;
    const head = Buffer.alloc(HEAD_BYTES);
    const length = readSync(fd, head, 0, HEAD_BYTES, 0);
    const match = NUMBER_LINE.exec(head.subarray(0, length).toString('utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
