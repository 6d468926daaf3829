import { historyLine, historyRows } from '../../agent/history-view.js';
import { sortedRecords, statusDocument } from '../../agent/status-view.js';
import { readHistory } from '../../state/history.js';
import { outsideText } from '../../lib/outside-text.js';
import { readState } from '../../state/state.js';
import type { CommandContext } from '../command.js';
import { printJson, setup } from '../setup.js';

export async function run(context: CommandContext): Promise<number> {
  const { config, logger } = await setup(context, 'state');
  if (context.flags.history) return printHistory(context, config.stateDir, logger);
  const { state, damage } = readState(config.stateDir);
  if (damage) logger.warn(damage);
  const records = sortedRecords(state);
  if (context.flags.json) {
    printJson(context, statusDocument(config.stateDir, state));
    return 0;
  }
  if (!records.length) context.io.stdout(`no record in the cache (${config.stateDir})\n`);
  for (const r of records) {
    const sent = r.sentAt ? `sent ${r.sentAt} via ${r.via}` : 'never sent';
    // A state written by an older version may hold a provider's text as it came.
    const error = r.lastError ? `; last error ${r.lastErrorAt}: ${outsideText(String(r.lastError), 2000)}` : '';
    const waiting =
      r.backoff && Date.parse(r.backoff.until) > Date.now() ? `; next attempt after ${r.backoff.until}` : '';
    const prefix = r.prefix ? ` from prefix ${r.prefix}` : '';
    context.io.stdout(`${r.host} ${r.type} ${r.address ?? '-'}${prefix} ${sent}${error}${waiting}\n`);
  }
  context.io.stdout(`last successful cycle: ${state.lastSuccessAt ?? 'never'}\n`);
  return 0;
}

/** `status --history`: read only; a damaged file is reported here and set aside by the next cycle. */
function printHistory(context: CommandContext, stateDir: string, logger: { warn(message: string): void }): number {
  const { history, damage } = readHistory(stateDir);
  if (damage) logger.warn(damage);
  const rows = historyRows(history, new Date());
  if (context.flags.json) {
    printJson(context, { stateDir, entries: rows });
    return 0;
  }
  if (!rows.length) context.io.stdout(`no address history yet (${stateDir})\n`);
  for (const row of rows) context.io.stdout(`${historyLine(row)}\n`);
  return 0;
}
