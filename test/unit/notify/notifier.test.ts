// The notifier's promises, in process against real HTTP servers on 127.0.0.1: enqueue never
// waits for a service (a hanging one included), the same event goes out once, and a burst
// beyond the rate limit is dropped with one warning.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Notifier, NOTIFY_LIMITS } from '../../../src/notify/notifier.js';
import type { Logger } from '../../../src/lib/log.js';
import { HANG_BOUND_MS } from '../../helpers/cli.js';
import { FakeClock, until } from '../../helpers/fake-clock.js';

const servers: http.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** A service that answers each request with the next of `statuses` (200 once they are used up), or never. */
async function server(answer: boolean, statuses: number[] = []): Promise<{ url: string; bodies: string[] }> {
  const bodies: string[] = [];
  const s = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      bodies.push(body);
      res.statusCode = statuses.shift() ?? 200;
      if (answer) res.end('ok');
    });
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/hook`, bodies };
}

const warnings: string[] = [];
const infos: string[] = [];
const logger = {
  warn: (m: string) => warnings.push(m),
  debug: () => {},
  info: (m: string) => infos.push(m),
  error: () => {},
} as unknown as Logger;
const event = (n: number) => ({
  event: 'changed' as const,
  time: new Date(0).toISOString(),
  host: `h${n}.example.com`,
  type: 'A' as const,
  old: '81.0.2.1',
  new: '81.0.2.2',
  message: `h${n} changed`,
});

describe('Notifier', () => {
  it('enqueue returns at once, even when the service never answers', async () => {
    const hanging = await server(false);
    const clock = new FakeClock();
    const notifier = new Notifier([hanging.url], logger, { ...NOTIFY_LIMITS, timeoutMs: 60_000 }, clock);
    const started = process.hrtime.bigint();
    notifier.enqueue([event(1)]);
    const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
    // Not a timing assertion of speed: the service holds the request for a minute, so a
    // notifier that waited for it could not return before the server saw it.
    expect(hanging.bodies).toHaveLength(0);
    expect(elapsedMs).toBeLessThan(60_000);
    // drain() is bounded on the notifier's clock, however long the service holds the request.
    const drained = notifier.drain(200);
    await clock.advanceAsync(200);
    await drained;
  });

  // A command's stop that pauses for its notifications without a word, or drops them without one, looks broken.
  it('drain says what it waits for, and what was not delivered when its time was up; nothing when all went', async () => {
    const hanging = await server(false);
    const ok = await server(true);
    const clock = new FakeClock();
    const stuck = new Notifier([hanging.url], logger, { ...NOTIFY_LIMITS, timeoutMs: 60_000 }, clock);
    warnings.length = 0;
    infos.length = 0;
    stuck.enqueue([event(1), event(2)]);
    const drained = stuck.drain(5_000);
    await clock.advanceAsync(5_000);
    await drained;
    expect(infos).toEqual(['notify: delivering 2 notifications before exit, at most 5s']);
    expect(warnings).toEqual(['notify: 2 notifications not delivered: the 5s were up']);

    infos.length = 0;
    warnings.length = 0;
    const fine = new Notifier([ok.url], logger);
    fine.enqueue([event(3)]);
    await fine.drain(HANG_BOUND_MS);
    expect(ok.bodies).toHaveLength(1);
    expect(infos).toEqual([`notify: delivering 1 notification before exit, at most ${HANG_BOUND_MS / 1000}s`]);
    expect(warnings).toEqual([]);
    infos.length = 0;
    await fine.drain(HANG_BOUND_MS);
    expect(infos).toEqual([]);
  });

  it('sends the same event once', async () => {
    const ok = await server(true);
    const notifier = new Notifier([ok.url], logger);
    notifier.enqueue([event(1), event(1)]);
    notifier.enqueue([event(1)]);
    await notifier.drain(10_000);
    expect(ok.bodies).toHaveLength(1);
  });

  it('a burst beyond the limit is dropped, with one warning', async () => {
    warnings.length = 0;
    const ok = await server(true);
    const notifier = new Notifier([ok.url], logger, { ...NOTIFY_LIMITS, burst: 3, refillMs: 60_000 });
    notifier.enqueue(Array.from({ length: 8 }, (_, i) => event(i)));
    await notifier.drain(10_000);
    expect(ok.bodies).toHaveLength(3);
    expect(warnings).toEqual([expect.stringContaining('5 notifications to webhook at 127.0.0.1:')]);
  });

  it('the same event goes out again once the dedup window has passed on its clock', async () => {
    const ok = await server(true);
    const clock = new FakeClock();
    const notifier = new Notifier([ok.url], logger, NOTIFY_LIMITS, clock);
    notifier.enqueue([event(1)]);
    await notifier.drain(HANG_BOUND_MS);
    clock.advance(NOTIFY_LIMITS.dedupMs - 1);
    notifier.enqueue([event(1)]);
    await notifier.drain(HANG_BOUND_MS);
    expect(ok.bodies).toHaveLength(1);
    clock.advance(1);
    notifier.enqueue([event(1)]);
    await until(() => ok.bodies.length === 2);
  });

  it('a spent burst allows one more each refill of its clock', async () => {
    warnings.length = 0;
    const ok = await server(true);
    const clock = new FakeClock();
    const notifier = new Notifier([ok.url], logger, { ...NOTIFY_LIMITS, burst: 2, refillMs: 60_000 }, clock);
    notifier.enqueue([event(1), event(2), event(3)]);
    await until(() => warnings.length === 1);
    expect(ok.bodies).toHaveLength(2);
    clock.advance(59_999);
    notifier.enqueue([event(4)]);
    await until(() => warnings.length === 2);
    expect(ok.bodies).toHaveLength(2);
    clock.advance(1);
    notifier.enqueue([event(5)]);
    await until(() => ok.bodies.length === 3);
    expect(ok.bodies[2]).toContain('h5.example.com');
  });

  it('retries a 503 after its first pause on its clock, then twice as long', async () => {
    const flaky = await server(true, [503, 503]);
    const clock = new FakeClock();
    const notifier = new Notifier([flaky.url], logger, NOTIFY_LIMITS, clock);
    notifier.enqueue([event(1)]);
    await until(() => clock.pending === 1);
    expect(flaky.bodies).toHaveLength(1);
    expect(clock.nextDue! - clock.now()).toBe(NOTIFY_LIMITS.firstRetryMs);
    clock.advance(NOTIFY_LIMITS.firstRetryMs);
    await until(() => clock.pending === 1);
    expect(flaky.bodies).toHaveLength(2);
    expect(clock.nextDue! - clock.now()).toBe(2 * NOTIFY_LIMITS.firstRetryMs);
    clock.advance(2 * NOTIFY_LIMITS.firstRetryMs);
    await until(() => flaky.bodies.length === 3);
  });

  const refused = (n: number) => ({
    event: 'refused' as const,
    time: new Date(0).toISOString(),
    key: `key${n}`,
    message: `refusal burst ${n}`,
  });
  const zoneChanged = {
    event: 'zone-changed' as const,
    time: new Date(0).toISOString(),
    host: 'example.com',
    old: '1',
    new: '2',
    message: 'example.com changed at the provider',
  };
  const bodiesOf = (bodies: string[], event: string) =>
    bodies.map((b) => JSON.parse(b) as { event: string; message: string }).filter((b) => b.event === event);

  it('refusals neither spend nor empty the allowance of the events about the zone; they wait for their own', async () => {
    warnings.length = 0;
    const ok = await server(true);
    const clock = new FakeClock();
    const notifier = new Notifier([ok.url], logger, NOTIFY_LIMITS, clock);
    notifier.enqueue(Array.from({ length: 30 }, (_, i) => refused(i)));
    notifier.enqueue([zoneChanged]);
    await until(() => bodiesOf(ok.bodies, 'zone-changed').length === 1);
    await until(() => bodiesOf(ok.bodies, 'refused').length === NOTIFY_LIMITS.refusals.burst);
    // The rest wait for their allowance on the clock: none dropped, one more each refill.
    await until(() => clock.pending === 1);
    expect(clock.nextDue! - clock.now()).toBe(NOTIFY_LIMITS.refusals.refillMs);
    clock.advance(NOTIFY_LIMITS.refusals.refillMs);
    await until(() => bodiesOf(ok.bodies, 'refused').length === NOTIFY_LIMITS.refusals.burst + 1);
    expect(warnings).toEqual([]);
  });

  it('a zone-changed is not held behind a refusal the service is slow to take', async () => {
    const bodies: string[] = [];
    const s = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      // Refusals are held (never answered); anything else is taken at once.
      req.on('end', () => {
        bodies.push(body);
        if (!body.includes('"refused"')) res.end('ok');
      });
    });
    servers.push(s);
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}/hook`;
    const notifier = new Notifier([url], logger, { ...NOTIFY_LIMITS, timeoutMs: 60_000 }, new FakeClock());
    notifier.enqueue([refused(1)]);
    await until(() => bodies.length === 1);
    notifier.enqueue([zoneChanged]);
    await until(() => bodiesOf(bodies, 'zone-changed').length === 1);
  });

  it('refusals beyond their queue are merged into the last one waiting, and say so', async () => {
    warnings.length = 0;
    const ok = await server(true);
    const clock = new FakeClock();
    const refusals = { queue: 2, burst: 1, refillMs: 60_000 };
    const notifier = new Notifier([ok.url], logger, { ...NOTIFY_LIMITS, refusals }, clock);
    notifier.enqueue(Array.from({ length: 5 }, (_, i) => refused(i)));
    await until(() => clock.pending === 1);
    clock.advance(refusals.refillMs);
    await until(() => bodiesOf(ok.bodies, 'refused').length === 2);
    expect(bodiesOf(ok.bodies, 'refused').map((b) => b.message)).toEqual([
      'refusal burst 0',
      expect.stringMatching(
        /^\(3 more refusal notifications merged into this one; the gateway's log has each\) refusal burst 1$/,
      ),
    ]);
    expect(clock.pending).toBe(0);
    expect(warnings).toEqual([]);
  });

  it('each refusal notification is its own report: two with the same key at different times are both sent', async () => {
    const ok = await server(true);
    const clock = new FakeClock();
    const notifier = new Notifier([ok.url], logger, NOTIFY_LIMITS, clock);
    notifier.enqueue([{ ...refused(1), time: new Date(0).toISOString() }]);
    notifier.enqueue([{ ...refused(1), time: new Date(60_000).toISOString() }]);
    await until(() => bodiesOf(ok.bodies, 'refused').length === 2);
  });
});
