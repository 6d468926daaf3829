const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses `500ms`, `15s`, `5m`, `2h`, `7d`, or a bare number of seconds. Returns ms, or undefined. */
export function parseDuration(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(text);
  if (!match) return undefined;
  const value = Number(match[1]) * UNITS[match[2] ?? 's']!;
  return Number.isFinite(value) ? Math.round(value) : undefined;
}

