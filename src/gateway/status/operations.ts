// What the gateway's --listen endpoint answers (the probe's HTTP server, src/probe/server.ts):
// /healthz, /metrics (Prometheus text) and /status (JSON), from the gateway's memory at request
// time. Healthy while every DNS listener is up, every served zone was read from the provider
// within the health limit, and the call budget is not spent. The limit is 3 x --refresh plus
// --timeout: a zone is read every --refresh, so one or two failed readings in a row (a provider
// blip, a timeout) pass, the third says the provider has been out of reach for a while and the
// answers given may be stale; the --timeout covers the reading in progress. The daemon's rule
// is the same (3 x --interval). Nothing here is a secret: zone names, counts, times, and the
// provider's error texts through redact().
import type { Answer } from '../../probe/server.js';
import { redact } from '../../lib/redact.js';
import type { GatewayBudget } from '../limits/call-budget.js';
import type { GatewayStats } from './stats.js';
import type { ZoneViews } from '../dns/zone-views.js';
import { counted } from '../../lib/counted.js';

const TEXT = 'text/plain; charset=utf-8';
const PROMETHEUS = 'text/plain; version=0.0.4; charset=utf-8';
const PATHS = ['/healthz', '/metrics', '/status'];

export interface GatewayView {
  stats: GatewayStats;
  views: ZoneViews;
  budget: GatewayBudget;
  /** DNS addresses asked for: health needs each of them answering. */
  listenCount: number;
  healthLimitMs: number;
  keyCount: () => number;
  /** The dyndns2 door's answers by code, when the door is open. */
  dyndns2Answers?: ReadonlyMap<string, number>;
  /** The door's ACME answers by `PROTOCOL STATUS` (httpreq, acme-dns), when the door is open. */
  acmeHttpAnswers?: ReadonlyMap<string, number>;
  now?: () => number;
}

interface ZoneStatus {
  zone: string;
  serial: number | null;
  lastGoodReadAt: string | null;
  secondsSinceGoodRead: number | null;
  lastError: string | null;
}

export function gatewayHealth(view: GatewayView): { healthy: boolean; reasons: string[] } {
  const reasons: string[] = [];
  if (view.stats.stopping) reasons.push('stopping: new updates are refused while those in flight finish');
  const up = view.stats.listening.length;
  if (up < view.listenCount) reasons.push(`${up} of ${counted(view.listenCount, 'DNS listener')} answering`);
  for (const z of zoneStatus(view)) {
    if (z.secondsSinceGoodRead === null)
      reasons.push(`${z.zone} not read from the provider yet${z.lastError ? ` (${z.lastError})` : ''}`);
    else if (z.secondsSinceGoodRead * 1000 > view.healthLimitMs)
      reasons.push(
        `${z.zone} last read from the provider ${z.secondsSinceGoodRead}s ago (limit ` +
          `${Math.round(view.healthLimitMs / 1000)}s)${z.lastError ? `: ${z.lastError}` : ''}`,
      );
  }
  const spent = view.budget.exhausted();
  if (spent)
    reasons.push(
      `the budget of ${view.budget.limit} provider calls an hour is spent until ${iso(spent.getTime())}: updates ` +
        `are answered SERVFAIL`,
    );
  return { healthy: !reasons.length, reasons };
}

export function gatewayAnswer(path: string, view: GatewayView): Answer {
  switch (path) {
    case '/healthz': {
      const { healthy, reasons } = gatewayHealth(view);
      const zones = view.stats.zones.length;
      return {
        status: healthy ? 200 : 503,
        contentType: TEXT,
        body: redact(
          healthy
            ? `healthy: ${counted(zones, 'zone')} read within the last ${Math.round(view.healthLimitMs / 1000)}s; ` +
                'DNS answering\n'
            : `unhealthy: ${reasons.join('; ')}\n`,
        ),
      };
    }
    case '/metrics':
      return { status: 200, contentType: PROMETHEUS, body: redact(metrics(view)) };
    case '/status':
      return { status: 200, contentType: 'application/json', body: redact(JSON.stringify(status(view))) + '\n' };
    default:
      return { status: 404, contentType: TEXT, body: `not found; ddedge gateway serves ${PATHS.join(', ')}\n` };
  }
}

function zoneStatus(view: GatewayView): ZoneStatus[] {
  const now = (view.now ?? Date.now)();
  return view.stats.zones.map((zone) => {
    const reading = view.stats.readings.get(zone) ?? {};
    return {
      zone,
      serial: view.views.index(zone)?.soa.value.serial ?? null,
      lastGoodReadAt: reading.goodAt === undefined ? null : iso(reading.goodAt),
      secondsSinceGoodRead:
        reading.goodAt === undefined ? null : Math.max(0, Math.round((now - reading.goodAt) / 1000)),
      lastError: reading.error ?? null,
    };
  });
}

function status(view: GatewayView) {
  const { healthy, reasons } = gatewayHealth(view);
  const spent = view.budget.spent();
  return {
    healthy,
    reasons,
    zones: zoneStatus(view),
    listening: view.stats.listening,
    keys: view.keyCount(),
    budget: { limit: view.budget.limit, left: view.budget.left(), spentUntil: spent ? iso(spent.getTime()) : null },
    updates: table(view.stats.updates, 'zone', 'rcode'),
    transfers: table(view.stats.transfers, 'zone', 'rcode'),
    queries: view.stats.queries,
    providerCalls: Object.fromEntries(view.budget.sent),
    ...(view.dyndns2Answers ? { dyndns2Answers: Object.fromEntries(view.dyndns2Answers) } : {}),
  };
}

/** Writes one metric family: its HELP and TYPE lines, then a line per sample (labels, value). */
type Metric = (name: string, type: 'gauge' | 'counter', help: string, samples: [string, number][]) => void;

function metrics(view: GatewayView): string {
  const lines: string[] = [];
  const metric: Metric = (name, type, help, samples) => {
    lines.push(
      `# HELP ${name} ${help}`,
      `# TYPE ${name} ${type}`,
      ...samples.map(([labels, value]) => `${name}${labels} ${value}`),
    );
  };
  trafficMetrics(view, metric);
  providerMetrics(view, metric);
  return lines.join('\n') + '\n';
}

/** Counts by "zone rcode" key, as samples labelled by zone and answer code. */
const pairs = (map: Map<string, number>): [string, number][] =>
  [...map]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, n]) => {
      const [zone, rcode] = key.split(' ');
      return [`{zone="${label(zone!)}",rcode="${rcode}"}`, n];
    });

/** Health, listeners and what the DNS door answered. */
function trafficMetrics(view: GatewayView, metric: Metric): void {
  metric('ddedge_gateway_up', 'gauge', 'Whether /healthz says healthy (1) or not (0).', [
    ['', gatewayHealth(view).healthy ? 1 : 0],
  ]);
  metric('ddedge_gateway_dns_listeners', 'gauge', 'DNS addresses answering (UDP and TCP).', [
    ['', view.stats.listening.length],
  ]);
  metric(
    'ddedge_gateway_updates_total',
    'counter',
    'Dynamic updates answered, by zone ("-": not served) and answer code.',
    pairs(view.stats.updates),
  );
  metric('ddedge_gateway_queries_total', 'counter', 'Queries answered (zone transfers apart).', [
    ['', view.stats.queries],
  ]);
  metric(
    'ddedge_gateway_transfers_total',
    'counter',
    'Zone transfers (AXFR, IXFR) answered, by zone and answer code.',
    pairs(view.stats.transfers),
  );
}

/** The provider's calls and budget, the zones' serials and readings, the keys, the dyndns2 door. */
function providerMetrics(view: GatewayView, metric: Metric): void {
  const zones = zoneStatus(view);
  metric(
    'ddedge_gateway_provider_calls_total',
    'counter',
    'Provider API calls sent, by operation.',
    [...view.budget.sent].sort(([a], [b]) => a.localeCompare(b)).map(([op, n]) => [`{operation="${label(op)}"}`, n]),
  );
  metric(
    'ddedge_gateway_provider_calls_refused_total',
    'counter',
    'Provider calls not sent because the call budget was spent.',
    [['', view.budget.refused]],
  );
  metric('ddedge_gateway_calls_per_hour_limit', 'gauge', 'The call budget (--max-calls-per-hour).', [
    ['', view.budget.limit],
  ]);
  metric('ddedge_gateway_calls_left', 'gauge', 'Provider calls left in the budget this hour.', [
    ['', view.budget.left()],
  ]);
  metric(
    'ddedge_gateway_zone_serial',
    'gauge',
    'The SOA serial the gateway gives each zone.',
    zones.filter((z) => z.serial !== null).map((z) => [`{zone="${label(z.zone)}"}`, z.serial!]),
  );
  metric(
    'ddedge_gateway_zone_read_age_seconds',
    'gauge',
    "Seconds since each zone's last good reading from the provider.",
    zones
      .filter((z) => z.secondsSinceGoodRead !== null)
      .map((z) => [`{zone="${label(z.zone)}"}`, z.secondsSinceGoodRead!]),
  );
  metric('ddedge_gateway_keys', 'gauge', 'TSIG keys loaded.', [['', view.keyCount()]]);
  if (view.dyndns2Answers)
    metric(
      'ddedge_gateway_dyndns2_answers_total',
      'counter',
      'Answers of the dyndns2 door, by code (one per host name, badauth per request).',
      [...view.dyndns2Answers]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([code, n]) => [`{code="${label(code)}"}`, n]),
    );
  if (view.acmeHttpAnswers)
    metric(
      'ddedge_gateway_acme_http_answers_total',
      'counter',
      "Answers of the HTTP door's ACME protocols (httpreq, acme-dns), by protocol and HTTP status.",
      [...view.acmeHttpAnswers]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, n]) => {
          const [protocol, code] = key.split(' ');
          return [`{protocol="${label(protocol!)}",status="${label(code!)}"}`, n];
        }),
    );
}

function table(map: Map<string, number>, first: string, second: string): Record<string, unknown>[] {
  return [...map]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, count]) => {
      const [a, b] = key.split(' ');
      return { [first]: a, [second]: b, count };
    });
}

const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
const label = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
