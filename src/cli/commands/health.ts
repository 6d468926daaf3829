// For HEALTHCHECK and monitors: healthy while the last fully successful cycle is recent.
// --max-age here is the freshness wanted (default three intervals), not the re-send age.
import { parseDuration } from '../../duration.js';
import { ConfigError } from '../../errors.js';
import { assessHealth, defaultHealthLimitMs } from '../../agent/health.js';
import { readState } from '../../state/state.js';
import type { CommandContext } from '../command.js';
import { printJson, setup } from '../setup.js';

export async function run(context: CommandContext): Promise<number> {
  const { 'max-age': maxAge, ...flags } = context.flags;
  const { config } = await setup({ ...context, flags }, 'state');
  let limitMs = defaultHealthLimitMs(config.intervalMs);
  if (typeof maxAge === 'string') {
    const parsed = parseDuration(maxAge);
    if (parsed === undefined || parsed <= 0) throw new ConfigError(`--max-age: "${maxAge}" is not a duration; use e.g. 15m or 1h`);
    limitMs = parsed;
  }
  const { state } = readState(config.stateDir);
  const { summary, ...health } = assessHealth(state, limitMs);
  if (context.flags.json) printJson(context, health);
  else context.io.stdout(`${summary}\n`);
  return health.healthy ? 0 : 1;
}
