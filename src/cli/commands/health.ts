// For HEALTHCHECK and monitors: healthy while the last fully successful cycle is recent.
// Its window is --healthy-within / DDEDGE_HEALTH_MAX_AGE (default three intervals); on this
// command's line --max-age means the same, as the contract has it (`ddedge health --max-age D`),
// while DDEDGE_MAX_AGE stays the cycle's re-send age, which health does not read.
import { parseDuration } from '../../lib/duration.js';
import { ConfigError } from '../../lib/errors.js';
import { assessHealth } from '../../agent/health.js';
import { readState } from '../../state/state.js';
import type { CommandContext } from '../command.js';
import { printJson, setup } from '../setup.js';

export async function run(context: CommandContext): Promise<number> {
  const { 'max-age': maxAge, ...flags } = context.flags;
  if (maxAge !== undefined && flags['healthy-within'] !== undefined)
    throw new ConfigError('health: give --max-age or --healthy-within, not both (they are the same)');
  const { config } = await setup({ ...context, flags }, 'state');
  let limitMs = config.healthLimitMs;
  if (maxAge !== undefined) {
    const parsed = typeof maxAge === 'string' ? parseDuration(maxAge) : undefined;
    if (parsed === undefined || parsed <= 0)
      throw new ConfigError(
        `--max-age: ${typeof maxAge === 'string' ? `"${maxAge}" is not a duration` : 'needs a value'}; use e.g. 15m ` +
          `or 1h`,
      );
    limitMs = parsed;
  }
  const { state } = readState(config.stateDir);
  const { summary, ...health } = assessHealth(state, limitMs);
  if (context.flags.json) printJson(context, health);
  else context.io.stdout(`${summary}\n`);
  return health.healthy ? 0 : 1;
}
