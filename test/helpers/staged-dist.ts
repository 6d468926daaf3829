// Tests that run the built file as another user (uid 1000, nobody) need a copy that user can
// reach: a checkout in /root/project or in a `mktemp -d` folder (mode 0700) cannot be entered
// by anyone else. The copy sits in a folder of its own, readable and enterable by all.
import { chmodSync, cpSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { DIST } from './cli.js';

let staged: string | undefined;

/** The built dist/ddedge.mjs, copied once per test process where every user can run it. */
export function distForOtherUsers(): string {
  staged ??= stageForOtherUsers(DIST);
  return staged;
}

/** A copy of the entry's folder (the entry and its chunks) that every user can enter and read. */
export function stageForOtherUsers(entry: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'ddedge-dist-'));
  cpSync(dirname(entry), folder, { recursive: true });
  openToAll(folder);
  return join(folder, basename(entry));
}

/** Folders 0755, files 0644 (0755 when executable): mkdtemp's 0700 and a umask of 077 undone. */
function openToAll(path: string): void {
  const stat = statSync(path);
  if (stat.isDirectory()) {
    chmodSync(path, 0o755);
    for (const entry of readdirSync(path)) openToAll(join(path, entry));
  } else {
    chmodSync(path, stat.mode & 0o100 ? 0o755 : 0o644);
  }
}
