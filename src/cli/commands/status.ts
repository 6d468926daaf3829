import { type HistoryFilter, historyLine, historyRows, selectHistory } from '../../agent/history-view.js';
import { readCount, valueNoting } from '../../config/readers.js';
import { parseDuration } from '../../lib/duration.js';
import { ConfigError } from '../../lib/errors.js';
import { isHostName, normaliseHost } from '../../lib/names.js';
import { persistedRows } from '../../agent/persist-watch.js';
import { sortedRecords, statusDocument } from '../../agent/status-view.js';
import { readHistory } from '../../state/history.js';
import { outsideText } from '../../lib/outside-text.js';
import { readState } from '../../state/state.js';
import { containerOrigins, originText } from '../../agent/container-rows.js';
import type { CommandContext } from '../command.js';
import { printJson, setup } from '../setup.js';

export async function run(context: CommandContext): Promise<number> {
  const narrowing = ['limit', 'since', 'host'].filter((name) => context.flags[name] !== undefined);
  if (!context.flags.history && narrowing.length)
    throw new ConfigError(`--${narrowing[0]} narrows the address history: give --history with it`);
  const { config, logger } = await setup(context, 'state');
  if (context.flags.history) return printHistory(context, config.stateDir, logger);
  const { state, damage } = readState(config.stateDir);
  if (damage) logger.warn(damage);
  const records = sortedRecords(state);
  // The DNS-PERSIST-01 records `acme persist` keeps here, with the daemon's warning (none: nothing said).
  const persisted = persistedRows(config.stateDir, Date.now());
  if (persisted.problem) logger.warn(persisted.problem);
  // The containers' names, whether or not this command was given --containers: the cache holds their records.
  const origins = containerOrigins(config.stateDir);
  if (origins.damage) logger.warn(origins.damage);
  const named = new Map(origins.names.map((n) => [n.name, n]));
  if (context.flags.json) {
    const document = statusDocument(config.stateDir, state, origins.names.length ? origins.names : undefined);
    printJson(context, persisted.rows.length ? { ...document, persisted: persisted.rows } : document);
    return 0;
  }
  if (!records.length && !named.size) context.io.stdout(`no record in the cache (${config.stateDir})\n`);
  for (const r of records) {
    const sent = r.sentAt ? `sent ${r.sentAt} via ${r.via}` : 'never sent';
    // A state written by an older version may hold a provider's text as it came.
    const error = r.lastError ? `; last error ${r.lastErrorAt}: ${outsideText(String(r.lastError), 2000)}` : '';
    const waiting =
      r.backoff && Date.parse(r.backoff.until) > Date.now() ? `; next attempt after ${r.backoff.until}` : '';
    const prefix = r.prefix ? ` from prefix ${r.prefix}` : '';
    const container = named.has(r.host) ? ` (${originText(named.get(r.host)!)})` : '';
    context.io.stdout(`${r.host} ${r.type} ${r.address ?? '-'}${prefix} ${sent}${error}${waiting}${container}\n`);
  }
  for (const n of origins.names.filter((x) => x.target)) {
    const sent = n.cname ? `${n.cname.value} sent ${n.cname.sentAt} via api` : `${n.target} never sent`;
    context.io.stdout(`${n.name} CNAME ${sent} (${originText(n)})\n`);
  }
  context.io.stdout(`last successful cycle: ${state.lastSuccessAt ?? 'never'}\n`);
  for (const row of persisted.rows)
    context.io.stdout(
      `${row.name} TXT (DNS-PERSIST-01${row.status === 'valid' ? '' : `, ${row.status}`}): ${row.text}\n`,
    );
  return 0;
}

/** `status --history`: read only; a damaged file is reported here and set aside by the next cycle. Newest first. */
function printHistory(context: CommandContext, stateDir: string, logger: { warn(message: string): void }): number {
  const now = new Date();
  const filter = historyFilter(context.flags, now);
  const { history, damage } = readHistory(stateDir);
  if (damage) logger.warn(damage);
  const rows = selectHistory(historyRows(history, now), filter);
  if (context.flags.json) {
    printJson(context, { stateDir, entries: rows });
    return 0;
  }
  const narrowed = filter.host !== undefined || filter.since !== undefined;
  if (!rows.length)
    context.io.stdout(
      narrowed ? 'no entry of the address history matches\n' : `no address history yet (${stateDir})\n`,
    );
  for (const row of [...rows].reverse()) context.io.stdout(`${historyLine(row)}\n`);
  return 0;
}

/** --host, --since (a duration back from now, or a time) and --limit, checked before the file is read. */
function historyFilter(flags: CommandContext['flags'], now: Date): HistoryFilter {
  const problems: string[] = [];
  const text = (name: string) => flags[name] as string | undefined;
  const limitText = text('limit');
  const limit =
    limitText === undefined ? undefined : valueNoting(readCount(limitText, { min: 1 }, '--limit'), problems);
  const sinceText = text('since');
  const since = sinceText === undefined ? undefined : sinceOf(sinceText, now, problems);
  const hostText = text('host');
  const host = hostText === undefined ? undefined : normaliseHost(hostText);
  if (host !== undefined && !isHostName(host)) problems.push(`--host: "${hostText}" is not a host name`);
  if (problems.length) throw new ConfigError(problems.join('; '));
  return { limit, since, host };
}

function sinceOf(text: string, now: Date, problems: string[]): number | undefined {
  const back = parseDuration(text);
  if (back !== undefined) return now.getTime() - back;
  const time = /^\d{4}-\d\d-\d\d/.test(text) ? Date.parse(text) : Number.NaN;
  if (!Number.isNaN(time)) return time;
  problems.push(
    `--since: "${text}" is neither a duration back from now (24h, 7d) nor a time (2026-11-30, 2026-11-30T08:00Z)`,
  );
  return undefined;
}
