// Each key's share of the hourly call budget: half of it where there are several keys (or what
// the keys file says), all of it for a lone key, counted per minute over the last hour.
import { describe, expect, it } from 'vitest';
import type { GatewayKeys } from '../../../../src/gateway/keys/keys-file.js';
import { KeyCalls } from '../../../../src/gateway/limits/key-calls.js';

const keysOf = (names: string[], quotas: [string, number][] = []): GatewayKeys => ({
  keys: new Map(names.map((name) => [name, {} as never])),
  grants: [],
  transfer: new Set(),
  quotas: new Map(quotas.map(([key, calls]) => [key, { calls }])),
  warnings: [],
});

describe('KeyCalls', () => {
  it('gives a lone key the whole budget, each of several half, and a key with a quota its quota', () => {
    expect(new KeyCalls(100, () => keysOf(['a'])).share('a')).toBe(100);
    const several = new KeyCalls(101, () => keysOf(['a', 'b'], [['b', 7]]));
    expect(several.share('a')).toBe(50);
    expect(several.share('b')).toBe(7);
  });

  it('refuses calls past the share, saying how many were spent, until they leave the hour', () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const calls = new KeyCalls(
      20,
      () => keysOf(['a', 'b']),
      () => now,
    );
    calls.charge('a', 6);
    now += 30 * 60_000;
    calls.charge('a', 4);
    calls.charge('a', 0);
    expect(calls.used('a')).toBe(10);
    expect(calls.afford('a', 0)).toBeUndefined();
    expect(calls.afford('a', 1)).toBe(
      'the key a has spent its share of the provider calls ' +
        '(10 of the 10 it may make an hour; this update may take 1); ' +
        'other keys are not held up by it (quota "KEY" calls N; in the keys file)',
    );
    expect(calls.afford('b', 10)).toBeUndefined();
    now += 30 * 60_000;
    expect(calls.used('a')).toBe(4);
    expect(calls.afford('a', 6)).toBeUndefined();
    now += 30 * 60_000;
    expect(calls.used('a')).toBe(0);
  });
});
