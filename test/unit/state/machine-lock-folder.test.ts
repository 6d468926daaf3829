// A machine-wide lock's folder (one per zone of an account: a test run's sandboxes made
// thousands under /run/ddedge) goes when its lock is released and nothing else is in it; a
// process about to take the lock in a folder another has just removed makes it again.
import * as fs from 'node:fs';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { acquireLock } from '../../../src/state/lock.js';
import { folderGoesWithLock, machineZoneLockDir } from '../../../src/state/machine-lock.js';
import { BusyError } from '../../../src/lib/errors.js';
import { tempDir } from '../../helpers/cli.js';

vi.mock('node:fs', async (original) => {
  const real = await original<typeof import('node:fs')>();
  return { ...real, openSync: vi.fn(real.openSync) };
});

const place = () => ({ uid: process.geteuid?.() ?? 0, root: true, env: {}, rootDir: join(tempDir(), 'ddedge') });

afterEach(() => {
  vi.mocked(fs.openSync).mockRestore?.();
});

describe("a machine-wide lock's folder", () => {
  it('is removed with the lock, and the folder of the locks stays', () => {
    const where = place();
    const dir = machineZoneLockDir('https://api.example\nuser', 'example.com', where);
    const lock = folderGoesWithLock(acquireLock(dir), dir);
    expect(() => acquireLock(dir)).toThrow(BusyError);
    lock.release();
    expect(existsSync(dir)).toBe(false);
    expect(readdirSync(join(where.rootDir, 'zone-locks'))).toEqual([]);
    // Taken again afterwards: the folder is made again.
    const again = folderGoesWithLock(acquireLock(dir), dir);
    expect(existsSync(join(dir, 'lock'))).toBe(true);
    again.release();
  });

  it('is kept when something else is in it', () => {
    const dir = machineZoneLockDir('https://api.example\nuser', 'example.org', place());
    const lock = folderGoesWithLock(acquireLock(dir), dir);
    writeFileSync(join(dir, 'lock.takeover.0123456789abcdef'), '1 x\n');
    lock.release();
    expect(readdirSync(dir)).toEqual(['lock.takeover.0123456789abcdef']);
  });

  it('removed between its making and the creation of the lock in it (a holder let go): made again, the lock taken', () => {
    const dir = machineZoneLockDir('https://api.example\nuser', 'example.net', place());
    const real = vi.mocked(fs.openSync).getMockImplementation()!;
    let removed = false;
    vi.mocked(fs.openSync).mockImplementation((path, flags, mode) => {
      // The first exclusive create of the lock: its folder is gone just before, as another holder's release removes it.
      if (!removed && String(path) === join(dir, 'lock')) {
        removed = true;
        fs.rmdirSync(dir);
      }
      return real(path, flags, mode);
    });
    const lock = acquireLock(dir);
    expect(removed).toBe(true);
    expect(existsSync(join(dir, 'lock'))).toBe(true);
    lock.release();
  });
});
