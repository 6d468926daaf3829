// For HEALTHCHECK and monitors: healthy while the last fully successful cycle is recent.
// --max-age here is the freshness wanted (default three intervals), not the re-send age.
import { parseDuration } from '../../duration.js';
import { ConfigError } from '../../errors.js';
import { readState } from '../../state/state.js';
import type { CommandContext } from '../registry.js';
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
  // A success in the future (or a time that is not one) is no evidence of health: the clock
  // or the state file is wrong. A minute of slack covers a clock stepped by NTP.
  const invalid = last !== undefined && (Number.isNaN(last) || ageMs! < -FUTURE_SLACK_MS);
  const healthy = !invalid && ageMs !== undefined && ageMs <= limitMs;
  const shownAge = ageMs === undefined || invalid ? null : Math.max(0, ageMs);
  if (context.flags.json) {
    printJson(context, { healthy, lastSuccessAt: state.lastSuccessAt ?? null, ageMs: shownAge, maxAgeMs: limitMs, ...(invalid ? { invalidState: invalidReason(state.lastSuccessAt!) } : {}) });
  } else if (invalid) {
    context.io.stdout(`unhealthy: invalid state: ${invalidReason(state.lastSuccessAt!)}\n`);
  } else {
    context.io.stdout(healthy ? `healthy: last successful cycle ${Math.round(shownAge! / 1000)}s ago\n` : `unhealthy: ${last === undefined ? 'no successful cycle yet' : `last successful cycle ${Math.round(shownAge! / 1000)}s ago`} (limit ${Math.round(limitMs / 1000)}s)\n`);
  }
  return healthy ? 0 : 1;
}

const FUTURE_SLACK_MS = 60_000;

function invalidReason(lastSuccessAt: string): string {
  const shown = JSON.stringify(String(lastSuccessAt).slice(0, 40));
  return Number.isNaN(Date.parse(lastSuccessAt)) ? `the last success time ${shown} is not a time` : `the last success time ${shown} is in the future (check the clock and the state file)`;
}
