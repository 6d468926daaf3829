// The gateway's doors, opened once it has started: the DNS listeners (UPDATE, queries,
// transfers), the dyndns2 door when asked for, and the --listen endpoint (/healthz, /metrics,
// /status and the status page, operations.ts). One set of update deps serves both update doors
// (RFC 2136 and dyndns2): the same queue, budget, key shares, quotas and owners ledger, so
// nothing a door makes escapes what the other holds to.
import type { DnsListener } from '../dns/server/listener.js';
import { listenError } from '../lib/listen-address.js';
import type { PageContext } from '../probe/page-frame.js';
import { startEndpoint, type Endpoint } from '../probe/server.js';
import { startGatewayServer } from './dns-door.js';
import { acmeHttpProtocols } from './acme-http/door.js';
import { startDyndns2Door, type Dyndns2Door } from './dyndns2/door-start.js';
import { KeyCalls } from './limits/key-calls.js';
import type { GatewaySettings } from './run-settings.js';
import type { StartedGateway } from './start.js';
import { gatewayAnswer } from './status/operations.js';
import type { BatchDeps } from './update/batch-deps.js';
import type { UpdateDeps } from './update/handler.js';
import { UpdateQueue } from './update/update-queue.js';
import { hostPort } from '../lib/host-port.js';

/** The doors opened so far: closed at the end, whichever opened before one failed. */
export interface OpenDoors {
  servers: DnsListener[];
  endpoint?: Endpoint;
  door?: Dyndns2Door;
  /** The door's ACME answers by `PROTOCOL STATUS` (for /metrics). */
  acmeHttpAnswers?: Map<string, number>;
}

/** The deps of both update doors, with the gateway's one queue of updates. */
export function updateDepsOf(
  gateway: StartedGateway,
  settings: GatewaySettings,
  run: { stopping: () => boolean; inFlight: Set<Promise<unknown>> },
): UpdateDeps {
  const { budget } = gateway;
  const batchDeps: BatchDeps = {
    views: gateway.views,
    providerOf: gateway.providerOf,
    keys: gateway.keys,
    stateDir: settings.stateDir,
    hosts: settings.hosts,
    logger: settings.logger,
    dhcid: gateway.dhcid,
    owners: gateway.owners,
    setAsideCalls: (zone, plan, rereads) => budget.setAside(zone, plan, rereads),
    affordCalls: (calls, forUpdate) => budget.afford(calls, forUpdate),
    releaseCalls: (zone) => budget.release(zone),
    keyCalls: new KeyCalls(budget.limit, gateway.keys),
  };
  return { ...batchDeps, updates: new UpdateQueue(batchDeps), ...run, refusals: gateway.refusals };
}

/** Opens every door into `open`; resolves with the DNS listeners' addresses, as the ready line shows them. */
export async function openDoors(
  gateway: StartedGateway,
  settings: GatewaySettings,
  updateDeps: UpdateDeps,
  open: OpenDoors,
  readAgain: () => void,
): Promise<string[]> {
  const { stats, refusals, replays, secondaries, budget } = gateway;
  for (const address of settings.listen) {
    try {
      open.servers.push(
        await startGatewayServer({
          ...updateDeps,
          host: address.host,
          port: address.port,
          stats,
          refusals,
          replays,
          secondaries,
          clock: settings.clock,
        }),
      );
    } catch (error) {
      throw listenError('--dns-listen', hostPort(address.host, address.port), error as NodeJS.ErrnoException);
    }
  }
  if (settings.dyndns2) {
    const budgetSpent = () => Boolean(budget.spent());
    open.acmeHttpAnswers = new Map();
    open.door = await startDyndns2Door(settings.dyndns2, {
      ...updateDeps,
      refusals,
      allowPrivateIp: settings.allowPrivateIp ?? false,
      budgetSpent,
      // The ACME protocols (httpreq, acme-dns) on the same door, with the same update deps.
      otherProtocols: acmeHttpProtocols({ ...updateDeps, refusals, budgetSpent, counts: open.acmeHttpAnswers }),
    });
  }
  const shown = settings.listen.map((a, i) => hostPort(a.host, open.servers[i]!.port));
  stats.listening = shown;
  if (settings.httpListen) open.endpoint = await startStatusEndpoint(gateway, settings, open, readAgain);
  return shown;
}

/** --listen: /healthz, /metrics, /status and the status page (its code loaded with its first visit). */
function startStatusEndpoint(
  gateway: StartedGateway,
  settings: GatewaySettings,
  { door, acmeHttpAnswers }: OpenDoors,
  readAgain: () => void,
): Promise<Endpoint> {
  const { stats, views, budget, keys, refusals, secondaries } = gateway;
  // Health: each zone read within 3 x --refresh (two failed readings in a row pass), plus --timeout
  // for the reading under way.
  const healthLimitMs = 3 * settings.refreshMs + settings.timeoutMs;
  const view = {
    stats,
    views,
    budget,
    listenCount: settings.listen.length,
    healthLimitMs,
    keyCount: () => keys().keys.size,
    dyndns2Answers: door?.counts,
    acmeHttpAnswers,
  };
  const page = {
    token: () => settings.listenToken,
    // The page's button: every zone read again now, as --refresh does (a reading under way is not doubled).
    updateNow: () => readAgain(),
    actionName: 'read the zones again now',
    render: async (_url: URL, context: PageContext) => {
      const [{ gatewayPageView }, { renderGatewayPage }] = await Promise.all([
        import('./status/page-view.js'),
        import('./status/page.js'),
      ]);
      return renderGatewayPage(
        gatewayPageView({
          view,
          keys,
          refusals: refusals.recent,
          secondaries: secondaries.recent,
          stateDir: settings.stateDir,
        }),
        context,
      );
    },
  };
  return startEndpoint({
    listen: settings.httpListen!,
    tls: settings.listenTls,
    answer: (path) => gatewayAnswer(path, view),
    page,
    logger: settings.logger,
    clock: settings.clock,
  });
}
