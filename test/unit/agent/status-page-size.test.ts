// The agent's page for 50 hosts and 1,000 history entries (the size bench/status-page.mjs
// measures): under 30 KB of HTML with nothing left out: every record, a page of 50 history
// entries with their addresses, every span of the 30-day picture and its text alternative.
// Bytes, unlike time, are the same on every machine: this is a bound, not a benchmark.
import { describe, expect, it } from 'vitest';
import type { AgentPageView } from '../../../src/agent/page-view.js';
import { historyRows } from '../../../src/agent/history-view.js';
import { timelines } from '../../../src/agent/timeline-view.js';
import { renderAgentPage } from '../../../src/agent/status-page.js';
import type { History } from '../../../src/state/history.js';

const HOSTS = Array.from({ length: 50 }, (_, i) => `h${i}.example.com`);
const now = new Date('2026-11-28T03:00:00.000Z');

function view(): AgentPageView {
  // As bench/status-page.mjs seeds it: an entry an hour, every tenth a lasting failure.
  const entries = Array.from({ length: 1000 }, (_, i) => {
    const host = HOSTS[i % HOSTS.length]!;
    const at = new Date(now.getTime() - (1000 - i) * 3_600_000).toISOString();
    return i % 10 === 9
      ? {
          at,
          host,
          type: 'A' as const,
          event: 'failed' as const,
          reason: 'transient',
          message: 'no complete answer from https://dondns.example within 15000 ms',
          count: 3,
          lastAt: at,
        }
      : {
          at,
          host,
          type: 'A' as const,
          event: 'changed' as const,
          old: `81.0.${i % 250}.1`,
          new: i >= 950 ? '81.0.2.15' : `81.0.${(i + 1) % 250}.1`,
          via: 'dyndns',
        };
  });
  const rows = historyRows({ version: 1, entries } as History, now);
  const records = HOSTS.map((host) => ({
    host,
    type: 'A' as const,
    address: '81.0.2.15',
    since: '2026-11-27T00:00:00.000Z',
    via: 'dyndns',
    status: 'up to date' as const,
  }));
  return {
    now: now.toISOString(),
    overall: { ok: true, text: 'All 50 records are up to date.' },
    records,
    lastCycleAt: now.toISOString(),
    lastSuccessAt: now.toISOString(),
    budget: { used: 0, limit: 60 },
    history: { rows: rows.slice().reverse().slice(0, 50), page: 1, pages: 20, total: rows.length },
    timeline: timelines(rows, records, now),
    problems: [],
  };
}

describe('the status page for 50 hosts and 1,000 history entries', () => {
  it('is under 30 KB with every record, 50 history rows and the whole picture', () => {
    const v = view();
    const html = renderAgentPage(v, { nonce: 'n0nce', csrf: 'f0rm' });
    for (const host of HOSTS) {
      // Its record line, its label in the picture, and its place in the picture's text alternative.
      expect(html).toMatch(
        new RegExp(`<th scope="row">${host.replace(/\./g, '\\.')}(</th>)?<td>A(</td>)?<td>81\\.0\\.2\\.15<`),
      );
      expect(html).toContain(`${host} A: `);
    }
    expect(html.match(/<tr>/g)).toHaveLength(2 + 50 + 50);
    for (const row of v.history.rows) if (row.event === 'changed') expect(html).toContain(`${row.old}</`);
    // Every address span and every failure of the 30 days is drawn: each record's row of the
    // picture has a line starting where each of its spans starts, and one per failure.
    const spans = v.timeline.records.reduce((n, r) => n + r.addresses.length + r.failures.length, 0);
    expect(spans).toBeGreaterThan(600);
    const starts = new Map<number, { colours: Set<number>; failures: number }>();
    for (const [, d, cls] of html.matchAll(/<path d="([^"]+)" class="([^"]+)"\/>/g)) {
      let x = 0;
      let y = 0;
      for (const [, cmd, a, b] of d!.matchAll(/([Mmh])(-?\d+)(?: (-?\d+))?/g)) {
        if (cmd === 'M') [x, y] = [Number(a), Number(b)];
        else if (cmd === 'm') [x, y] = [x + Number(a), y + Number(b)];
        else {
          const row = starts.get(Math.floor(y / 40)) ?? { colours: new Set<number>(), failures: 0 };
          starts.set(Math.floor(y / 40), row);
          if (cls === 'tl-fail') row.failures++;
          else row.colours.add(x);
          x += Number(a);
        }
      }
    }
    const at = (t: number) => Math.round(((t - v.timeline.start) / (v.timeline.end - v.timeline.start)) * 720);
    v.timeline.records.forEach((r, i) => {
      expect(starts.get(i)?.failures ?? 0).toBe(r.failures.length);
      // The first colour is painted once under the whole row; every span of another colour starts a line of its own.
      const colours = new Map<string, number>();
      r.addresses.forEach((span, n) => {
        if (!colours.has(span.address)) colours.set(span.address, colours.size % 4);
        if (n === 0 || colours.get(span.address) !== 0) expect(starts.get(i)?.colours.has(at(span.from))).toBe(true);
      });
    });
    expect(Buffer.byteLength(html)).toBeLessThan(30_000);
  });
});
