// The notifier's promises, in process against real HTTP servers on 127.0.0.1: enqueue never
// waits for a service (a hanging one included), the same event goes out once, and a burst
// beyond the rate limit is dropped with one warning.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Notifier, NOTIFY_LIMITS } from '../../../src/notify/notifier.js';
import type { Logger } from '../../../src/lib/log.js';

const servers: http.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

async function server(answer: boolean): Promise<{ url: string; bodies: string[] }> {
  const bodies: string[] = [];
  const s = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      bodies.push(body);
      if (answer) res.end('ok');
    });
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/hook`, bodies };
}

const warnings: string[] = [];
const logger = {
  warn: (m: string) => warnings.push(m),
  debug: () => {},
  info: () => {},
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
    const notifier = new Notifier([hanging.url], logger, { ...NOTIFY_LIMITS, timeoutMs: 60_000 });
    const started = process.hrtime.bigint();
    notifier.enqueue([event(1)]);
    const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
    // Not a timing assertion of speed: the service holds the request for a minute, so a
    // notifier that waited for it could not return before the server saw it.
    expect(hanging.bodies).toHaveLength(0);
    expect(elapsedMs).toBeLessThan(60_000);
    await notifier.drain(200);
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
    expect(warnings).toEqual([expect.stringContaining('5 notification(s) to webhook at 127.0.0.1:')]);
  });
});
