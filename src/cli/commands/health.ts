// For HEALTHCHECK and monitors: healthy while the last fully successful cycle is recent.
// --max-age here is the freshness wanted (default three intervals), not the re-send age.
import { parseDuration } from '../../duration.js';
import { ConfigError } from '../../errors.js';
import { readState } from '../../state/state.js';
import type { CommandContext } from '../command.js';
import { printJson, setup } from '../setup.js';

export async function run(context: CommandContext): Promise<number> {
  const { 'max-age': maxAge, ...flags } = context.flags;
  const { config } = await setup({ ...context, flags }, 'state');
  let limitMs = 3 * config.intervalMs;
  if (typeof maxAge === 'string') {
    const parsed = parseDuration(maxAge);
    if (parsed === undefined || parsed <= 0) throw new ConfigError(`--max-age: "${maxAge}" is not a duration; use e.g. 15m or 1h`);
    limitMs = parsed;
  }
  const { state } = readState(config.stateDir);
  const last = state.lastSuccessAt ? Date.parse(state.lastSuccessAt) : undefined;
  const ageMs = last === undefined ? undefined : Date.now() - last;
  const healthy = ageMs !== undefined && ageMs <= limitMs;
  if (context.flags.json) printJson(context, { healthy, lastSuccessAt: state.lastSuccessAt ?? null, ageMs: ageMs ?? null, maxAgeMs: limitMs });
  else context.io.stdout(healthy ? `healthy: last successful cycle ${Math.round(ageMs! / 1000)}s ago\n` : `unhealthy: ${last === undefined ? 'no successful cycle yet' : `last successful cycle ${Math.round(ageMs! / 1000)}s ago`} (limit ${Math.round(limitMs / 1000)}s)\n`);
  return healthy ? 0 : 1;
}
