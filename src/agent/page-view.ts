// What the status page shows of the agent, read from the state and the history at request
// time (as `status` reads them): one row per record the configuration keeps, a status in
// words, the call budget of this hour, and the history newest first, a page at a time. Only
// host names, addresses and ddedge's own (redacted) messages: never a secret.
import type { Config } from '../config/config.js';
import type { RecordType } from '../lib/address.js';
import { plannedRecords } from '../lan/planned-records.js';
import { outsideText } from '../lib/outside-text.js';
import { readHistoryOnce } from './history-cache.js';
import { recentSourceAnswers, type RecentSources } from './recent-sources.js';
import { readState, recordKey, type State } from '../state/state.js';
import { CALL_WINDOW_MINUTES } from '../state/budget.js';
import { plannedNextCycle } from './next-cycle.js';
import { assessHealth } from './health.js';
import { historyRows, type HistoryRow } from './history-view.js';
import { timelines, type RecordTimeline } from './timeline-view.js';
import { counted } from '../lib/counted.js';
import { utcText } from '../probe/page-frame.js';
import { persistedRows, type PersistedRow } from './persist-watch.js';
import type { ContainerName } from '../state/container-names.js';
import { containerOrigins, originText, typesOfName } from './container-rows.js';

type RecordStatus = 'up to date' | 'failing' | 'waiting' | 'not sent yet';

export interface RecordRow {
  host: string;
  type: RecordType | 'CNAME';
  /** A container's name: which containers gave it (see container-rows.ts). */
  from?: string;
  address?: string;
  /** When the provider started holding this address (the history's change, else the last send). */
  since?: string;
  via?: string;
  status: RecordStatus;
  /** Why, in words, when not up to date. */
  reason?: string;
}

export interface AgentPageView {
  now: string;
  overall: { ok: boolean; text: string };
  records: RecordRow[];
  lastCycleAt?: string;
  lastSuccessAt?: string;
  /** About when the next cycle runs (as the daemon planned it: the interval, or a retry after a failure). */
  nextCycleAt?: string;
  budget: { used: number; limit: number };
  history: { rows: HistoryRow[]; page: number; pages: number; total: number };
  /** The last 30 days of each record, for the picture. */
  timeline: { start: number; end: number; records: RecordTimeline[] };
  /** The address sources' last answers, by family (this process's last detection). */
  sources?: RecentSources[];
  /** The state or history file could not be used (already redacted). */
  problems: string[];
  /** The DNS-PERSIST-01 records `acme persist` keeps here (absent when none): soonest persistUntil first. */
  persisted?: PersistedRow[];
}

const HISTORY_PAGE_SIZE = 50;
const MINUTE_MS = 60_000;
/** A call counts for the hour after the minute it was made in (state/budget.ts). */
const BUDGET_WINDOW_MS = CALL_WINDOW_MINUTES * MINUTE_MS;

/** As the daemon planned it (a retry comes sooner than the interval); else the last cycle + the interval. */
function nextCycleAt(lastCycleAt: string | undefined, intervalMs: number, now: Date): string | undefined {
  const planned = plannedNextCycle();
  const at = planned ?? (lastCycleAt ? Date.parse(lastCycleAt) + intervalMs : undefined);
  return at === undefined ? undefined : new Date(Math.max(now.getTime(), at)).toISOString();
}

export function agentPageView(config: Config, page: number, now = new Date()): AgentPageView {
  const { state, damage } = readState(config.stateDir);
  const loaded = readHistoryOnce(config.stateDir);
  const persisted = persistedRows(config.stateDir, now.getTime());
  const problems = [damage, loaded.damage, persisted.problem]
    .filter((p): p is string => Boolean(p))
    .map((p) => outsideText(p));
  const rows = historyRows(loaded.history, now);
  const origins = config.containers ? containerOrigins(config.stateDir) : undefined;
  if (origins?.damage) problems.push(outsideText(origins.damage));
  const records = [
    ...plannedRecords(config).map(({ host, type }) => recordRow(state, rows, host, type, now)),
    ...(origins?.names ?? []).flatMap((name) =>
      typesOfName(name, config.ipv6).map((type) => ({ ...containerRow(state, rows, name, type, now) })),
    ),
  ];
  const failing = records.filter((r) => r.status === 'failing' || r.status === 'waiting').length;
  const health = assessHealth(state, config.healthLimitMs, now.getTime());
  const overall = !records.length
    ? { ok: false, text: 'No host is configured.' }
    : failing
      ? { ok: false, text: `${failing} of ${counted(records.length, 'record')} failing.` }
      : !health.healthy
        ? { ok: false, text: health.lastSuccessAt ? 'No successful cycle recently.' : 'No successful cycle yet.' }
        : {
            ok: true,
            text: `${records.length === 1 ? 'The record is' : `All ${records.length} records are`} up to date.`,
          };
  const newestFirst = rows.slice().reverse();
  const pages = Math.max(1, Math.ceil(newestFirst.length / HISTORY_PAGE_SIZE));
  const shown = Math.min(Math.max(1, page), pages);
  return {
    now: now.toISOString(),
    overall,
    records,
    lastCycleAt: state.lastCycleAt,
    lastSuccessAt: state.lastSuccessAt,
    nextCycleAt: nextCycleAt(state.lastCycleAt, config.intervalMs, now),
    budget: { used: callsThisHour(state, now), limit: config.maxCallsPerHour },
    history: {
      rows: newestFirst.slice((shown - 1) * HISTORY_PAGE_SIZE, shown * HISTORY_PAGE_SIZE),
      page: shown,
      pages,
      total: rows.length,
    },
    timeline: timelines(rows, records.filter(isAddressRow), now),
    sources: recentSourceAnswers(),
    problems,
    ...(persisted.rows.length ? { persisted: persisted.rows } : {}),
  };
}

const isAddressRow = (r: RecordRow): r is RecordRow & { type: RecordType } => r.type !== 'CNAME';

/** A container's name: its CNAME as the containers' list holds it, or its address records as the cache does. */
function containerRow(
  state: State,
  rows: HistoryRow[],
  name: ContainerName,
  type: RecordType | 'CNAME',
  now: Date,
): RecordRow {
  const from = originText(name);
  if (type !== 'CNAME') return { ...recordRow(state, rows, name.name, type, now), from };
  const { cname } = name;
  if (!cname) return { host: name.name, type, from, status: 'not sent yet' };
  return { host: name.name, type, address: cname.value, since: cname.sentAt, via: 'api', from, status: 'up to date' };
}

function recordRow(state: State, rows: HistoryRow[], host: string, type: RecordType, now: Date): RecordRow {
  const record = state.records[recordKey(host, type)];
  if (!record?.address && !record?.lastError) return { host, type, status: 'not sent yet' };
  // Searched from the newest without copying the rows: the page is built for 50 records of a 1,000-entry history.
  let change: HistoryRow | undefined;
  for (let i = rows.length - 1; i >= 0 && !change; i--) {
    const r = rows[i]!;
    if (r.host === host && r.type === type && r.event === 'changed' && r.new === record.address) change = r;
  }
  const base = { host, type, address: record.address, since: change?.at ?? record.sentAt, via: record.via };
  if (record.backoff && Date.parse(record.backoff.until) > now.getTime()) {
    return {
      ...base,
      status: 'waiting',
      reason:
        `the provider refused it (${outsideText(String(record.lastError ?? 'refused'), 300)}); next attempt ` +
        `after ${utcText(record.backoff.until)}`,
    };
  }
  if (record.lastError) return { ...base, status: 'failing', reason: outsideText(String(record.lastError), 300) };
  return { ...base, status: 'up to date' };
}

function callsThisHour(state: State, now: Date): number {
  let used = 0;
  for (const [minute, count] of Object.entries(state.calls ?? {})) {
    const start = Number(minute) * MINUTE_MS;
    if (start + BUDGET_WINDOW_MS > now.getTime() && start <= now.getTime() && count > 0) used += count;
  }
  return used;
}
