// Durations as people write them, and limits shown in the unit they used.
import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration, unitOf } from '../../../src/lib/duration.js';

describe('parseDuration', () => {
  it.each([
    ['500ms', 500],
    ['15s', 15_000],
    ['5m', 300_000],
    ['2h', 7_200_000],
    ['7d', 604_800_000],
    ['90', 90_000],
    ['1.5h', 5_400_000],
    ['1h30m', 5_400_000],
    ['1m30s', 90_000],
    ['2d12h', 216_000_000],
    ['1h 30m', 5_400_000],
    ['1s500ms', 1500],
  ])('%s is %i ms', (text, ms) => expect(parseDuration(text)).toBe(ms));

  it.each(['', 'soon', '1h30', '-5s', '5 minutes', 'h', '1x', '30m1'])('"%s" is not a duration', (text) =>
    expect(parseDuration(text)).toBeUndefined(),
  );
});

describe('formatDuration', () => {
  it.each([
    [30_000, 's', '30s'],
    [30_000, 'm', '30s'],
    [100, 's', '100ms'],
    [604_800_000, 'd', '7d'],
    [604_800_000, 'h', '168h'],
    [600_000, 'h', '10m'],
    [5_400_000, undefined, '1h30m'],
  ])('%i ms for a user who wrote %s is %s', (ms, unit, text) => expect(formatDuration(ms, unit)).toBe(text));

  it('the unit of what the user wrote is its smallest', () => {
    expect(unitOf('1h30m')).toBe('m');
    expect(unitOf('10s')).toBe('s');
    expect(unitOf('250ms')).toBe('ms');
    expect(unitOf('45')).toBe('s');
  });
});
