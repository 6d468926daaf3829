// The accounting behind the connection guard, in-process on a fake clock: which connection gives
// way to a newcomer (not one being answered; a source's own past its share; past the total, an
// unknown source's before a known one's, the source holding the most, the one waiting longest),
// sources counted as IPv4 addresses and IPv6 /64s, and known sources remembered within bounds.
import { describe, expect, it } from 'vitest';
import { ConnectionTable, type ConnectionLimits } from '../../../../src/http/server/connection-table.js';
import { FakeClock } from '../../../helpers/fake-clock.js';

const HOUR = 3_600_000;

function table(changes: Partial<ConnectionLimits> = {}) {
  const clock = new FakeClock();
  const limits = { total: 4, perSource: 3, knownSources: 8, knownForMs: HOUR, ...changes };
  const t = new ConnectionTable<string>(limits, clock);
  /** Admits `name` from `address` a second after the last one (so ages differ), and what it closed. */
  const admit = (name: string, address: string) => {
    clock.advance(1_000);
    return t.admit(name, address);
  };
  return { t, clock, admit };
}

/** A request whose arrival the test decides. */
function request(received = false) {
  return {
    done: received,
    received(): boolean {
      return this.done;
    },
  };
}

describe('the connection table', () => {
  it("lets a newcomer past its source's share in by closing that source's oldest connection", () => {
    const { admit } = table({ total: 100 });
    for (const name of ['a1', 'a2', 'a3']) expect(admit(name, '192.0.2.1')).toEqual([]);
    expect(admit('b1', '192.0.2.2')).toEqual([]);
    expect(admit('a4', '192.0.2.1')).toEqual(['a1']);
    expect(admit('a5', '192.0.2.1')).toEqual(['a2']);
  });

  it('counts an IPv6 /64 as one source, and an IPv4-mapped address as its IPv4 address', () => {
    const { t, admit } = table({ total: 100, perSource: 2 });
    admit('x1', '2001:db8:1:2::1');
    admit('x2', '2001:db8:1:2:ffff::9');
    expect(admit('x3', '2001:db8:1:2::77')).toEqual(['x1']);
    expect(admit('y1', '2001:db8:1:3::1')).toEqual([]);
    admit('v1', '192.0.2.9');
    admit('v2', '::ffff:192.0.2.9');
    expect(admit('v3', '192.0.2.9')).toEqual(['v1']);
    expect(t.size).toBe(5);
  });

  it('never closes a connection whose request has fully arrived; one still sending its body gives way', () => {
    const { t, admit } = table({ total: 100 });
    admit('a1', '192.0.2.1');
    admit('a2', '192.0.2.1');
    admit('a3', '192.0.2.1');
    const answering = request(true);
    const dripping = request(false);
    t.requestStarted('a1', answering);
    t.requestStarted('a2', dripping);
    // a1 is being answered: the oldest that can give way is a2, still sending its body.
    expect(admit('a4', '192.0.2.1')).toEqual(['a2']);
    expect(admit('a5', '192.0.2.1')).toEqual(['a3']);
    // Its body arrives: a request now being answered, never cut.
    const arriving = request(false);
    t.requestStarted('a4', arriving);
    arriving.done = true;
    expect(admit('a6', '192.0.2.1')).toEqual(['a5']);
  });

  it('refuses a newcomer only when every connection it could replace is being answered', () => {
    const { t, admit } = table({ total: 2, perSource: 2 });
    admit('a1', '192.0.2.1');
    admit('b1', '192.0.2.2');
    const [ra, rb] = [request(true), request(true)];
    t.requestStarted('a1', ra);
    t.requestStarted('b1', rb);
    expect(admit('c1', '192.0.2.3')).toBeUndefined();
    expect(admit('a2', '192.0.2.1')).toBeUndefined();
    expect(t.size).toBe(2);
    // Answered, b1 waits again and gives way.
    t.requestAnswered('b1', rb);
    expect(admit('c1', '192.0.2.3')).toEqual(['b1']);
  });

  it('past the total, closes the oldest connection of the source holding the most', () => {
    const { admit } = table({ total: 4, perSource: 4 });
    admit('b1', '192.0.2.2');
    admit('a1', '192.0.2.1');
    admit('a2', '192.0.2.1');
    admit('c1', '192.0.2.3');
    // b1 is the oldest of all, but 192.0.2.1 holds the most: its oldest pays.
    expect(admit('d1', '192.0.2.4')).toEqual(['a1']);
    // All hold one: the oldest of all pays, never the newest (a probe that has just connected).
    expect(admit('e1', '192.0.2.5')).toEqual(['b1']);
    expect(admit('f1', '192.0.2.6')).toEqual(['a2']);
  });

  it('counts a kept-alive connection as the newest once its answer is finished', () => {
    const { t, clock, admit } = table({ total: 3, perSource: 3 });
    admit('a1', '192.0.2.1');
    admit('a2', '192.0.2.1');
    admit('a3', '192.0.2.1');
    const r = request(true);
    t.requestStarted('a1', r);
    clock.advance(1_000);
    t.requestAnswered('a1', r);
    expect(admit('a4', '192.0.2.1')).toEqual(['a2']);
    expect(admit('a5', '192.0.2.1')).toEqual(['a3']);
    expect(admit('a6', '192.0.2.1')).toEqual(['a1']);
  });

  it("closes a known source's connection only after every unknown one that can give way", () => {
    const { t, admit } = table({ total: 4, perSource: 4 });
    t.knownClient('192.0.2.1');
    admit('router', '192.0.2.1');
    admit('x1', '198.51.100.1');
    admit('x2', '198.51.100.1');
    admit('y1', '198.51.100.2');
    // The router's connection is the oldest, and its source as large as y's: the crowd pays.
    expect(admit('x3', '198.51.100.1')).toEqual(['x1']);
    expect(admit('z1', '198.51.100.3')).toEqual(['x2']);
    expect(admit('z2', '198.51.100.3')).toEqual(['y1']);
    // 198.51.100.3 holds the most now.
    expect(admit('z3', '198.51.100.3')).toEqual(['z1']);
    // Every other one is being answered: then the router's gives way too.
    for (const name of ['x3', 'z2', 'z3']) t.requestStarted(name, request(true));
    expect(admit('w1', '198.51.100.4')).toEqual(['router']);
  });

  it('knows a source as a whole /64, for knownForMs after its last authentication', () => {
    const { t, clock } = table();
    t.knownClient('2001:db8:5:6::1');
    expect(t.isKnown('2001:db8:5:6::abcd')).toBe(true);
    expect(t.isKnown('2001:db8:5:7::1')).toBe(false);
    clock.advance(HOUR - 1);
    t.knownClient('2001:db8:5:6::2');
    clock.advance(HOUR - 1);
    expect(t.isKnown('2001:db8:5:6::1')).toBe(true);
    clock.advance(1);
    expect(t.isKnown('2001:db8:5:6::1')).toBe(false);
  });

  it('remembers at most knownSources sources, forgetting the one known longest ago', () => {
    const { t, clock } = table({ knownSources: 3 });
    for (const address of ['192.0.2.1', '192.0.2.2', '192.0.2.3']) {
      clock.advance(1_000);
      t.knownClient(address);
    }
    // Known again: now the newest.
    t.knownClient('192.0.2.1');
    t.knownClient('192.0.2.4');
    expect(['192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.4'].map((a) => t.isKnown(a))).toEqual([
      true,
      false,
      true,
      true,
    ]);
  });

  it('forgets a closed connection once, whoever closed it', () => {
    const { t, admit } = table({ total: 100, perSource: 2 });
    admit('a1', '192.0.2.1');
    admit('a2', '192.0.2.1');
    t.forget('a1');
    t.forget('a1');
    t.forget('never-admitted');
    expect(admit('a3', '192.0.2.1')).toEqual([]);
    expect(t.size).toBe(2);
  });
});
