// The last 30 days of each record as spans of time: which address it held when, and when it
// was failing. Drawn by the status page as a picture; the history table holds the same facts
// as text.
import type { RecordType } from '../lib/address.js';
import type { HistoryRow } from './history-view.js';

export const TIMELINE_DAYS = 30;

interface Span {
  from: number;
  to: number;
}

export interface RecordTimeline {
  host: string;
  type: RecordType;
  /** Spans in order; `address` repeats when the record went back to an earlier one. */
  addresses: (Span & { address: string })[];
  failures: Span[];
}

export function timelines(
  rows: HistoryRow[],
  records: { host: string; type: RecordType }[],
  now: Date,
): { start: number; end: number; records: RecordTimeline[] } {
  const end = now.getTime();
  const start = end - TIMELINE_DAYS * 86_400_000;
  // Each record's rows, found in one pass (not one pass per record).
  const byRecord = new Map<string, HistoryRow[]>();
  for (const r of rows) {
    const key = `${r.host}/${r.type}`;
    const list = byRecord.get(key);
    if (list) list.push(r);
    else byRecord.set(key, [r]);
  }
  const clip = (s: Span): Span | undefined =>
    s.to < start || s.from > end ? undefined : { from: Math.max(start, s.from), to: Math.min(end, s.to) };
  return {
    start,
    end,
    records: records.map(({ host, type }) => {
      const own = byRecord.get(`${host}/${type}`) ?? [];
      const changes = own.filter((r) => r.event === 'changed');
      const addresses = changes
        .map((r, i) => ({
          address: r.new ?? '',
          span: clip({ from: Date.parse(r.at), to: i + 1 < changes.length ? Date.parse(changes[i + 1]!.at) : end }),
        }))
        .filter((a): a is { address: string; span: Span } => a.span !== undefined)
        .map((a) => ({ address: a.address, ...a.span }));
      const failures = own
        .filter((r) => r.event === 'failed')
        .map((r) => clip({ from: Date.parse(r.at), to: Date.parse(r.lastAt ?? r.at) }))
        .filter((s): s is Span => s !== undefined);
      return { host, type, addresses, failures };
    }),
  };
}
