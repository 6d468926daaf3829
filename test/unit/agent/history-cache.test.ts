// The status page parses the history once per version of the file, and never shows an old
// one: a write of the same size within the same tick is still a new version (a new file
// renamed into place), and a damaged file is reported every time.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readHistoryOnce } from '../../../src/agent/history-cache.js';
import { writeHistory, type History } from '../../../src/state/history.js';
import { tempDir } from '../../helpers/cli.js';

const history = (address: string): History => ({
  version: 1,
  entries: [
    {
      at: '2026-11-28T00:00:00.000Z',
      host: 'home.example.com',
      type: 'A',
      event: 'changed',
      old: '81.0.2.14',
      new: address,
      via: 'dyndns',
    },
  ],
});

describe('readHistoryOnce', () => {
  it('parses an unchanged file once, and sees every write at once', () => {
    const dir = tempDir();
    writeHistory(dir, history('81.0.2.15'));
    const first = readHistoryOnce(dir);
    expect(readHistoryOnce(dir)).toBe(first);
    // Same size, written at once: still read again.
    writeHistory(dir, history('81.0.2.16'));
    const second = readHistoryOnce(dir);
    expect(second).not.toBe(first);
    expect(second.history.entries[0]!.new).toBe('81.0.2.16');
    expect(readHistoryOnce(dir)).toBe(second);
  });

  it('a damaged file is reported each time, and a missing one is empty', () => {
    const dir = tempDir();
    expect(readHistoryOnce(dir).history.entries).toEqual([]);
    writeFileSync(join(dir, 'history.json'), '{"version":1,"entries":[');
    expect(readHistoryOnce(dir).damage).toMatch(/damaged/);
    expect(readHistoryOnce(dir).damage).toMatch(/damaged/);
    writeHistory(dir, history('81.0.2.17'));
    expect(readHistoryOnce(dir)).toMatchObject({ history: { entries: [{ new: '81.0.2.17' }] } });
  });
});
