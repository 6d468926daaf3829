// Writes what init asked: each secret in credentials/ (mode 0600), then the settings file, last,
// so that a run stopped half-way leaves no settings file naming secrets that are not there.
// Every file is written whole beside its place and renamed over it (never half-written); a
// failure removes what this run created. Nothing that exists is replaced without --force.
import { chownSync, existsSync, lstatSync, mkdirSync, readFileSync } from 'node:fs';
import { ConfigError } from '../lib/errors.js';
import { writeFileAtomic } from '../lib/atomic-write.js';
import { readRegularFile } from '../lib/regular-file.js';
import { removeFile } from '../lib/remove-file.js';
import { initCredentialsDir, initSettingsFile } from '../config/init-settings.js';
import { join } from 'node:path';

export interface InitFiles {
  dir: string;
  settingsText: string;
  /** Secret by credential name (dyndns-key, api-password). */
  secrets: Record<string, string>;
}

export interface WriteOptions {
  force: boolean;
  /** The writer's uid: 0 writes /etc/ddedge, readable by the ddedge group where the package made it. */
  uid: number | undefined;
  /** The ddedge group's id, or undefined where there is none (as root only). */
  groupId?: number;
}

/** The files init would write: those that exist already stop it unless --force. */
function pathsOf(files: Pick<InitFiles, 'dir' | 'secrets'>): string[] {
  const credentials = initCredentialsDir(files.dir);
  return [...Object.keys(files.secrets).map((name) => join(credentials, name)), initSettingsFile(files.dir)];
}

/**
 * Refuses, before anything is asked or read, to replace a file unless told to. A settings file of comments alone (the
 * Debian package's, before anyone set anything) has nothing to lose: it is replaced.
 */
export function refuseToReplace(paths: string[], force: boolean): void {
  const present = paths.filter((path) => (existsSync(path) || isLink(path)) && !onlyComments(path));
  if (present.length && !force)
    throw new ConfigError(
      `${present.join(' and ')} already ${present.length > 1 ? 'exist' : 'exists'}; nothing was written ` +
        `(--force replaces ${present.length > 1 ? 'them' : 'it'})`,
    );
}

/** Writes the files; returns their paths. On a failure, what this run created is removed again. */
export function writeInitFiles(files: InitFiles, options: WriteOptions): string[] {
  const paths = pathsOf(files);
  refuseToReplace(paths, options.force);
  const credentials = initCredentialsDir(files.dir);
  const created: string[] = [];
  try {
    for (const dir of [files.dir, credentials]) {
      if (!existsSync(dir))
        mkdirSync(dir, { recursive: true, mode: dir === files.dir && options.uid === 0 ? 0o755 : 0o700 });
      vetFolder(dir, options.uid);
    }
    for (const [name, value] of Object.entries(files.secrets)) {
      const path = join(credentials, name);
      if (!existsSync(path)) created.push(path);
      writeFileAtomic(path, `${value}\n`, 0o600);
    }
    const settings = initSettingsFile(files.dir);
    if (!existsSync(settings)) created.push(settings);
    // As root, the ddedge group (the Debian package's units run as it) reads the settings, never the secrets.
    const shared = options.uid === 0 && options.groupId !== undefined;
    writeFileAtomic(settings, files.settingsText, shared ? 0o640 : 0o600);
    if (shared) chownSync(settings, 0, options.groupId!);
    return paths;
  } catch (error) {
    for (const path of created) removeFile(path);
    throw error;
  }
}

/** A folder someone else could write would let them swap a secret in: refused. */
function vetFolder(dir: string, uid: number | undefined): void {
  const stat = lstatSync(dir);
  if (!stat.isDirectory()) throw new ConfigError(`${dir} is not a folder; nothing was written`);
  if (uid !== undefined && ((stat.uid !== uid && stat.uid !== 0) || (stat.mode & 0o022) !== 0))
    throw new ConfigError(
      `${dir} can be written by someone other than you and root (owner uid ${stat.uid}, mode ` +
        `0${(stat.mode & 0o777).toString(8)}); nothing was written`,
    );
}

/** Whether the file is a regular one that sets no variable: blank lines and comments only. */
function onlyComments(path: string): boolean {
  try {
    return (readRegularFile(path, 64 * 1024) ?? '').split('\n').every((line) => /^\s*(#.*)?$/.test(line));
  } catch {
    return false;
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** The id of the ddedge group in /etc/group, undefined when there is none. */
export function ddedgeGroupId(groupFile = '/etc/group'): number | undefined {
  let text: string;
  try {
    text = readFileSync(groupFile, 'utf8');
  } catch {
    return undefined;
  }
  const line = text.split('\n').find((l) => l.startsWith('ddedge:'));
  const id = line ? Number(line.split(':')[2]) : Number.NaN;
  return Number.isInteger(id) ? id : undefined;
}
