// What the status page shows of the secondaries: the last NOTIFY per target and zone, the last
// transfer per client, on the target's own line when it transfers from the notified address.
import { describe, expect, it } from 'vitest';
import { SecondaryLog } from '../../../../src/gateway/dns/secondaries.js';

describe('SecondaryLog', () => {
  it('keeps the last NOTIFY per target and zone, newest activity last', () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const log = new SecondaryLog(() => now);
    log.notified('192.0.2.53:53', 'example.com', 1, false);
    log.notified('192.0.2.54:53', 'example.com', 1, true);
    now += 1000;
    log.notified('192.0.2.53:53', 'example.com', 2, true);
    expect(log.recent).toEqual([
      {
        secondary: '192.0.2.54:53',
        zone: 'example.com',
        notify: { at: '2026-01-01T00:00:00.000Z', serial: 1, acknowledged: true },
      },
      {
        secondary: '192.0.2.53:53',
        zone: 'example.com',
        notify: { at: '2026-01-01T00:00:01.000Z', serial: 2, acknowledged: true },
      },
    ]);
  });

  it("puts a notified secondary's transfer on its own line, and another client's on a new one", () => {
    const log = new SecondaryLog(() => Date.parse('2026-01-01T00:00:00Z'));
    log.notified('[2001:db8::53]:5353', 'example.com', 7, true);
    log.transferred('2001:db8::53', 'example.com', 'IXFR');
    log.transferred('198.51.100.9', 'example.com', 'AXFR');
    expect(log.recent).toEqual([
      {
        secondary: '[2001:db8::53]:5353',
        zone: 'example.com',
        notify: { at: '2026-01-01T00:00:00.000Z', serial: 7, acknowledged: true },
        transfer: { at: '2026-01-01T00:00:00.000Z', type: 'IXFR' },
      },
      { secondary: '198.51.100.9', zone: 'example.com', transfer: { at: '2026-01-01T00:00:00.000Z', type: 'AXFR' } },
    ]);
  });

  it('is bounded: the oldest rows go first', () => {
    const log = new SecondaryLog(() => 0);
    for (let i = 0; i < 60; i++) log.transferred(`198.51.100.${i}`, 'example.com', 'AXFR');
    expect(log.recent).toHaveLength(50);
    expect(log.recent[0]!.secondary).toBe('198.51.100.10');
    expect(log.recent.at(-1)!.secondary).toBe('198.51.100.59');
  });
});
