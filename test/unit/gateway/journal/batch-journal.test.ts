// The journal's intent and result lines as the start reads them back: a batch with an intent and
// no result is found (across the rotated file too), one closed by its result is not. Guards the
// line's shape that unfinished-batches.ts reads without parsing every line.
import { mkdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../src/lib/log.js';
import { journalIntent, journalResult } from '../../../../src/gateway/journal/batch-journal.js';
import { journalPath, writeJournal } from '../../../../src/gateway/journal/journal.js';
import { unfinishedBatches } from '../../../../src/gateway/journal/unfinished-batches.js';
import type { Change } from '../../../../src/zone/plan/plan.js';
import { tempDir } from '../../../helpers/cli.js';

const change = (name: string, value: string): Change => ({
  action: 'create',
  after: { name, type: 'TXT', ttl: 60, value },
});
// A value that spells a mark inside it must not be read as one.
const update = (name: string) => ({
  key: 'admin',
  client: '127.0.0.1',
  changes: [change(name, '"result":"aaaaaaaaaaaa" "intent":"bbbbbbbbbbbb"')],
});

describe('unfinished batches in the journal', () => {
  it('an intent without a result is found, with its changes; one with its result is not; plain lines are not marks', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'gateway'));
    journalIntent(dir, 'example.com', 'aaaaaaaaaaaa', [update('a.example.com')], silentLogger);
    writeJournal(dir, { zone: 'example.com', ...update('plain.example.com') });
    journalResult(dir, 'example.com', 'aaaaaaaaaaaa', 'made', [update('a.example.com')], silentLogger);
    // Rotated between the intent and the end: the intent is in journal.jsonl.1.
    journalIntent(dir, 'example.com', 'cccccccccccc', [update('b.example.com'), update('c.example.com')], silentLogger);
    renameSync(journalPath(dir), `${journalPath(dir)}.1`);
    writeJournal(dir, { zone: 'example.com', ...update('later.example.com') });
    const open = unfinishedBatches(dir);
    expect([...open.keys()]).toEqual(['cccccccccccc']);
    expect(open.get('cccccccccccc')!.map((l) => [l.zone, l.key, l.changes[0]!.name])).toEqual([
      ['example.com', 'admin', 'b.example.com'],
      ['example.com', 'admin', 'c.example.com'],
    ]);
    expect(readFileSync(`${journalPath(dir)}.1`, 'utf8')).toContain('"intent":"cccccccccccc"');
  });
});
