const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const LARGEST_FIRST = ['d', 'h', 'm', 's', 'ms'] as const;

/** One `<number><unit>` part of a duration; `ms` is tried before `m`. */
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/y;

/**
 * Parses `500ms`, `15s`, `5m`, `2h`, `7d`, compound forms such as `1h30m` or `2d 12h`, or a
 * bare number of seconds. Returns ms, or undefined.
 */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (/^\d+(?:\.\d+)?$/.test(trimmed)) return finite(Number(trimmed) * 1000);
  const compact = trimmed.replace(/\s+/g, '');
  if (!compact) return undefined;
  let total = 0;
  PART.lastIndex = 0;
  while (PART.lastIndex < compact.length) {
    const match = PART.exec(compact);
    if (!match) return undefined;
    total += Number(match[1]) * UNITS[match[2]!]!;
  }
  return finite(total);
}

const finite = (ms: number): number | undefined => (Number.isFinite(ms) ? Math.round(ms) : undefined);

/** The smallest unit a duration was written in (`1h30m` -> m; a bare number -> s). */
export function unitOf(text: string): string {
  const units = [...text.matchAll(/\d(ms|s|m|h|d)/g)].map((m) => m[1]!);
  return units.sort((a, b) => UNITS[a]! - UNITS[b]!)[0] ?? 's';
}

/**
 * Writes ms for a person: in `unit` when it is a whole number of them (30s for a user who wrote
 * seconds), else in compound form from the largest unit down (1h30m, 7d, 100ms).
 */
export function formatDuration(ms: number, unit?: string): string {
  if (unit && UNITS[unit] && ms % UNITS[unit]! === 0) return `${ms / UNITS[unit]!}${unit}`;
  if (ms === 0) return '0s';
  let rest = ms;
  let text = '';
  for (const u of LARGEST_FIRST) {
    const count = Math.floor(rest / UNITS[u]!);
    if (count > 0) {
      text += `${count}${u}`;
      rest -= count * UNITS[u]!;
    }
  }
  return text;
}
