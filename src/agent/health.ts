// The one health rule, for `ddedge health` and the daemon's /healthz: healthy while the last
// fully successful cycle is younger than the limit (default three intervals).
import type { State } from '../state/state.js';

export interface Health {
  healthy: boolean;
  lastSuccessAt: string | null;
  ageMs: number | null;
  maxAgeMs: number;
  /** One line for people. */
  summary: string;
}

export const defaultHealthLimitMs = (intervalMs: number): number => 3 * intervalMs;

export function assessHealth(state: State, limitMs: number, nowMs: number = Date.now()): Health {
  const last = state.lastSuccessAt ? Date.parse(state.lastSuccessAt) : undefined;
  const ageMs = last === undefined || Number.isNaN(last) ? undefined : nowMs - last;
  const healthy = ageMs !== undefined && ageMs <= limitMs;
  const summary = healthy
    ? `healthy: last successful cycle ${Math.round(ageMs / 1000)}s ago`
    : `unhealthy: ${ageMs === undefined ? 'no successful cycle yet' : `last successful cycle ${Math.round(ageMs / 1000)}s ago`} (limit ${Math.round(limitMs / 1000)}s)`;
  return { healthy, lastSuccessAt: state.lastSuccessAt ?? null, ageMs: ageMs ?? null, maxAgeMs: limitMs, summary };
}
