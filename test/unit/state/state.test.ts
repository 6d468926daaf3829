import { readdirSync, readFileSync, writeFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BusyError } from '../../../src/lib/errors.js';
import { acquireLock } from '../../../src/state/lock.js';
import { emptyState, readState, stateFile, writeState } from '../../../src/state/state.js';
import { tempDir } from '../../helpers/cli.js';

describe('state file', () => {
  it('round-trips, leaves no temporary file behind, and is private to its owner', () => {
    const dir = join(tempDir(), 'nested');
    const state = emptyState();
    state.records['h.example.com/A'] = {
      host: 'h.example.com',
      type: 'A',
      address: '81.0.2.15',
      sentAt: '2026-01-01T00:00:00.000Z',
      via: 'dyndns',
    };
    writeState(dir, state);
    expect(readState(dir)).toEqual({ state });
    expect(readdirSync(dir)).toEqual(['state.json']);
    expect(statSync(stateFile(dir)).mode & 0o777).toBe(0o600);
  });
  it('a missing file is an empty state without a warning', () => {
    expect(readState(tempDir())).toEqual({ state: emptyState() });
  });
  it.each(['{not json', '[]', '{"version":2,"records":{}}', '{"version":1,"records":{"x":{"host":1}}}', ''])(
    'a damaged file (%j) is reported and treated as empty',
    (text) => {
      const dir = tempDir();
      writeFileSync(stateFile(dir), text);
      const loaded = readState(dir);
      expect(loaded.state).toEqual(emptyState());
      expect(loaded.damage).toMatch(/damaged.*starting from an empty cache/);
    },
  );
  it('replaces the file atomically: a reader sees the old or the new content, never a mix', () => {
    const dir = tempDir();
    writeState(dir, emptyState());
    const big = emptyState();
    for (let i = 0; i < 2000; i++)
      big.records[`h${i}.example.com/A`] = { host: `h${i}.example.com`, type: 'A', address: '81.0.2.15' };
    writeState(dir, big);
    expect(JSON.parse(readFileSync(stateFile(dir), 'utf8')).records['h1999.example.com/A'].address).toBe('81.0.2.15');
  });
});

/** The lock in `dir` was taken over: it names this process, holds off a second cycle, and its release removes it. */
function expectTakenOver(dir: string): void {
  const lock = acquireLock(dir);
  expect(readFileSync(join(dir, 'lock'), 'utf8')).toMatch(new RegExp(`^${process.pid} \\S+\\n$`));
  expect(() => acquireLock(dir)).toThrow(/another ddedge cycle \(pid \d+, this process\)/);
  lock.release();
  expect(readdirSync(dir)).toEqual([]);
}

describe('lock', () => {
  it('refuses a second holder while the first holds it, and frees on release', () => {
    const dir = tempDir();
    const first = acquireLock(dir);
    expect(() => acquireLock(dir)).toThrow(BusyError);
    first.release();
    acquireLock(dir).release();
  });
  it('takes over a lock left by a process that is gone', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'lock'), '999999999');
    expectTakenOver(dir);
  });
  it('takes over a lock with our own pid that this process does not hold (a container restarted as pid 1)', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'lock'), String(process.pid));
    expectTakenOver(dir);
  });
  it('names the directory when it cannot be created', () => {
    const file = join(tempDir(), 'a-file');
    writeFileSync(file, '');
    expect(() => acquireLock(join(file, 'state'))).toThrow(/--state-dir: cannot create ".*a-file\/state": ENOTDIR/);
  });
});

describe('lock: what a reader finds', () => {
  it('an empty lock is a creator at work while young, and stale when old', async () => {
    const { utimesSync } = await import('node:fs');
    const dir = tempDir();
    writeFileSync(join(dir, 'lock'), '');
    expect(() => acquireLock(dir)).toThrow(/another ddedge cycle \(one starting now\)/);
    const old = new Date(Date.now() - 60_000);
    utimesSync(join(dir, 'lock'), old, old);
    expectTakenOver(dir);
  });
  it('holds the owner pid and a token; a release leaves no file behind', async () => {
    const { readdirSync: list } = await import('node:fs');
    const dir = tempDir();
    const lock = acquireLock(dir);
    expect(readFileSync(join(dir, 'lock'), 'utf8')).toMatch(new RegExp(`^${process.pid} \\S+\\n$`));
    lock.release();
    expect(list(dir)).toEqual([]);
  });
  it('a symbolic link in place of the lock is refused', async () => {
    const { symlinkSync } = await import('node:fs');
    const dir = tempDir();
    symlinkSync('/dev/null', join(dir, 'lock'));
    expect(() => acquireLock(dir)).toThrow(/lock is a symbolic link, not a regular file/);
  });
});
