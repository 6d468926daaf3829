// `status --history --host/--since/--limit`: which entries a reader asked for.
import { describe, expect, it } from 'vitest';
import { type HistoryRow, selectHistory } from '../../../src/agent/history-view.js';

const row = (at: string, host: string, extra: Partial<HistoryRow> = {}): HistoryRow => ({
  at,
  host,
  type: 'A',
  event: 'changed',
  new: '81.0.2.15',
  via: 'dyndns',
  ...extra,
});
const rows = [
  row('2026-11-01T00:00:00.000Z', 'a.example.com'),
  row('2026-11-02T00:00:00.000Z', 'b.example.com'),
  // A failure repeated until the 20th counts from its last cycle.
  row('2026-11-03T00:00:00.000Z', 'a.example.com', { event: 'failed', lastAt: '2026-11-20T00:00:00.000Z' }),
  row('2026-11-10T00:00:00.000Z', 'a.example.com'),
];
const ats = (selected: HistoryRow[]) => selected.map((r) => r.at.slice(5, 10));

describe('the address history a reader asked for', () => {
  it('keeps everything, oldest first, when nothing narrows it', () => {
    expect(ats(selectHistory(rows, {}))).toEqual(['11-01', '11-02', '11-03', '11-10']);
  });

  it("keeps one host's entries", () => {
    expect(ats(selectHistory(rows, { host: 'a.example.com' }))).toEqual(['11-01', '11-03', '11-10']);
  });

  it('keeps entries from a time on, a repeated failure by its last cycle', () => {
    expect(ats(selectHistory(rows, { since: Date.parse('2026-11-05T00:00:00Z') }))).toEqual(['11-03', '11-10']);
  });

  it('keeps the newest N, after the other filters', () => {
    expect(ats(selectHistory(rows, { limit: 2 }))).toEqual(['11-03', '11-10']);
    expect(ats(selectHistory(rows, { host: 'b.example.com', limit: 2 }))).toEqual(['11-02']);
  });
});
