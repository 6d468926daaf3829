// The history's bounds: entries and bytes, oldest out first; and the events it derives.
import { describe, expect, it } from 'vitest';
import { recordOutcomes, FAILING_AFTER } from '../../../src/agent/history-events.js';
import type { Outcome } from '../../../src/agent/outcome.js';
import { boundedText, emptyHistory, HISTORY_LIMITS, type History } from '../../../src/state/history.js';
import { DdedgeError } from '../../../src/lib/errors.js';

const changed = (i: number) => ({
  at: new Date(i * 1000).toISOString(),
  host: `h${i}.example.com`,
  type: 'A' as const,
  event: 'changed' as const,
  new: `81.0.${(i >> 8) & 255}.${i & 255}`,
  via: 'dyndns' as const,
});

describe('history bounds', () => {
  it('keeps at most the entry bound, dropping the oldest', () => {
    const history: History = {
      version: 1,
      entries: Array.from({ length: HISTORY_LIMITS.entries + 50 }, (_, i) => changed(i)),
    };
    const text = boundedText(history);
    const kept = JSON.parse(text) as History;
    expect(kept.entries).toHaveLength(HISTORY_LIMITS.entries);
    expect(kept.entries[0]!.host).toBe('h50.example.com');
  });
  it('keeps within the byte bound, dropping the oldest', () => {
    const history: History = {
      version: 1,
      entries: Array.from({ length: 500 }, (_, i) => ({ ...changed(i), message: 'x'.repeat(300) })),
    };
    const text = boundedText(history, { ...HISTORY_LIMITS, bytes: 20_000 });
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(20_000);
    const kept = JSON.parse(text) as History;
    expect(kept.entries.at(-1)!.host).toBe('h499.example.com');
    expect(kept.entries.length).toBeGreaterThan(10);
  });
});

describe('events from outcomes', () => {
  const failed = (message: string, code: 3 | 4 = 4): Outcome => ({
    host: 'a.example.com',
    type: 'A',
    address: '81.0.2.15',
    action: 'failed',
    via: 'dyndns',
    message,
    error: new DdedgeError(message, code),
  });
  it('tells of a transient failure only once it has lasted, and of its recovery', () => {
    const history = emptyHistory();
    const notices = [];
    for (let i = 0; i < FAILING_AFTER + 2; i++)
      notices.push(...recordOutcomes(history, [failed('HTTP 503')], new Date(i * 60_000)));
    expect(notices.map((n) => n.event)).toEqual(['failing']);
    const ok: Outcome = {
      host: 'a.example.com',
      type: 'A',
      address: '81.0.2.16',
      action: 'updated',
      via: 'dyndns',
      message: '',
      previous: '81.0.2.15',
    };
    expect(recordOutcomes(history, [ok], new Date()).map((n) => n.event)).toEqual(['recovered', 'changed']);
  });
  it('a blip is recorded but not told', () => {
    const history = emptyHistory();
    expect(recordOutcomes(history, [failed('HTTP 503')], new Date(0))).toEqual([]);
    const ok: Outcome = {
      host: 'a.example.com',
      type: 'A',
      address: '81.0.2.15',
      action: 'unchanged',
      via: 'cache',
      message: '',
    };
    expect(recordOutcomes(history, [ok], new Date(1))).toEqual([]);
    expect(history.entries.map((e) => e.event)).toEqual(['failed', 'recovered']);
  });
  it('a send made again because the state could not be saved is not a second change', () => {
    const history = emptyHistory();
    const sent: Outcome = {
      host: 'a.example.com',
      type: 'A',
      address: '81.0.2.15',
      action: 'updated',
      via: 'dyndns',
      message: '',
    };
    expect(recordOutcomes(history, [sent], new Date(0)).map((n) => n.event)).toEqual(['changed']);
    expect(recordOutcomes(history, [sent], new Date(1))).toEqual([]);
    expect(history.entries).toHaveLength(1);
  });
  it('rejected credentials are told at once, once', () => {
    const history = emptyHistory();
    const first = recordOutcomes(history, [failed('rejected', 3)], new Date(0));
    const again = recordOutcomes(history, [failed('rejected', 3)], new Date(1));
    expect(first.map((n) => n.event)).toEqual(['rejected']);
    expect(again).toEqual([]);
  });
});
