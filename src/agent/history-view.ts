// The address history as people read it (`ddedge status --history`, the status page): each
// entry with how long it held, newest last, and one line of text for a terminal.
import { outsideText } from '../lib/outside-text.js';
import type { History, HistoryEntry } from '../state/history.js';

export interface HistoryRow extends HistoryEntry {
  /** changed: how long this address was held, in ms (until the next change of the record, or now). */
  heldMs?: number;
  /** changed: still the record's address. */
  current?: boolean;
}

/** Entries oldest first, each `changed` one with how long its address held. */
export function historyRows(history: History, now: Date): HistoryRow[] {
  const rows: HistoryRow[] = history.entries.map((e) => ({ ...e }));
  const nextChange = new Map<string, number>();
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i]!;
    if (row.event !== 'changed') continue;
    const key = `${row.host}/${row.type}`;
    const until = nextChange.get(key);
    const start = Date.parse(row.at);
    row.heldMs = Math.max(0, (until ?? now.getTime()) - start);
    if (until === undefined) row.current = true;
    nextChange.set(key, start);
  }
  return rows;
}

/** Far above what the history keeps of a failure's text (lib/outside-text.ts): a bound for an older file's. */
const HISTORY_TEXT_LIMIT = 2000;

/** What a reader of the history asked for: one host, from a time on, the newest so many. */
export interface HistoryFilter {
  host?: string;
  /** Milliseconds since the epoch: entries before it are left out. */
  since?: number;
  limit?: number;
}

/** The rows a reader asked for, oldest first: those of `host`, at or after `since`, the newest `limit` of them. */
export function selectHistory(rows: HistoryRow[], filter: HistoryFilter): HistoryRow[] {
  const chosen = rows.filter(
    (row) =>
      (filter.host === undefined || row.host === filter.host) &&
      (filter.since === undefined || Date.parse(row.lastAt ?? row.at) >= filter.since),
  );
  return filter.limit === undefined ? chosen : chosen.slice(-filter.limit);
}

/** "3d 4h", "5m 2s": the two largest units. */
export function describeDuration(ms: number): string {
  const units: [string, number][] = [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ];
  const parts: string[] = [];
  let rest = ms;
  for (const [name, size] of units) {
    const n = Math.floor(rest / size);
    if (n > 0 || (parts.length && parts.length < 2)) parts.push(`${n}${name}`);
    rest -= n * size;
    if (parts.length === 2) break;
  }
  return parts.join(' ') || '0s';
}

/** One line per entry; outside text is escaped again (a history written by another version). */
export function historyLine(row: HistoryRow): string {
  const what = `${row.at} ${row.host} ${row.type}`;
  switch (row.event) {
    case 'changed': {
      const held =
        row.heldMs === undefined
          ? ''
          : row.current
            ? `; current for ${describeDuration(row.heldMs)}`
            : `; held ${describeDuration(row.heldMs)}`;
      // No old address: the first ddedge sent for the record (none was recorded before it). A field a
      // history not written by this writer left out reads "-", as on the status page.
      const sent = row.new ?? '-';
      const change = row.old ? `changed ${row.old} -> ${sent}` : `first sent ${sent}`;
      return `${what} ${change} via ${row.via ?? '-'}${held}`;
    }
    case 'failed': {
      const times = (row.count ?? 1) > 1 ? ` (${row.count} cycles in a row, last ${row.lastAt})` : '';
      // Whole: the history keeps a failure's text bounded already; a second, shorter cut would hide its end.
      return `${what} failed${times}: ${outsideText(String(row.message ?? row.reason ?? ''), HISTORY_TEXT_LIMIT)}`;
    }
    case 'added':
    case 'removed':
      // A container's name came or went: the message says which containers gave it.
      return `${what} ${row.event}: ${outsideText(String(row.message ?? ''), HISTORY_TEXT_LIMIT)}`;
    default:
      return `${what} recovered`;
  }
}
