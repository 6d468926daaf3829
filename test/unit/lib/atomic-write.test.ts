// Atomic replacement in a folder another local user can write (a metrics folder, an export
// target): a link planted where the temporary file will be must never redirect the write.
import { lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeFileAtomic } from '../../../src/lib/atomic-write.js';
import { tempDir } from '../../helpers/cli.js';

afterEach(() => vi.restoreAllMocks());

/** A file the attacker wants overwritten (root-owned and private in the report). */
function victim(): string {
  const path = join(tempDir('ddedge-victim-'), 'secret');
  writeFileSync(path, 'VICTIM CONTENT\n', { mode: 0o600 });
  return path;
}

describe('writeFileAtomic with links planted beside the target', () => {
  it('does not follow a symlink at the old predictable name <path>.<pid>.tmp', () => {
    const dir = tempDir();
    const target = join(dir, 'metrics.prom');
    const attacked = victim();
    symlinkSync(attacked, `${target}.${process.pid}.tmp`);
    writeFileAtomic(target, 'new content\n', 0o644);
    expect(readFileSync(attacked, 'utf8')).toBe('VICTIM CONTENT\n');
    expect(readFileSync(target, 'utf8')).toBe('new content\n');
    expect(lstatSync(target).isFile()).toBe(true);
  });

  it('does not follow a symlink at a name the attacker guessed right; it picks another and succeeds', () => {
    const dir = tempDir();
    const target = join(dir, 'state.json');
    const attacked = victim();
    // The attacker knows the generator's next value: the writer's first name is taken.
    vi.spyOn(Math, 'random').mockReturnValueOnce(0.5);
    const guessed = `${target}.${process.pid}.${(0.5).toString(36).slice(2, 12)}.tmp`;
    symlinkSync(attacked, guessed);
    writeFileAtomic(target, '{"version":1}\n');
    expect(readFileSync(attacked, 'utf8')).toBe('VICTIM CONTENT\n');
    expect(readFileSync(target, 'utf8')).toBe('{"version":1}\n');
    // The planted link is the attacker's, left as it was; no temporary file of ours remains.
    expect(lstatSync(guessed).isSymbolicLink()).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['state.json', guessed.slice(dir.length + 1)].sort());
  });

  it('does not write through a symlink at the target itself: the link is replaced by the file', () => {
    const dir = tempDir();
    const target = join(dir, 'export.zone');
    const attacked = victim();
    symlinkSync(attacked, target);
    writeFileAtomic(target, '$ORIGIN example.com.\n', 0o644);
    expect(readFileSync(attacked, 'utf8')).toBe('VICTIM CONTENT\n');
    expect(lstatSync(target).isFile()).toBe(true);
  });

  it('creates the file with the mode asked for (0600 by default) and leaves no temporary behind', () => {
    const dir = tempDir();
    writeFileAtomic(join(dir, 'a'), 'x');
    writeFileAtomic(join(dir, 'b'), 'y', 0o644);
    expect(statSync(join(dir, 'a')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'b')).mode & 0o777).toBe(0o644 & ~process.umask());
    expect(readdirSync(dir).sort()).toEqual(['a', 'b']);
  });

  it('a write that fails leaves no temporary file behind', () => {
    const parent = tempDir();
    const target = join(parent, 'state.json');
    // A directory at the target: the rename fails after the temporary file was written.
    mkdirSync(target);
    expect(() => writeFileAtomic(target, 'cannot replace a directory')).toThrow();
    expect(readdirSync(parent)).toEqual(['state.json']);
    expect(statSync(target).isDirectory()).toBe(true);
  });
});
