// When refusals become a "refused" notification, on a clock the test moves. A key counts only
// when its signature verified: `threshold` of its refusals within the window make one, then that
// key is quiet for `quietMs`. Everything else (unsigned, a key name nobody verified, bad dyndns2
// credentials) counts under its source (an IPv4 address, an IPv6 /64), and all of it is told in
// one digest, then quiet for `quietMs`: the names a client claims make no notification of their
// own and are never in one. The memory of keys and of sources is bounded.
import { describe, expect, it } from 'vitest';
import { REFUSAL_BURST, RefusalBursts } from '../../../../src/gateway/limits/refusal-bursts.js';
import type { RefusalOrigin } from '../../../../src/gateway/limits/refusal-log.js';

const refusal = { time: '', rcode: 'REFUSED', what: 'update unsigned, from 192.0.2.1', why: 'unsigned' };

function bursts(limits = REFUSAL_BURST) {
  let now = 1_700_000_000_000;
  const counter = new RefusalBursts(limits, () => now);
  return {
    /** Notes `n` refusals from `origin`; the notifications they made. */
    refuse: (n: number, origin: RefusalOrigin, r = refusal) =>
      Array.from({ length: n }, () => counter.note(origin, r)).filter((e) => e !== undefined),
    advance: (ms: number) => {
      now += ms;
    },
    at: () => new Date(now).toISOString(),
  };
}
const { threshold, quietMs, windowMs } = REFUSAL_BURST;
const verified = (key: string): RefusalOrigin => ({ key, zone: 'example.com', client: '192.0.2.1' });
const from = (client: string): RefusalOrigin => ({ client, zone: 'example.com' });

describe('RefusalBursts: verified keys', () => {
  it('tells nothing below the threshold, one notification at it, stamped with the clock', () => {
    const b = bursts();
    expect(b.refuse(threshold - 1, verified('router'))).toEqual([]);
    expect(b.refuse(1, verified('router'))).toEqual([
      {
        event: 'refused',
        time: b.at(),
        host: 'example.com',
        key: 'router',
        message: expect.stringContaining('5 refused within 5 min, the last: update unsigned'),
      },
    ]);
  });

  it('stays quiet for quietMs after telling, then tells again for a new burst', () => {
    const b = bursts();
    expect(b.refuse(threshold, verified('router'))).toHaveLength(1);
    expect(b.refuse(3 * threshold, verified('router'))).toEqual([]);
    b.advance(quietMs - 1);
    expect(b.refuse(threshold, verified('router'))).toEqual([]);
    b.advance(1);
    expect(b.refuse(threshold - 1, verified('router'))).toEqual([]);
    expect(b.refuse(1, verified('router'))).toHaveLength(1);
  });

  it('forgets refusals older than the window', () => {
    const b = bursts();
    expect(b.refuse(threshold - 1, verified('router'))).toEqual([]);
    b.advance(windowMs);
    expect(b.refuse(1, verified('router'))).toEqual([]);
    b.advance(windowMs - 1);
    expect(b.refuse(threshold - 2, verified('router'))).toEqual([]);
    expect(b.refuse(1, verified('router'))).toHaveLength(1);
  });

  it("counts each key apart: one key's burst neither tells nor silences another", () => {
    const b = bursts();
    expect(b.refuse(threshold - 1, verified('a'))).toEqual([]);
    expect(b.refuse(threshold - 1, verified('b'))).toEqual([]);
    expect(b.refuse(1, verified('a'))).toMatchObject([{ key: 'a' }]);
    expect(b.refuse(1, verified('b'))).toMatchObject([{ key: 'b' }]);
  });

  it('remembers at most `keys` keys: the oldest is forgotten first', () => {
    const b = bursts({ ...REFUSAL_BURST, keys: 2 });
    expect(b.refuse(threshold - 1, verified('first'))).toEqual([]);
    b.refuse(1, verified('second'));
    b.refuse(1, verified('third'));
    expect(b.refuse(1, verified('first'))).toEqual([]);
  });
});

describe('RefusalBursts: without a verified key', () => {
  it('30 claimed key names from one address make one digest, naming the address and none of the names', () => {
    const b = bursts();
    const told = Array.from({ length: 30 }, (_, i) =>
      b.refuse(
        1,
        { client: '127.0.0.1' },
        { ...refusal, rcode: 'NOTAUTH/BADKEY', what: `request key <!channel>${i}, from 127.0.0.1` },
      ),
    ).flat();
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ event: 'refused', time: b.at(), message: expect.stringContaining('127.0.0.1') });
    expect(told[0]!.key).toBeUndefined();
    expect(told[0]!.host).toBeUndefined();
    expect(JSON.stringify(told)).not.toContain('channel');
  });

  it('counts an IPv6 source by its /64, an IPv4-mapped address as IPv4', () => {
    const b = bursts();
    for (let i = 1; i < threshold; i++) expect(b.refuse(1, from(`2001:db8:1:2::${i.toString(16)}`))).toEqual([]);
    expect(b.refuse(1, from('2001:db8:1:2:ffff:1:2:3'))).toEqual([
      expect.objectContaining({ message: expect.stringContaining('2001:db8:1:2::/64') }),
    ]);
    const c = bursts();
    expect(c.refuse(threshold - 1, from('::ffff:192.0.2.9'))).toEqual([]);
    expect(c.refuse(1, from('192.0.2.9'))).toEqual([
      expect.objectContaining({ message: expect.stringContaining('192.0.2.9') }),
    ]);
  });

  it('different sources below the threshold tell nothing; one digest for the lot, then quiet', () => {
    const b = bursts();
    for (let i = 0; i < 20; i++) expect(b.refuse(threshold - 1, from(`198.51.100.${i}`))).toEqual([]);
    expect(b.refuse(1, from('198.51.100.3'))).toHaveLength(1);
    // Another source's burst within the quiet time is not told on its own...
    expect(b.refuse(threshold, from('203.0.113.7'))).toEqual([]);
    expect(b.refuse(threshold, verified('router'))).toHaveLength(1);
    b.advance(quietMs);
    // ...but counted in the next digest, with what came since the last one.
    const next = b.refuse(threshold, from('203.0.113.8'));
    expect(next).toHaveLength(1);
    expect(next[0]!.message).toMatch(/^10 refused without a verified key since the last such notification; the most /);
    expect(next[0]!.message).toContain('203.0.113.7 (5)');
    expect(next[0]!.message).toContain('203.0.113.8 (5)');
  });

  it('remembers at most `sources` sources (the least recently seen forgotten), and names at most `shownSources` of them', () => {
    const b = bursts({ ...REFUSAL_BURST, sources: 3, shownSources: 2 });
    for (let i = 0; i < 10; i++) expect(b.refuse(2, from(`198.51.100.${i}`))).toEqual([]);
    expect(b.refuse(threshold - 1, from('203.0.113.1'))).toEqual([]);
    const told = b.refuse(threshold, from('203.0.113.2'));
    expect(told).toHaveLength(1);
    expect(told[0]!.message).toMatch(
      /^29 refused without a verified key since the gateway started; the most from 203\.0\.113\.2 \(5\), 203\.0\.113\.1 \(4\), and 20 from other sources; the last: REFUSED/,
    );
  });
});
