import { readState } from '../../state/state.js';
import type { CommandContext } from '../command.js';
import { printJson, setup } from '../setup.js';

export async function run(context: CommandContext): Promise<number> {
  const { config, logger } = await setup(context, 'state');
  const { state, damage } = readState(config.stateDir);
  if (damage) logger.warn(damage);
  const records = Object.values(state.records).sort((a, b) => `${a.host}/${a.type}`.localeCompare(`${b.host}/${b.type}`));
  if (context.flags.json) {
    printJson(context, { stateDir: config.stateDir, lastSuccessAt: state.lastSuccessAt ?? null, lastCycleAt: state.lastCycleAt ?? null, records });
    return 0;
  }
  if (!records.length) context.io.stdout(`no record in the cache (${config.stateDir})\n`);
  for (const r of records) {
    const sent = r.sentAt ? `sent ${r.sentAt} via ${r.via}` : 'never sent';
    const error = r.lastError ? `; last error ${r.lastErrorAt}: ${r.lastError}` : '';
    context.io.stdout(`${r.host} ${r.type} ${r.address ?? '-'} ${sent}${error}\n`);
  }
  context.io.stdout(`last successful cycle: ${state.lastSuccessAt ?? 'never'}\n`);
  return 0;
}
