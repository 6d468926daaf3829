// The audit journal's history: generations kept by age (30 days), at most MAX_GENERATIONS files,
// and each key within a daily budget, so that one key's volume cannot push the others' lines out;
// every line left out or file removed is said in the log.
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { journalPath, writeJournal } from '../../../../src/gateway/journal/journal.js';
import { forgetJournalBudgets, KEY_BYTES_PER_DAY, MAX_GENERATIONS } from '../../../../src/gateway/journal/retention.js';
import { JOURNAL_FILE_BYTES } from '../../../../src/gateway/journal/journal-line.js';
import { tempDir } from '../../../helpers/cli.js';

const logger = () => {
  const lines: string[] = [];
  const keep = (l: string) => void lines.push(l);
  return { lines, error: keep, warn: keep, info: keep, debug: () => undefined };
};
const change = (i: number) => ({
  action: 'create' as const,
  after: { name: `h${i}.example.com`, type: 'TXT' as const, ttl: 60, value: 'x'.repeat(200) },
});
const entry = (key: string, count = 1) => ({
  zone: 'example.com',
  key,
  client: '127.0.0.1',
  changes: Array.from({ length: count }, (_, i) => change(i)),
});
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

beforeEach(() => forgetJournalBudgets());

function fullJournal(): { state: string; path: string } {
  const state = tempDir('ddedge-journal-');
  mkdirSync(join(state, 'gateway'), { recursive: true });
  const path = journalPath(state);
  writeFileSync(
    path,
    `${JSON.stringify({ time: '2020-01-01T00:00:00.000Z', key: 'old', filler: 'y'.repeat(JOURNAL_FILE_BYTES) })}\n`,
  );
  return { state, path };
}

describe('the journal keeps a history by time', () => {
  it('rotates into numbered generations; removes only those whose newest line is older than 30 days, and says so', () => {
    const { state, path } = fullJournal();
    writeFileSync(`${path}.1`, 'ten days old\n');
    utimesSync(`${path}.1`, daysAgo(10), daysAgo(10));
    writeFileSync(`${path}.2`, 'forty days old\n');
    utimesSync(`${path}.2`, daysAgo(40), daysAgo(40));
    const log = logger();
    writeJournal(state, entry('kea'), new Date(), log);
    expect(readFileSync(`${path}.2`, 'utf8')).toBe('ten days old\n');
    expect(readFileSync(`${path}.1`, 'utf8')).toMatch(/^\{"time":"2020/);
    expect(existsSync(`${path}.3`)).toBe(false);
    expect(JSON.parse(readFileSync(path, 'utf8')).key).toBe('kea');
    expect(log.lines).toEqual([
      expect.stringMatching(
        /^gateway: journal: removed journal\.jsonl\.2, whose newest line \(.*\) is older than 30 days$/,
      ),
    ]);
  });

  it(`keeps at most ${MAX_GENERATIONS} generations, and says when it drops one younger than 30 days`, () => {
    const { state, path } = fullJournal();
    for (let n = 1; n <= MAX_GENERATIONS; n++) writeFileSync(`${path}.${n}`, `generation ${n}\n`);
    const log = logger();
    writeJournal(state, entry('kea'), new Date(), log);
    expect(readFileSync(`${path}.${MAX_GENERATIONS}`, 'utf8')).toBe(`generation ${MAX_GENERATIONS - 1}\n`);
    expect(readFileSync(`${path}.2`, 'utf8')).toBe('generation 1\n');
    expect(existsSync(`${path}.${MAX_GENERATIONS + 1}`)).toBe(false);
    expect(log.lines).toEqual([
      expect.stringMatching(
        new RegExp(
          `^gateway: journal: dropped journal\\.jsonl\\.${MAX_GENERATIONS} \\(lines up to .*\\), younger than 30 days`,
        ),
      ),
    ]);
  });
});

describe("one key's volume", () => {
  it('is bounded by its daily budget; the lines past it are left out, said once; other keys still write', () => {
    const state = tempDir('ddedge-journal-');
    const log = logger();
    let written = 0;
    // Each line about 25 KB: the budget is spent in under a hundred.
    for (let i = 0; i < 200; i++) {
      writeJournal(state, entry('flood', 100), new Date(), log);
      written = readFileSync(journalPath(state), 'utf8')
        .split('\n')
        .filter((l) => l.includes('"key":"flood"')).length;
    }
    const floodBytes = readFileSync(journalPath(state)).length;
    expect(floodBytes).toBeLessThanOrEqual(KEY_BYTES_PER_DAY);
    expect(written).toBeLessThan(200);
    writeJournal(state, entry('kea'), new Date(), log);
    expect(readFileSync(journalPath(state), 'utf8')).toMatch(/"key":"kea"/);
    expect(log.lines).toEqual([
      expect.stringMatching(
        /^gateway: journal: key flood has written .* MiB to journal\.jsonl today, its budget of 2\.0 MiB a day; its further changes today are left out/,
      ),
    ]);
  });

  it('counts what a key wrote today across a restart (from the current file)', () => {
    const state = tempDir('ddedge-journal-');
    for (let i = 0; i < 200; i++) writeJournal(state, entry('flood', 100), new Date());
    const before = readFileSync(journalPath(state)).length;
    forgetJournalBudgets();
    writeJournal(state, entry('flood', 100), new Date());
    expect(readFileSync(journalPath(state)).length).toBe(before);
  });
});
