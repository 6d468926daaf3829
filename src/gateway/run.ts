// `ddedge gateway --zone Z --keys FILE`: reads the keys file and every served zone (exit 2 for a
// bad file, a zone the account does not hold, a port in use), answers DNS until SIGTERM or
// SIGINT, re-reads each zone every --refresh, and reloads the keys file on SIGHUP (keeping the
// keys it had when the new file has an error). Every provider call is counted against the
// gateway's own hourly budget (call-budget.ts); --listen serves /healthz, /metrics and /status
// (operations.ts) with the daemon's HTTP endpoint.
import { readFileSync } from 'node:fs';
import type { ApiClient } from '../api/client.js';
import { apiClientFrom } from '../config/api-client.js';
import type { Config } from '../config/config.js';
import { service } from '../api/endpoints/service.js';
import { startEndpoint, type Endpoint } from '../probe/server.js';
import type { PageContext } from '../probe/page-frame.js';
import { listenError } from '../lib/listen-address.js';
import type { ListenAddress } from '../lib/listen-address.js';
import { undiciTransport } from '../http/undici-transport.js';
import { ConfigError, DdedgeError, ExitCode, exitCodeOf } from '../lib/errors.js';
import type { Logger } from '../lib/log.js';
import { BudgetSpentError } from '../state/budget.js';
import { othersMayWrite } from '../state/state-dir.js';
import { providerZone, type ZoneProvider } from '../zone/provider/provider-zone.js';
import { LIST_PAGE_LENGTH } from '../zone/provider/zone-listing.js';
import type { LiveRecord } from '../zone/record.js';
import { GatewayBudget } from './limits/call-budget.js';
import { filterFindsNames } from './dns/filter-probe.js';
import { KeyCalls } from './limits/key-calls.js';
import { loadKeysFile, type GatewayKeys } from './keys/keys-file.js';
import type { DnsListener } from '../dns/server/listener.js';
import { gatewayAnswer } from './status/operations.js';
import { startGatewayServer } from './dns-door.js';
import { sendNotify, type NotifyTarget } from './dns/notify-secondaries.js';
import { GatewayStats } from './status/stats.js';
import { RefusalLog } from './limits/refusal-log.js';
import { RefusalBursts } from './limits/refusal-bursts.js';
import { SecondaryLog } from './dns/secondaries.js';
import { sharedNotifier } from '../notify/notifier.js';
import { ZoneViews } from './dns/zone-views.js';
import { ReplayMemory } from './limits/replay-memory.js';
import { dhcidAnswers } from './dhcid/answers.js';
import { DhcidStore } from './dhcid/store.js';
import { reconcileUnfinished } from './journal/unfinished-batches.js';
import { SerialStore } from './dns/serial-store.js';
import { OwnersLedger } from './limits/key-quotas.js';
import { startDyndns2Door, type Dyndns2Door } from './dyndns2/door-start.js';
import type { Dyndns2Settings } from '../config/gateway-settings.js';
import type { UpdateDeps } from './update/handler.js';
import type { BatchDeps } from './update/batch-deps.js';
import { UpdateQueue } from './update/update-queue.js';

/** How often the replay memory is written when it changed: a crash forgets at most this much. */
const REPLAY_SAVE_MS = 2_000;
/** The longest wait for updates in flight at SIGTERM: a write and its rollback, each within --timeout, fit in it by default. */
const DRAIN_MS = 60_000;
/** The longest wait at SIGTERM for notifications still queued. */
const NOTIFY_STOP_WAIT_MS = 5_000;

export interface GatewaySettings {
  zones: string[];
  keysFile: string;
  listen: { host: string; port: number }[];
  primaryName: string;
  refreshMs: number;
  notify: NotifyTarget[];
  /** --notify URLs (a scheme://… value): told of refused-update bursts and zones changed elsewhere. */
  notifyUrls?: string[];
  /** The configuration the registrar API's clients are made from (config/api-client.ts). */
  config: Config;
  timeoutMs: number;
  stateDir: string;
  hosts: string[];
  /** --max-calls-per-hour: provider calls the gateway may make in any hour. */
  maxCallsPerHour: number;
  /** The dyndns2 door (--dyndns2-listen …); off when undefined. */
  dyndns2?: Dyndns2Settings;
  /** --allow-private-ip: the dyndns2 door accepts addresses that are not public unicast. */
  allowPrivateIp?: boolean;
  /** --listen: where /healthz, /metrics and /status are served; off when undefined. */
  httpListen?: ListenAddress;
  /** What the status page (/) needs from beyond loopback (--listen-token). */
  listenToken?: string;
  logger: Logger;
  /** Warnings about how it was set up, said once the start is past its fatal checks (keys file, credentials, zones). */
  startWarnings?: string[];
  /** Called once every address answers, with the ports bound (port 0 picks one). */
  ready?: (addresses: string[]) => void;
  /** Resolves when the gateway should stop. */
  stopped: Promise<void>;
  onReload?: (reload: () => void) => void;
}

export async function runGateway(settings: GatewaySettings): Promise<number> {
  const { logger } = settings;
  for (const warning of othersMayWrite([settings.stateDir, `${settings.stateDir}/gateway`])) logger.warn(`gateway: ${warning}`);
  let keys: GatewayKeys = loadKeys(settings.keysFile, logger);
  const budget = new GatewayBudget(settings.stateDir, settings.maxCallsPerHour, logger);
  const stats = new GatewayStats(settings.zones);
  const notifier = settings.notifyUrls?.length ? sharedNotifier(settings.notifyUrls, logger) : undefined;
  const bursts = new RefusalBursts();
  const secondaries = new SecondaryLog();
  const refusals = new RefusalLog(logger, Date.now, notifier && ((key, zone, refusal) => {
    const event = bursts.note(key, zone, refusal);
    if (event) notifier.enqueue([event]);
  }));
  const wire = undiciTransport();
  const clientFor = (zone?: string) =>
    apiClientFrom(settings.config, logger, { transport: budget.wrap(wire, zone) });
  // Refreshes read through a client of their own; each zone's updates through one that may use
  // the calls set aside for that zone's batch (and only for it).
  const reader = clientFor();
  const readers = new Map<string, ZoneProvider>(settings.zones.map((z) => [z, stats.watch(z, providerZone(reader, z))]));
  const writers = new Map<string, ZoneProvider>(settings.zones.map((z) => [z, stats.watch(z, providerZone(clientFor(z), z))]));
  const providerOf = (zone: string) => writers.get(zone)!;
  // A damaged DHCID store stops the start (exit 2): read as empty, it would let any DHCP client take every name.
  const dhcid = DhcidStore.open(settings.stateDir);
  const owners = OwnersLedger.open(settings.stateDir, logger);
  const views = new ZoneViews(
    settings.zones,
    (zone) => readers.get(zone)!,
    settings.primaryName,
    undefined,
    (zone, soa) => {
      for (const target of settings.notify) {
        const shown = `${target.host.includes(':') ? `[${target.host}]` : target.host}:${target.port}`;
        void sendNotify(target, soa, logger).then((ok) => {
          secondaries.notified(shown, zone, soa.value.serial, ok);
          if (ok) logger.info(`gateway: ${target.host}:${target.port} acknowledged the NOTIFY for ${zone} (serial ${soa.value.serial})`);
        });
      }
    },
    (zone, names) => dhcidAnswers(names ? names.flatMap((name) => dhcid.of(zone).get(name) ?? []) : [...dhcid.of(zone).values()].flat()),
    SerialStore.open(settings.stateDir, logger),
  );
  // A zone of one page is read whole for every update anyway; past that, its filter is checked once (filter-probe.ts).
  const checkFilter = async (zone: string, live: LiveRecord[]) => {
    if (views.filterFinds.has(zone) || live.length <= LIST_PAGE_LENGTH) return;
    const finds = await filterFindsNames(readers.get(zone)!, zone, live, logger);
    if (finds !== undefined) views.filterFinds.set(zone, finds);
  };
  // Every zone is read once before answering: a zone the account does not hold is a configuration error.
  for (const zone of settings.zones) {
    try {
      const live = await views.refresh(zone);
      owners.prune(zone, live, [...dhcid.of(zone).values()].flat());
      await checkFilter(zone, live);
    } catch (error) {
      // The provider out of reach (or the budget spent) is worth a restart later (exit 4); credentials
      // it rejects are exit 3, as for every command; a zone it does not hold is a configuration error (exit 2).
      if (exitCodeOf(error) === ExitCode.transient) throw new DdedgeError(`--zone ${zone}: cannot read it from the provider now: ${(error as Error).message}`, ExitCode.transient);
      if (exitCodeOf(error) === ExitCode.auth) throw new DdedgeError(`--zone ${zone}: cannot read it from the provider: ${(error as Error).message}`, ExitCode.auth);
      throw new ConfigError(`--zone ${zone}: cannot read it from the provider: ${(error as Error).message}${await accountZonesHint(reader)}`);
    }
  }
  for (const warning of settings.startWarnings ?? []) logger.warn(warning);
  warnIfRefreshesCrowdTheBudget(settings, views, logger);
  // Batches a gateway was writing when it was killed: said, and closed in the journal with what the provider holds.
  await reconcileUnfinished(settings.stateDir, settings.zones, (zone) => readers.get(zone)!, dhcid, logger);
  // One memory of the signed updates acted on, for every listener, kept across restarts.
  const replays = ReplayMemory.load(ReplayMemory.pathIn(settings.stateDir), Math.floor(Date.now() / 1000), logger);
  const saveReplays = setInterval(() => replays.save(Math.floor(Date.now() / 1000), logger), REPLAY_SAVE_MS);
  saveReplays.unref();
  const servers: DnsListener[] = [];
  let endpoint: Endpoint | undefined;
  let door: Dyndns2Door | undefined;
  let stopping = false;
  const inFlight = new Set<Promise<unknown>>();
  const keyCalls = new KeyCalls(budget.limit, () => keys);
  // One set of update deps for both doors (RFC 2136 and dyndns2): the same queue, budget, key
  // shares, quotas and owners ledger, so nothing a door makes escapes what the other holds to.
  const batchDeps: BatchDeps = {
    views,
    providerOf,
    keys: () => keys,
    stateDir: settings.stateDir,
    hosts: settings.hosts,
    logger,
    dhcid,
    owners,
    setAsideCalls: (zone, plan, rereads) => budget.setAside(zone, plan, rereads),
    affordCalls: (calls, forUpdate) => budget.afford(calls, forUpdate),
    releaseCalls: (zone) => budget.release(zone),
    keyCalls,
  };
  const updateDeps: UpdateDeps = { ...batchDeps, updates: new UpdateQueue(batchDeps), stopping: () => stopping, inFlight, refusals };
  // The zones' re-reading, set once the gateway answers (before, the button has nothing to do).
  let readAgain = () => {};
  try {
    for (const address of settings.listen) {
      try {
        servers.push(await startGatewayServer({ ...updateDeps, host: address.host, port: address.port, stats, refusals, replays, secondaries }));
      } catch (error) {
        throw listenError('--dns-listen', `${address.host.includes(':') ? `[${address.host}]` : address.host}:${address.port}`, error as NodeJS.ErrnoException);
      }
    }
    if (settings.dyndns2) {
      door = await startDyndns2Door(settings.dyndns2, { ...updateDeps, refusals, allowPrivateIp: settings.allowPrivateIp ?? false, budgetSpent: () => Boolean(budget.spent()) });
    }
    const shown = settings.listen.map((a, i) => `${a.host.includes(':') ? `[${a.host}]` : a.host}:${servers[i]!.port}`);
    stats.listening = shown;
    if (settings.httpListen) {
      // Health: each zone read within 3 x --refresh (two failed readings in a row pass), plus --timeout for the reading under way.
      const healthLimitMs = 3 * settings.refreshMs + settings.timeoutMs;
      const view = { stats, views, budget, listenCount: settings.listen.length, healthLimitMs, keyCount: () => keys.keys.size, dyndns2Answers: door?.counts };
      // The status page's code is loaded with its first visit.
      const page = {
        token: () => settings.listenToken,
        // The page's button: every zone read again now, as --refresh does (a reading under way is not doubled).
        updateNow: () => readAgain(),
        render: async (_url: URL, context: PageContext) => {
          const [{ gatewayPageView }, { renderGatewayPage }] = await Promise.all([import('./status/page-view.js'), import('./status/page.js')]);
          return renderGatewayPage(gatewayPageView({ view, keys: () => keys, refusals: refusals.recent, secondaries: secondaries.recent, stateDir: settings.stateDir }), context);
        },
      };
      endpoint = await startEndpoint({ listen: settings.httpListen, answer: (path) => gatewayAnswer(path, view), page, logger });
    }
    // SIGHUP is taken before the line below says it is: a reload right after start (systemd, a
    // script waiting for that line) would otherwise meet Node's default action and end the gateway.
    settings.onReload?.(() => {
      try {
        keys = loadKeys(settings.keysFile, logger);
        logger.info(`gateway: keys file reloaded; ${keys.keys.size} key(s)`);
      } catch (error) {
        logger.error(`gateway: the keys file was not reloaded, the keys loaded before stay: ${(error as Error).message}`);
      }
    });
    if (notifier) logger.info(`gateway: notifications of refused-update bursts and zones changed elsewhere to ${notifier.shown.join(', ')}`);
    logger.info(`gateway: answering DNS for ${settings.zones.join(', ')} on ${shown.join(', ')} (UDP and TCP); ${keys.keys.size} key(s); at most ${budget.limit} provider calls an hour (${budget.left()} left); pid ${process.pid} (SIGHUP reloads the keys file)`);
    settings.ready?.(shown);
    const reading = new Set<string>();
    readAgain = () => {
      // A spent budget was said once (call-budget.ts); queries are answered from the last reading meanwhile.
      if (budget.spent()) return;
      for (const zone of settings.zones) {
        // A reading still under way (a slow provider) is not doubled.
        if (reading.has(zone)) continue;
        reading.add(zone);
        const since = owners.version(zone);
        const before = { serial: views.serial(zone), own: views.ownChanges(zone), quiet: inFlight.size === 0 };
        views
          .refresh(zone)
          // A record gone from the provider (deleted elsewhere) no longer counts against its key's quota.
          .then(async (live) => {
            owners.prune(zone, live, [...dhcid.of(zone).values()].flat(), since);
            // Changed with no update of the gateway's under way, before or during the reading: made elsewhere.
            const serial = views.serial(zone);
            if (notifier && serial !== before.serial && before.quiet && inFlight.size === 0 && views.ownChanges(zone) === before.own) {
              notifier.enqueue([{ event: 'zone-changed', time: new Date().toISOString(), host: zone, old: String(before.serial), new: String(serial), message: `${zone} changed at the provider, not through the gateway (serial ${before.serial} -> ${serial}); the gateway now serves what the provider holds` }]);
            }
            await checkFilter(zone, live);
          })
          .catch((error: unknown) => error instanceof BudgetSpentError || logger.warn(`gateway: re-reading ${zone} failed: ${(error as Error).message}`))
          .finally(() => reading.delete(zone));
      }
    };
    const timer = setInterval(readAgain, settings.refreshMs);
    await settings.stopped;
    clearInterval(timer);
    // Updates in flight finish and are answered (a half-made update would be left half-made); new ones are refused.
    stopping = true;
    if (inFlight.size) logger.info(`gateway: stopping; waiting for ${inFlight.size} update(s) in flight`);
    const deadline = new Promise<void>((resolve) => setTimeout(resolve, DRAIN_MS).unref());
    await Promise.race([Promise.allSettled([...inFlight]), deadline]);
    // The answers of those updates are signed and written after they settle: let them go out.
    await new Promise((resolve) => setTimeout(resolve, 200));
    // The last notifications get a little time to go out, as the daemon gives them.
    await notifier?.drain(NOTIFY_STOP_WAIT_MS);
    logger.info('gateway: stopped');
    return 0;
  } finally {
    stats.listening = [];
    await Promise.all([...servers.map((s) => s.close()), endpoint?.close(), door?.close()]);
    clearInterval(saveReplays);
    replays.save(Math.floor(Date.now() / 1000), logger);
    await wire.close?.();
  }
}

/** Refreshes alone should leave most of the budget to updates: each takes a page of service/dnslist per 1,000 records. */
function warnIfRefreshesCrowdTheBudget(settings: GatewaySettings, views: ZoneViews, logger: Logger): void {
  const pages = settings.zones.reduce((n, zone) => n + Math.max(1, Math.ceil(views.size(zone) / LIST_PAGE_LENGTH)), 0);
  const perHour = pages * Math.ceil(3_600_000 / settings.refreshMs);
  if (perHour > settings.maxCallsPerHour / 2) {
    const paged = pages > settings.zones.length ? ` (${pages} pages of service/dnslist each time)` : '';
    logger.warn(`gateway: re-reading ${settings.zones.length} zone(s) every ${Math.round(settings.refreshMs / 1000)}s takes ${perHour} of the ${settings.maxCallsPerHour} provider calls allowed an hour${paged}; raise --refresh or --max-calls-per-hour`);
  }
}

function loadKeys(path: string, logger: Logger): GatewayKeys {
  const keys = loadKeysFile(path, (p) => readFileSync(p, 'utf8'));
  for (const warning of keys.warnings) logger.warn(`gateway: ${warning}`);
  return keys;
}

/**
 * The hosting services the account holds, named when a --zone is refused (a typo in a zone name
 * is the usual cause): one page of service/list, and nothing when even that fails.
 */
async function accountZonesHint(client: ApiClient): Promise<string> {
  try {
    const listed = (await client.call('service', service.list, { pageLength: 50 })) as { services: { name: string }[] };
    const names = listed.services.map((s) => s.name).filter(Boolean);
    return names.length ? `; the account's hosting services: ${names.slice(0, 20).join(', ')}${names.length > 20 ? ', …' : ''}` : '; the account holds no hosting service';
  } catch {
    return '';
  }
}
