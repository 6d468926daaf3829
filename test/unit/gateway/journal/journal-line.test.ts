// The journal's one line format: the bytes each kind of line has always had on disk (journals
// written by earlier gateways must still read), the typed reading of a line whatever the order of
// its keys, and lines that are no line (cut by a crash, a field of the wrong type).
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  formatJournalLine,
  markOf,
  parseJournalLine,
  writtenOn,
  type JournalLine,
} from '../../../../src/gateway/journal/journal-line.js';
import { readJournalTail } from '../../../../src/gateway/journal/journal-reader.js';
import { journalPath, writeJournal } from '../../../../src/gateway/journal/journal.js';
import { unfinishedBatches } from '../../../../src/gateway/journal/unfinished-batches.js';
import { tempDir } from '../../../helpers/cli.js';

const TIME = '2026-03-01T10:00:00.000Z';
const changes = [{ action: 'create', name: 'a.example.com', type: 'A', after: '300 192.0.2.1' }];

/** Lines as gateways have written them since the journal began (the writer's key order), in pieces. */
const HEAD = `{"time":"${TIME}","zone":"example.com"`;
const CHANGE = '[{"action":"create","name":"a.example.com","type":"A","after":"300 192.0.2.1"}]';
const TAIL = (changed: string) => `,"key":"kea","client":"127.0.0.1","changes":${changed}}`;
const BATCH = '"0a1b2c3d4e5f"';
const WRITTEN: [string, string][] = [
  ['a plain update', `${HEAD}${TAIL(CHANGE)}`],
  ['an intent', `${HEAD},"intent":${BATCH}${TAIL(CHANGE)}`],
  ['a result', `${HEAD},"result":${BATCH},"outcome":"made"${TAIL(CHANGE)}`],
  [
    'a result with what is held',
    `${HEAD},"result":${BATCH},"outcome":"partly made",` +
      `"holds":[{"name":"a.example.com","type":"A","values":[]}]${TAIL(CHANGE)}`,
  ],
  [
    'a result reconciled at start',
    `${HEAD},"result":${BATCH},"outcome":"not made","reconciled":"at start",` +
      `"holds":[{"name":"a.example.com","type":"A","values":["300 192.0.2.9"]}]${TAIL('[]')}`,
  ],
];

describe('a journal line', () => {
  it.each(WRITTEN)('%s: read, and written again to the same bytes', (_kind, bytes) => {
    const line = parseJournalLine(bytes);
    expect(line).toBeDefined();
    expect(formatJournalLine(line!)).toBe(`${bytes}\n`);
  });

  it('is written by writeJournal in those bytes', () => {
    const dir = tempDir();
    const holds = [{ name: 'a.example.com', type: 'A', values: ['300 192.0.2.9'] }];
    const mark = { result: '0a1b2c3d4e5f', outcome: 'not made' as const, reconciled: 'at start' as const, holds };
    writeJournal(dir, { zone: 'example.com', key: 'kea', client: '127.0.0.1', changes: [], mark }, new Date(TIME));
    expect(readJournalTail(journalPath(dir), 4096).map((l) => formatJournalLine(l))).toEqual([`${WRITTEN[4]![1]}\n`]);
  });

  it('is read the same whatever the order of its keys', () => {
    const reordered =
      `{"changes":${JSON.stringify(changes)},"client":"127.0.0.1","key":"kea",` +
      `"intent":"0a1b2c3d4e5f","zone":"example.com","time":"${TIME}"}`;
    const mark = { intent: '0a1b2c3d4e5f' };
    const expected: JournalLine = { time: TIME, zone: 'example.com', mark, key: 'kea', client: '127.0.0.1', changes };
    expect(parseJournalLine(reordered)).toEqual(expected);
    expect(markOf(reordered)).toEqual({ kind: 'intent', batch: '0a1b2c3d4e5f' });
    expect(writtenOn(reordered, '2026-03-01')).toBe(true);
    expect(writtenOn(reordered, '2026-03-02')).toBe(false);
  });

  it('is no line when cut short, or when a field has the wrong type', () => {
    const intent = WRITTEN[1]![1];
    expect(parseJournalLine(intent.slice(0, -10))).toBeUndefined();
    expect(parseJournalLine(intent.replace('"key":"kea"', '"key":5'))).toBeUndefined();
    expect(parseJournalLine(intent.replace('"after":"300 192.0.2.1"', '"after":300'))).toBeUndefined();
    expect(parseJournalLine(WRITTEN[2]![1].replace('"outcome":"made"', '"outcome":"hoped"'))).toBeUndefined();
    expect(parseJournalLine('[]')).toBeUndefined();
  });

  it('has no mark where a value only spells one', () => {
    const after = '60 "intent":"abcdef" "time":"2026-03-02';
    const spelled = [{ action: 'create', name: 'a.example.com', type: 'TXT', after }];
    const line = formatJournalLine({ time: TIME, zone: 'example.com', key: 'kea', client: 'x', changes: spelled });
    expect(markOf(line)).toBeUndefined();
    expect(writtenOn(line, '2026-03-02')).toBe(false);
  });
});

describe("the journal's tail", () => {
  it('is its last whole lines; the part of a line it starts within is left out', () => {
    const dir = tempDir();
    const update = (i: number) => ({ zone: 'example.com', key: `k${i}`, client: '127.0.0.1', changes: [] });
    for (let i = 0; i < 50; i++) writeJournal(dir, update(i), new Date(TIME));
    const tail = readJournalTail(journalPath(dir), 500);
    expect(tail.length).toBeGreaterThan(0);
    expect(tail.length).toBeLessThan(50);
    expect(tail.at(-1)!.key).toBe('k49');
    expect(tail.map((l) => Number(l.key.slice(1)))).toEqual(tail.map((_, i) => 50 - tail.length + i));
  });

  it('is none when the journal is missing, a FIFO or a link', () => {
    const dir = tempDir();
    expect(readJournalTail(journalPath(dir), 500)).toEqual([]);
    mkdirSync(join(dir, 'gateway'));
    execFileSync('mkfifo', [journalPath(dir)]);
    expect(readJournalTail(journalPath(dir), 500)).toEqual([]);
    const other = tempDir();
    const target = join(other, 'elsewhere.jsonl');
    writeFileSync(target, `${WRITTEN[0]![1]}\n`);
    mkdirSync(join(other, 'gateway'));
    symlinkSync(target, journalPath(other));
    expect(readJournalTail(journalPath(other), 500)).toEqual([]);
  });
});

describe('unfinished batches, read through the line format', () => {
  it('are found whatever the order of the keys of their lines', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'gateway'));
    const line = (mark: Record<string, string>) =>
      JSON.stringify({ changes, client: '127.0.0.1', key: 'kea', ...mark, zone: 'example.com', time: TIME });
    const lines = [
      line({ intent: 'aaaaaaaaaaaa' }),
      line({ intent: 'bbbbbbbbbbbb' }),
      line({ outcome: 'made', result: 'aaaaaaaaaaaa' }),
    ];
    writeFileSync(journalPath(dir), `${lines.join('\n')}\n`);
    const open = unfinishedBatches(dir);
    expect([...open.keys()]).toEqual(['bbbbbbbbbbbb']);
    const mark = { intent: 'bbbbbbbbbbbb' };
    const intent: JournalLine = { time: TIME, zone: 'example.com', mark, key: 'kea', client: '127.0.0.1', changes };
    expect(open.get('bbbbbbbbbbbb')).toEqual([intent]);
  });
});
