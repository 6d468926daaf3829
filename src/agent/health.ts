// The one health rule, for `ddedge health` and the daemon's /healthz: healthy while the last
// fully successful cycle is younger than the limit (config.healthLimitMs: default three intervals).
import type { State } from '../state/state.js';

export interface Health {
  healthy: boolean;
  lastSuccessAt: string | null;
  ageMs: number | null;
  maxAgeMs: number;
  /** Set when the state's last success is no time, or one in the future: no evidence of health. */
  invalidState?: string;
  /** One line for people. */
  summary: string;
}

// A minute of slack covers a clock stepped by NTP.
const FUTURE_SLACK_MS = 60_000;

export function assessHealth(state: State, limitMs: number, nowMs: number = Date.now()): Health {
  const lastSuccessAt = state.lastSuccessAt ?? null;
  const last = lastSuccessAt ? Date.parse(lastSuccessAt) : undefined;
  const rawAge = last === undefined ? undefined : nowMs - last;
  // A success in the future (or a time that is not one) says the clock or the state file is wrong.
  const invalid = last !== undefined && (Number.isNaN(last) || rawAge! < -FUTURE_SLACK_MS);
  if (invalid) {
    const invalidState = invalidReason(lastSuccessAt!);
    return {
      healthy: false,
      lastSuccessAt,
      ageMs: null,
      maxAgeMs: limitMs,
      invalidState,
      summary: `unhealthy: invalid state: ${invalidState}`,
    };
  }
  const ageMs = rawAge === undefined ? undefined : Math.max(0, rawAge);
  const healthy = ageMs !== undefined && ageMs <= limitMs;
  const summary = healthy
    ? `healthy: last successful cycle ${Math.round(ageMs / 1000)}s ago`
    : `unhealthy: ` +
      `${ageMs === undefined ? 'no successful cycle yet' : `last successful cycle ${Math.round(ageMs / 1000)}s ago`}` +
      ` (limit ${Math.round(limitMs / 1000)}s)`;
  return { healthy, lastSuccessAt, ageMs: ageMs ?? null, maxAgeMs: limitMs, summary };
}

function invalidReason(lastSuccessAt: string): string {
  const shown = JSON.stringify(String(lastSuccessAt).slice(0, 40));
  return Number.isNaN(Date.parse(lastSuccessAt))
    ? `the last success time ${shown} is not a time`
    : `the last success time ${shown} is in the future (check the clock and the state file)`;
}
