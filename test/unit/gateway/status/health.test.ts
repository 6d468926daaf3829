// The gateway's health rule and endpoint answers (src/gateway/operations.ts) on a clock of the
// test's own: the limit's edge, each reason, and a spent budget.
import { describe, expect, it } from 'vitest';
import { GatewayBudget } from '../../../../src/gateway/limits/call-budget.js';
import { gatewayAnswer, gatewayHealth, type GatewayView } from '../../../../src/gateway/status/operations.js';
import { GatewayStats } from '../../../../src/gateway/status/stats.js';
import { ZoneViews } from '../../../../src/gateway/dns/zone-views.js';
import { silentLogger } from '../../../../src/lib/log.js';
import type { ZoneProvider } from '../../../../src/zone/provider/provider-zone.js';
import { tempDir } from '../../../helpers/cli.js';

const T0 = Date.parse('2026-11-23T10:00:00Z');

function setup(limit = 10) {
  let now = T0;
  let fail: Error | undefined;
  const provider = {
    list: async () => {
      if (fail) throw fail;
      return [];
    },
  } as unknown as ZoneProvider;
  const stats = new GatewayStats(['example.com', 'example.net']);
  const providers = new Map(stats.zones.map((z) => [z, stats.watch(z, provider, () => now)]));
  const views = new ZoneViews(
    stats.zones,
    (z) => providers.get(z)!,
    'gw.example.org',
    () => Math.floor(now / 1000),
  );
  const budget = new GatewayBudget(tempDir(), limit, silentLogger, () => new Date(now));
  const view: GatewayView = {
    stats,
    views,
    budget,
    listenCount: 1,
    healthLimitMs: 5_000,
    keyCount: () => 1,
    now: () => now,
  };
  return {
    view,
    views,
    stats,
    budget,
    at: (ms: number) => {
      now = T0 + ms;
    },
    failWith: (error?: Error) => {
      fail = error;
    },
  };
}

describe("the gateway's health", () => {
  it('is healthy while every zone was read within the limit and DNS answers; names each reason otherwise', async () => {
    const { view, views, stats, at, failWith } = setup();
    expect(gatewayHealth(view).reasons).toEqual([
      '0 of 1 DNS listener answering',
      'example.com not read from the provider yet',
      'example.net not read from the provider yet',
    ]);
    stats.listening = ['127.0.0.1:53'];
    await views.refresh('example.com');
    await views.refresh('example.net');
    at(5_000);
    expect(gatewayHealth(view)).toEqual({ healthy: true, reasons: [] });
    expect(gatewayAnswer('/healthz', view)).toMatchObject({
      status: 200,
      body: 'healthy: 2 zones read within the last 5s; DNS answering\n',
    });
    failWith(new Error('no complete answer from https://api.example/service/dnslist/ within 2000 ms'));
    await expect(views.refresh('example.net')).rejects.toThrow();
    at(6_000);
    const answer = gatewayAnswer('/healthz', view);
    expect(answer.status).toBe(503);
    expect(answer.body).toBe(
      'unhealthy: example.com last read from the provider 6s ago (limit 5s); example.net last read from the provider 6s ago (limit 5s): no complete answer from https://api.example/service/dnslist/ within 2000 ms\n',
    );
    failWith(undefined);
    await views.refresh('example.com');
    await views.refresh('example.net');
    expect(gatewayAnswer('/healthz', view).status).toBe(200);
  });

  it('is unhealthy while it stops: new updates are refused then', async () => {
    const { view, views, stats } = setup();
    stats.listening = ['127.0.0.1:53'];
    await views.refresh('example.com');
    await views.refresh('example.net');
    stats.stopping = true;
    expect(gatewayAnswer('/healthz', view)).toMatchObject({
      status: 503,
      body: 'unhealthy: stopping: new updates are refused while those in flight finish\n',
    });
  });

  it('is unhealthy while the budget is spent, says until when, and healthy again once calls resume', async () => {
    const { view, stats, budget, at } = setup(2);
    stats.listening = ['127.0.0.1:53'];
    const wire = {
      send: async () => ({
        status: 200,
        headers: {},
        body: Object.assign((async function* () {})(), { destroy() {} }),
      }),
    };
    const send = budget.wrap(wire);
    const request = {
      url: new URL('https://api.example/service/dnslist/'),
      method: 'POST' as const,
      headers: {},
      signal: new AbortController().signal,
    };
    await send.send(request);
    await send.send(request);
    await expect(send.send(request)).rejects.toThrow(
      /budget of 2 provider calls an hour is spent; calls resume at 2026-11-23T11:01:00Z/,
    );
    expect(gatewayHealth(view).reasons).toContain(
      'the budget of 2 provider calls an hour is spent until 2026-11-23T11:01:00Z: updates are answered SERVFAIL',
    );
    expect(gatewayAnswer('/metrics', view).body).toContain('ddedge_gateway_provider_calls_refused_total 1\n');
    at(61 * 60_000);
    expect(budget.spent()).toBeUndefined();
    expect(budget.left()).toBe(2);
  });

  it('answers 404 for another path, naming the three', () => {
    expect(gatewayAnswer('/', setup().view)).toMatchObject({
      status: 404,
      body: 'not found; ddedge gateway serves /healthz, /metrics, /status\n',
    });
  });
});
